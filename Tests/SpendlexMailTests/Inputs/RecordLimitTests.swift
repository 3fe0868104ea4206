import Foundation
import Testing
@testable import SpendlexMail

/// Records larger than the record limit are reported and skipped, so that memory stays bounded
/// even for a file without separators; the records around them are read as usual.
@Suite("Record limit")
struct RecordLimitTests {
    typealias Support = InputTestSupport

    /// Sniffing reads the whole small file up front (format nil); a given format streams it in
    /// chunks. Both must give the same items.
    @Test(arguments: [(64, nil), (4096, nil), (64, InputFormat.mbox), (4096, .mbox)])
    func oversizedMboxMessageIsSkipped(chunkSize: Int, format: InputFormat?) throws {
        let big = String(repeating: "a line of a very large message body\n", count: 500)
        let text = "From a@b.c Mon Jan  1 00:00:00 2024\nSubject: one\n\nsmall\n\n"
            + "From a@b.c Mon Jan  1 00:00:01 2024\nSubject: two\n\n\(big)\n"
            + "From a@b.c Mon Jan  1 00:00:02 2024\nSubject: three\n\nsmall\n"
        let path = try Support.temporaryFile(Array(text.utf8), name: "big.mbox")
        let items = Array(try InputReader(path: path, format: format, chunkSize: chunkSize, recordLimit: 8192))
        #expect(items.map(Support.kind) == ["email", "malformed", "email"])
        #expect(Support.reason(items[1]) == "message larger than 8192 bytes: skipped")
        #expect(items[1].offset == Support.offset(of: "From a@b.c Mon Jan  1 00:00:01", in: Array(text.utf8)))
        #expect(Support.emails(items).map(Support.string) == ["Subject: one\n\nsmall\n", "Subject: three\n\nsmall\n"])
    }

    @Test(arguments: [nil, InputFormat.smsBackupXML])
    func oversizedMMSIsSkippedUpToItsEndTag(format: InputFormat?) throws {
        let data = String(repeating: "QUJD", count: 4000)
        let xml = """
            <?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
            <smses count="3">
            <sms address="A" date="1" type="1" body="first" />
            <mms date="2" msg_box="1" address="B"><parts><part ct="image/jpeg" data="\(data)" /><part ct="text/plain" text="caption" /></parts></mms>
            <sms address="C" date="3" type="1" body="third" />
            </smses>
            """
        let path = try Support.temporaryFile(Array(xml.utf8), name: "big.xml")
        let items = Array(try InputReader(path: path, format: format, chunkSize: 1024, recordLimit: 8192))
        #expect(items.map(Support.kind) == ["text", "malformed", "text"])
        #expect(Support.reason(items[1]) == "<mms> element larger than 8192 bytes: skipped")
        #expect(Support.texts(items).map(\.text) == ["first", "third"])
    }

    @Test(arguments: [nil, InputFormat.jsonLines])
    func overlongJSONLineIsSkipped(format: InputFormat?) throws {
        let long = "{\"text\": \"" + String(repeating: "x", count: 20_000) + "\"}"
        let text = "{\"text\": \"a\"}\n\(long)\n{\"text\": \"b\"}\n\(long)"
        let path = try Support.temporaryFile(Array(text.utf8), name: "long.jsonl")
        let items = Array(try InputReader(path: path, format: format, chunkSize: 1024, recordLimit: 8192))
        #expect(items.map(Support.kind) == ["jsonLine", "malformed", "jsonLine", "malformed"])
        #expect(items.map(\.offset) == [1, 2, 3, 4])
        #expect(Support.reason(items[1]) == "line 2 longer than 8192 bytes: skipped")
    }
}
