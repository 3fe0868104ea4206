import Foundation
import Testing
@testable import SpendlexMail

@Suite("SMS Backup & Restore reader")
struct SMSBackupReaderTests {
    typealias Support = InputTestSupport

    static let expectedKinds = ["text", "text", "skipped", "skipped", "text", "skipped", "skipped", "text"]

    @Test func everyMessageYieldsOneItem() throws {
        let path = Support.fixture("sms-backup.xml")
        let reader = try InputReader(path: path)
        #expect(reader.format == .smsBackupXML)
        let items = Array(reader)
        // <smses count="8">: four received, a sent SMS, a draft, a sent MMS, an MMS with only an image.
        #expect(items.map(Support.kind) == Self.expectedKinds)
        #expect(items.compactMap(Support.reason) == [
            "sent SMS (type 2), not a received message", "draft SMS (type 3), not a received message",
            "sent MMS (msg_box 2), not a received message", "MMS without a text part",
        ])
        #expect(reader.bytesRead == reader.totalBytes)
    }

    /// The bug: an element cut by a chunk boundary made the scanner search again from before
    /// the bytes the refill kept, in stale memory; now and then that found a `<` there and the
    /// element came out as `<s<sms>` ("not a message"). Every chunk size must read the same.
    @Test func elementsAcrossChunkBoundariesReadTheSame() throws {
        var xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<smses count=\"400\">\n"
        for index in 0..<400 {
            xml += "  <sms protocol=\"0\" address=\"VM-TBANK\" date=\"\(1_700_000_000_000 + index)\" type=\"1\" "
                + "body=\"spent Rs.\(index) &lt;at&gt; SHOP\(index)&#10;bye\" read=\"1\" />\n"
        }
        xml += "</smses>\n"
        let path = try Support.temporaryFile(Array(xml.utf8), name: "chunks.xml")
        let whole = try Support.items(path).map { "\($0.offset) \(Support.kind($0))" }
        #expect(whole.count == 400 && !whole.contains { !$0.hasSuffix("text") })
        for chunkSize in [64, 65, 97, 128, 200, 257, 333, 512] {
            let chunked = try Support.items(path, format: .smsBackupXML, chunkSize: chunkSize)
            #expect(chunked.map { "\($0.offset) \(Support.kind($0))" } == whole, "chunk size \(chunkSize)")
            #expect(Support.texts(chunked).map(\.text) == (0..<400).map { "spent Rs.\($0) <at> SHOP\($0)\nbye" })
        }
    }

    @Test func smsFieldsAndEntitiesDecode() throws {
        let path = Support.fixture("sms-backup.xml")
        let file = try Support.fixtureBytes("sms-backup.xml")
        let texts = Support.texts(try Support.items(path))
        #expect(texts.count == 4)
        let hdfc = texts[0]
        #expect(hdfc.id == "sms:VM-HDFCBK:1714646161000")
        #expect(hdfc.sender == "VM-HDFCBK")
        #expect(hdfc.receivedAt == Date(timeIntervalSince1970: 1_714_646_161))
        #expect(hdfc.channel == "sms")
        #expect(hdfc.file == path)
        #expect(hdfc.offset == Support.offset(of: "<sms protocol=\"0\" address=\"VM-HDFCBK\"", in: file))
        #expect(hdfc.text.hasSuffix("Call 18002586161 & SMS BLOCK 1234 to 7308080808-HDFC Bank"))
        // Surrogate-pair references make one emoji; &#10; is a line break.
        #expect(texts[1].text == "Chase: You made a $42.17 transaction with STARBUCKS 😀\nReply STOP to end <alerts> \"ok\" 'fine' €5")
        #expect(texts[3].text == "Rs 999.00 spent on Kotak Bank Card XX5566 at FLIPKART > limit alert \ttab \u{FFFD} lone surrogate &unknown; &bogus; bare & ")
    }

    @Test func receivedMMSYieldsItsTextParts() throws {
        let file = try Support.fixtureBytes("sms-backup.xml")
        let mms = Support.texts(try Support.items(Support.fixture("sms-backup.xml")))[2]
        #expect(mms.text == "You paid £12.40 to PRET A MANGER 🚀")
        #expect(mms.sender == "+447700900123")
        #expect(mms.id == "mms:+447700900123:1714646400000")
        #expect(mms.receivedAt == Date(timeIntervalSince1970: 1_714_646_400))
        #expect(mms.offset == Support.offset(of: "<mms date=\"1714646400000\"", in: file))
    }

    @Test(arguments: [64, 100, 333, 1 << 20])
    func chunkBoundariesDoNotChangeTheResult(chunkSize: Int) throws {
        let path = Support.fixture("sms-backup.xml")
        let whole = try Support.items(path)
        let chunked = try Support.items(path, format: .smsBackupXML, chunkSize: chunkSize)
        #expect(chunked.map(Support.kind) == whole.map(Support.kind))
        #expect(Support.texts(chunked).map(\.text) == Support.texts(whole).map(\.text))
        #expect(chunked.map(\.offset) == whole.map(\.offset))
    }

    @Test func truncatedInsideAnElementEndsWithOneMalformedItem() throws {
        let file = try Support.fixtureBytes("sms-backup.xml")
        let cut = Support.offset(of: "<part seq=\"0\" ct=\"text/plain\"", in: file)!
        let path = try Support.temporaryFile(Array(file[..<cut]), name: "cut.xml")
        let items = try Support.items(path)
        #expect(items.map(Support.kind) == ["text", "text", "skipped", "skipped", "malformed"])
        #expect(Support.reason(items[4]) == "truncated XML: the file ends inside <mms> (4 of 8 declared messages read)")
        #expect(items[4].offset == Support.offset(of: "<mms date=\"1714646400000\"", in: file))
    }

    @Test func truncatedBetweenElementsEndsWithOneMalformedItem() throws {
        let file = try Support.fixtureBytes("sms-backup.xml")
        let cut = Support.offset(of: "</smses>", in: file)!
        let items = try Support.items(try Support.temporaryFile(Array(file[..<cut]), name: "cut.xml"))
        #expect(items.map(Support.kind) == Self.expectedKinds + ["malformed"])
        #expect(Support.reason(items[8]) == "truncated XML: the file ends before </smses> (8 of 8 declared messages read)")
    }

    @Test func invalidUTF8InAnAttributeIsReplacedAndTheRecordKept() throws {
        let head = Array("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<smses count=\"1\">\n<sms address=\"VM-ICICIB\" date=\"1700000000000\" type=\"1\" body=\"INR 5 spent ".utf8)
        let tail = Array(" at CAF\u{C9}\" />\n</smses>\n".utf8)
        let path = try Support.temporaryFile(head + [0xFF, 0xC3] + tail, name: "bad.xml")
        let texts = Support.texts(try Support.items(path))
        #expect(texts.map(\.text) == ["INR 5 spent \u{FFFD}\u{FFFD} at CAFÉ"])
    }

    @Test func malformedElementIsReportedAndReadingGoesOn() throws {
        let xml = """
            <?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
            <smses count="3">
            <sms address="A" date="1" type="1" body=unquoted />
            <sms address="B" date="2" type="1" body="second" />
            <sms address="C" date="3" type="1" />
            </smses>
            """
        let items = try Support.items(try Support.temporaryFile(Array(xml.utf8), name: "bad.xml"))
        #expect(items.map(Support.kind) == ["malformed", "text", "malformed"])
        #expect(Support.reason(items[0]) == "malformed XML in <sms>: unquoted attribute value")
        #expect(Support.reason(items[2]) == "<sms> without a body attribute")
    }

    @Test func xmlWithAnotherRootIsNotAnSMSBackup() throws {
        let xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<calls count=\"1\">\n<call number=\"+1555\" duration=\"3\" date=\"1\" type=\"1\" />\n</calls>\n"
        let path = try Support.temporaryFile(Array(xml.utf8), name: "calls.xml")
        #expect(throws: InputError.self) { try InputDetector.detect(path: path) }
        let items = try Support.items(path, format: .smsBackupXML)
        #expect(items.count == 1)
        #expect(Support.reason(items[0]) == "not an SMS Backup & Restore file: root element <calls>")
    }
}

@Suite("XML attribute text")
struct XMLAttributeTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("a &amp; b", "a & b"),
        ("&lt;&gt;&quot;&apos;", "<>\"'"),
        ("line&#10;break", "line\nbreak"),
        ("&#x20AC;&#8364;", "€€"),
        ("&#55357;&#56832;", "😀"),
        ("&#55357;x", "\u{FFFD}x"),
        ("&#56832;", "\u{FFFD}"),
        ("&#55357;&#55357;&#56832;", "\u{FFFD}😀"),
        ("&#0;&#1114112;", "\u{FFFD}\u{FFFD}"),
        ("&nbsp; & &;", "&nbsp; & &;"),
    ])
    func decodes(input: String, expected: String) {
        let bytes = Array(input.utf8)
        let decoded = bytes.withUnsafeBufferPointer { XMLAttributeText.decode($0.baseAddress!, $0.count) }
        #expect(decoded == expected)
    }
}
