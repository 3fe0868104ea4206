import Foundation
import Testing
import SpendlexEngine
@testable import SpendlexMail
import SpendlexTestSupport

/// Writes `text` to a temporary file and returns its path.
func temporaryFile(_ text: String, name: String = "messages.jsonl") throws -> String {
    let folder = TestScratch.root.appendingPathComponent("spendlex-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// Reads a JSON Lines file the way `spendlex parse` does: split by `InputReader`, decoded per line.
func readJSONLines(_ path: String) throws -> [InputRecord] {
    try InputReader(path: path, format: .jsonLines).map { item -> InputRecord in
        switch item {
        case .jsonLine(let bytes, let file, let line): JSONLinesMessageReader.record(from: bytes[...], file: file, line: line)
        case .malformed(let file, let offset, let reason): .malformed(file: file, offset: offset, reason: reason)
        default: .malformed(file: item.file, offset: item.offset, reason: "unexpected item \(item)")
        }
    }
}

@Suite("JSON Lines messages")
struct JSONLinesMessageReaderTests {
    @Test func readsEveryFieldAndKeepsOrder() throws {
        let path = try temporaryFile("""
            {"id": "a", "text": "one", "sender": "VM-HDFCBK", "subject": "s", "received_at": "2026-05-02T16:56:01Z", "channel": "SMS", "extra": 1}

            {"text": "two\\nlines"}\r
            {"id": 42, "text": "three", "channel": "carrier-pigeon"}
            """)
        let records = try readJSONLines(path)
        let messages = records.compactMap { if case .message(let m) = $0 { m } else { nil } }
        #expect(messages.map(\.id) == ["a", "\(path):3", "42"])
        #expect(messages[0].sender == "VM-HDFCBK" && messages[0].subject == "s" && messages[0].channel == .sms)
        #expect(messages[0].receivedAt == Date(timeIntervalSince1970: 1_777_740_961))
        #expect(messages[1].text == "two\nlines")
        #expect(messages[2].channel == .unknown)
        #expect(messages.map(\.offset) == [1, 3, 4])
    }

    @Test("an e-mail body pasted as HTML is read as its text; text that merely mentions a tag is left alone")
    func htmlBodies() throws {
        let path = try temporaryFile("""
            {"id": "h", "channel": "email", "text": "\\n<html><body><table><tr><td>Amount:</td><td>SGD&nbsp;100.50</td></tr><tr><td>To:</td><td>Jane</td></tr></table></body></html>"}
            {"id": "t", "text": "Use <b>only</b> the app"}
            """)
        let messages = try readJSONLines(path).compactMap { if case .message(let m) = $0 { m } else { nil } }
        #expect(messages.map(\.text) == ["Amount: | SGD 100.50\nTo: | Jane", "Use <b>only</b> the app"])
        #expect(HTMLText.looksLikeHTML("<!DOCTYPE html><p>x</p>") && HTMLText.looksLikeHTML("  <P>Dear customer"))
        #expect(!HTMLText.looksLikeHTML("<3 thanks") && !HTMLText.looksLikeHTML("Rs 500 <debited>"))
    }

    @Test func badLinesAreKeptAsMalformedRecordsWithReasons() throws {
        let path = try temporaryFile("""
            {"id": "ok", "text": "fine"}
            not json
            [1, 2]
            {"id": "no-text"}
            {"text": "bad date", "received_at": "2026-02-30T00:00:00Z"}
            {"text": "truncated
            """)
        let records = try readJSONLines(path)
        #expect(records.count == 6)
        let reasons = records.compactMap { record -> String? in
            if case .malformed(_, _, let reason) = record { return reason }
            return nil
        }
        #expect(reasons == ["line 2: not valid JSON", "line 3: not a JSON object", "line 4: no 'text' string",
                            "line 5: invalid received_at '2026-02-30T00:00:00Z'", "line 6: not valid JSON"])
    }

    @Test func linesLongerThanOneReadChunkSurvive() throws {
        let long = String(repeating: "x", count: 3 << 20)
        let path = try temporaryFile("{\"id\": \"big\", \"text\": \"\(long)\"}\n{\"id\": \"after\", \"text\": \"y\"}\n")
        let ids = try readJSONLines(path).compactMap { record -> String? in
            if case .message(let m) = record { return "\(m.id):\(m.text.count)" }
            return nil
        }
        #expect(ids == ["big:\(3 << 20)", "after:1"])
    }

    @Test func emptyAndMissingFiles() throws {
        #expect(throws: InputError.self) { try readJSONLines(try temporaryFile("")) }
        #expect(throws: InputError.self) { try readJSONLines("/no/such/file.jsonl") }
    }
}

/// `raw`: a whole e-mail in a line, as Gmail's API gives it or a job that split a mailbox
/// upstream does, with where it was read.
@Suite("JSON Lines messages holding whole e-mails")
struct JSONLinesRawEmailTests {
    static let email = "From: Bank <alerts@bank.example>\r\nMessage-ID: <m1@bank.example>\r\nSubject: Alert\r\n\r\nRs 500 debited\r\n"

    @Test("raw is base64, standard or URL-safe, padded or not; file and offset say where it was read")
    func rawEmails() throws {
        let bytes = Array(Self.email.utf8)
        let standard = Data(bytes).base64EncodedString()
        let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let path = try temporaryFile("""
            {"raw": "\(standard)", "file": "hdfs://mail/2026.mbox", "offset": 123456}
            {"raw": "\(urlSafe)"}
            """)
        let emails = try readJSONLines(path).compactMap { if case .email(let e) = $0 { e } else { nil } }
        #expect(emails.count == 2)
        #expect(emails.allSatisfy { $0.bytes == bytes })
        #expect(emails[0].file == "hdfs://mail/2026.mbox" && emails[0].offset == 123456)
        #expect(emails[1].file == path && emails[1].offset == 2)
    }

    @Test("a raw that is no base64, or empty, is a malformed line with why")
    func badRaw() throws {
        let path = try temporaryFile("""
            {"raw": "!!!"}
            {"raw": ""}
            {"raw": 12}
            """)
        let reasons = try readJSONLines(path).compactMap { if case .malformed(_, _, let why) = $0 { why } else { nil } }
        #expect(reasons == ["line 1: 'raw' is not a base64 e-mail", "line 2: 'raw' is not a base64 e-mail",
                            "line 3: 'raw' is not a base64 e-mail"])
    }

    @Test("a text message takes its file and offset from the line when given; a negative offset is not one")
    func provenanceOfTextMessages() throws {
        let path = try temporaryFile("""
            {"id": "a", "text": "one", "file": "s3a://bucket/sms.jsonl", "offset": 77}
            {"id": "b", "text": "two", "offset": -5}
            """)
        let messages = try readJSONLines(path).compactMap { if case .message(let m) = $0 { m } else { nil } }
        #expect(messages.map(\.file) == ["s3a://bucket/sms.jsonl", path])
        #expect(messages.map(\.offset) == [77, 2])
    }
}
