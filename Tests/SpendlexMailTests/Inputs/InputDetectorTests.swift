import Foundation
import Testing
@testable import SpendlexMail

@Suite("Input format detection")
struct InputDetectorTests {
    typealias Support = InputTestSupport

    /// Content decides, whatever the file is called.
    @Test(arguments: [
        ("takeout.mbox", "All mail.txt", InputFormat.mbox),
        ("mboxrd.mbox", "inbox.eml", .mbox),
        ("sms-backup.xml", "backup.eml", .smsBackupXML),
        ("messages.jsonl", "mail.mbox", .jsonLines),
        ("alert.eml", "alerts.xml", .eml),
    ])
    func detectsFromContentNotName(fixture: String, misleadingName: String, expected: InputFormat) throws {
        let path = try Support.temporaryFile(try Support.fixtureBytes(fixture), name: misleadingName)
        #expect(try InputDetector.detect(path: path) == expected)
        #expect(try InputReader(path: path).format == expected)
    }

    @Test(arguments: [
        ("\u{FEFF}\n\nFrom a@b.c Mon Jan  1 00:00:00 2024\nSubject: x\n", InputFormat.mbox),
        ("<smses count=\"0\"></smses>", .smsBackupXML),
        ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<!--File Created By SMS Backup & Restore-->\n<smses count=\"1\">", .smsBackupXML),
        ("<?xml version='1.0'?>", .smsBackupXML),
        ("  {\"text\": \"x\"}\n", .jsonLines),
        ("Received: from mx.example.org\n", .eml),
        ("Delivered-To: a@example.org\n", .eml),
        ("Return-Path: <a@example.org>\n", .eml),
        ("X-Anything: 1\n", .eml),
        ("Foo: bar\nBaz: qux\n", .eml),
        ("Foo: bar\n  continued\n", .eml),
    ])
    func detectsPrefixes(prefix: String, expected: InputFormat) {
        #expect(InputDetector.detect(prefix: Array(prefix.utf8)) == expected)
    }

    @Test(arguments: [
        "",
        "\n \n",
        "Note: this is prose\n\nnot a header block\n",
        "hello world\n",
        "[{\"text\": \"x\"}]",
        "<?xml version='1.0'?>\n<rss version=\"2.0\"><channel/></rss>",
        "<html><body>hi</body></html>",
    ])
    func rejectsOtherText(prefix: String) {
        #expect(InputDetector.detect(prefix: Array(prefix.utf8)) == nil)
    }

    @Test func emptyFileIsAnError() throws {
        let path = try Support.temporaryFile([], name: "empty.mbox")
        #expect(throws: InputError.unknownFormat(path: path, reason: "empty file")) { try InputDetector.detect(path: path) }
        #expect(throws: InputError.unknownFormat(path: path, reason: "empty file")) { try InputReader(path: path) }
        #expect(throws: InputError.unknownFormat(path: path, reason: "empty file")) { try InputReader(path: path, format: .mbox) }
    }

    @Test(arguments: [
        ([0x00, 0x01, 0x02, 0x03, 0x10, 0x00, 0xFF] as [UInt8], "binary data (NUL bytes)"),
        ([0x1F, 0x8B, 0x08, 0x00], "binary data: gzip-compressed; decompress it first"),
        (Array("SQLite format 3\u{0}".utf8), "binary data: an SQLite database"),
        ([0xFF, 0xFE, 0x46, 0x00], "binary data: UTF-16 text; convert it to UTF-8 first"),
    ])
    func binaryFileIsAnError(bytes: [UInt8], reason: String) throws {
        let path = try Support.temporaryFile(bytes, name: "junk.mbox")
        #expect(throws: InputError.unknownFormat(path: path, reason: reason)) { try InputReader(path: path) }
    }

    @Test func unreadablePathIsAnError() throws {
        let path = try Support.temporaryDirectory() + "/missing.mbox"
        #expect(throws: InputError.unreadable(path: path, reason: "No such file or directory")) { try InputReader(path: path) }
        #expect(throws: InputError.unreadable(path: path, reason: "No such file or directory")) { try InputDetector.detect(path: path) }
        #expect("\(InputError.unreadable(path: path, reason: "No such file or directory"))" == "cannot read \(path): No such file or directory")
    }

    @Test func unknownTextNamesItsFirstLine() throws {
        let path = try Support.temporaryFile(Array("Dear diary,\ntoday I spent Rs.100\n".utf8), name: "notes.eml")
        #expect(throws: InputError.unknownFormat(
            path: path, reason: "not mbox, Maildir, email, SMS backup XML or JSON Lines (first line: \"Dear diary,\")")) {
            try InputReader(path: path)
        }
    }

    @Test func directoriesAndFilesMustMatchTheirFormat() throws {
        let directory = try Support.temporaryDirectory()
        #expect(throws: InputError.unknownFormat(path: directory, reason: "empty directory")) { try InputReader(path: directory) }
        #expect(throws: InputError.self) { try InputReader(path: directory, format: .mbox) }
        let file = Support.fixture("alert.eml")
        #expect(throws: InputError.self) { try InputReader(path: file, format: .maildir) }
        try Support.write("just notes", "notes.txt", in: directory)
        #expect(throws: InputError.unknownFormat(path: directory, reason: "a directory with no Maildir (cur/, new/) and no email files")) {
            try InputDetector.detect(path: directory)
        }
        #expect(throws: InputError.self) { try InputDetector.detect(path: "-") }
    }

    @Test func formatNamesAreTheCommandLineNames() {
        #expect(InputFormat.allCases.map(\.rawValue) == ["mbox", "maildir", "eml", "eml-folder", "sms-backup-xml", "jsonl"])
    }
}

@Suite("JSON Lines splitting")
struct JSONLinesInputTests {
    @Test func yieldsEachNonBlankLineWithItsNumber() throws {
        let path = InputTestSupport.fixture("messages.jsonl")
        let reader = try InputReader(path: path)
        #expect(reader.format == .jsonLines)
        let lines: [(String, Int)] = Array(reader).compactMap {
            if case .jsonLine(let bytes, let file, let line) = $0, file == path { (String(decoding: bytes, as: UTF8.self), line) } else { nil }
        }
        #expect(lines.map(\.0) == [
            #"{"id": "a1", "text": "Rs.100 debited", "sender": "VM-HDFCBK"}"#, #"{"id": "a2", "text": "INR 200 spent"}"#,
            #"{"text": "no trailing newline"}"#,
        ])
        #expect(lines.map(\.1) == [1, 4, 5])
        #expect(reader.bytesRead == reader.totalBytes)
    }
}

@Suite("Record accounting")
struct InputAccountingTests {
    /// Every record of every fixture yields exactly one item: emails, texts, lines, skipped and
    /// malformed records add up to the records in the input.
    @Test(arguments: [
        ("mboxrd.mbox", 3), ("mboxo.mbox", 2), ("takeout.mbox", 3), ("sms-backup.xml", 8), ("messages.jsonl", 3),
        ("alert.eml", 1), ("eml-folder", 4),
    ])
    func everyRecordYieldsOneItem(fixture: String, records: Int) throws {
        let reader = try InputReader(path: InputTestSupport.fixture(fixture))
        var count = 0
        while reader.next() != nil { count += 1 }
        #expect(count == records)
        #expect(reader.next() == nil)
        #expect(reader.bytesRead == reader.totalBytes)
    }
}
