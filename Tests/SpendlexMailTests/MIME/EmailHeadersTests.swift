import Foundation
import Testing
@testable import SpendlexMail

@Suite("Header block, unfolding and routing fields")
struct EmailHeadersTests {
    static func headers(_ text: String) throws -> EmailHeaders {
        try MIMEDecoder.headers(of: Array(text.utf8))
    }

    @Test func fieldsInOrderWithNamesAsWritten() throws {
        let headers = try Self.headers("From: a@b.example\nX-Custom:  value  \nSubject: hi\n\nbody\n")
        #expect(headers.fields.map(\.name) == ["From", "X-Custom", "Subject"])
        #expect(headers.fields.map(\.value) == ["a@b.example", "value", "hi"])
        #expect(headers.bodyOffset == 50)
    }

    @Test(arguments: ["\n", "\r\n"])
    func unfoldingKeepsTheWhitespaceAndDropsTheLineBreak(_ newline: String) throws {
        let text = ["Subject: one", "  two", "\tthree", "Received: from x", "        by y", "", "body"]
            .joined(separator: newline)
        let headers = try Self.headers(text)
        #expect(headers.field("Subject") == "one  two\tthree")
        #expect(headers.field("received") == "from x        by y")
        #expect(headers.bodyOffset == text.utf8.count - 4)
    }

    @Test func mixedLineEndings() throws {
        let headers = try Self.headers("A: 1\r\n 2\nB: 3\n\t4\r\nC: 5\r\n\nbody")
        #expect(headers.fields.map(\.value) == ["1 2", "3\t4", "5"])
        #expect(headers.bodyOffset == 25)
    }

    @Test func fieldLookupIsCaseInsensitiveAndTakesTheFirst() throws {
        let headers = try Self.headers("Received: one\nRECEIVED: two\nsubject: s\n\n")
        #expect(headers.field("received") == "one")
        #expect(headers.fields(named: "Received") == ["one", "two"])
        #expect(headers.field("SUBJECT") == "s")
        #expect(headers.field("Missing") == nil)
    }

    @Test func aMessageWithoutBlankLineIsAllHeaders() throws {
        let text = "From: a@b.example\nSubject: no body"
        let headers = try Self.headers(text)
        #expect(headers.bodyOffset == text.utf8.count)
        #expect(headers.field("Subject") == "no body")
    }

    @Test func aLineThatIsNotAFieldStartsTheBody() throws {
        let headers = try Self.headers("From: a@b.example\nthis is body text\nSubject: not a header\n")
        #expect(headers.fields.count == 1)
        #expect(headers.bodyOffset == 18)
    }

    @Test func anMboxEnvelopeLineIsSkipped() throws {
        let headers = try Self.headers("From alerts@x.example Mon Jun 17 20:18:21 2024\nFrom: \"X\" <alerts@x.example>\n\n")
        #expect(headers.fields.map(\.name) == ["From"])
        #expect(headers.fromAddress == "alerts@x.example")
    }

    @Test func obsoleteWhitespaceBeforeTheColon() throws {
        let headers = try Self.headers("Subject : spaced\n\n")
        #expect(headers.field("Subject") == "spaced")
    }

    @Test(arguments: [[0x00, 0x01, 0xFF, 0x3A], Array("no colon here\nSubject: x\n\n".utf8), Array(" leading space: x\n".utf8),
                      Array(": empty name\n".utf8)])
    func junkIsNoHeaders(_ bytes: [UInt8]) {
        #expect(throws: MIMEError.noHeaders) { try MIMEDecoder.headers(of: bytes) }
    }

    @Test func anEmptyMessageIsTruncated() {
        #expect(throws: MIMEError.truncated("the message is empty")) { try MIMEDecoder.headers(of: []) }
        #expect(MIMEError.noHeaders.description == "the message does not start with a header field")
    }

    @Test func aBlankFirstLineMeansNoFieldsAndABody() throws {
        let headers = try Self.headers("\nbody")
        #expect(headers.fields.isEmpty)
        #expect(headers.bodyOffset == 1)
    }

    @Test func eightBitHeadersAreUTF8ElseLatin1() throws {
        let utf8 = try MIMEDecoder.headers(of: Array("Subject: caf\u{E9} \u{20B9}5\n\n".utf8))
        #expect(utf8.subject == "café ₹5")
        let latin1 = try MIMEDecoder.headers(of: Array("Subject: caf".utf8) + [0xE9] + Array("\n\n".utf8))
        #expect(latin1.subject == "café")
        #expect(latin1.field("subject") == "café")
    }

    @Test func headersMadeFromFields() {
        let headers = EmailHeaders(fields: [("From", "\"A\" <A@B.example>"), ("Subject", "=?utf-8?q?x?=")], bodyOffset: 0)
        #expect(headers.fromAddress == "a@b.example")
        #expect(headers.subject == "x")
        #expect(headers.fields.map(\.name) == ["From", "Subject"])
    }

    @Test(arguments: [
        ("\"HDFC\" <Alerts@HDFCBank.net>", "alerts@hdfcbank.net"),
        ("alerts@x.example (comment)", "alerts@x.example"),
        ("alerts@x.example (HDFC <other@y.example>)", "alerts@x.example"),
        ("HDFC Bank <alerts@hdfcbank.net>", "alerts@hdfcbank.net"),
        ("=?utf-8?B?SERGQyDgpKzgpYjgpII=?= <alerts@hdfcbank.net>", "alerts@hdfcbank.net"),
        ("\"Doe, John <john@fake.example>\" <John.Doe@Example.COM>", "john.doe@example.com"),
        ("<alerts@x.example>", "alerts@x.example"),
        ("  Alerts@X.Example  ", "alerts@x.example"),
        ("a@x.example, b@y.example", "a@x.example"),
        ("Alerts: first@group.example, second@group.example;", "first@group.example"),
        ("Undisclosed recipients:;", nil),
        ("<@relay.example:user@x.example>", "user@x.example"),
        ("alerts @ x.example", "alerts@x.example"),
        ("(only a comment)", nil),
        ("", nil),
        ("\"quoted local\"@x.example", "\"quoted local\"@x.example"),
        ("Ünïcödé <Ünï@x.example>", "ünï@x.example"),
    ] as [(String, String?)])
    func fromAddress(_ value: String, _ expected: String?) throws {
        let headers = try Self.headers("From: \(value)\n\n")
        #expect(headers.fromAddress == expected)
    }

    @Test(arguments: [
        ("<abc@def.example>", "abc@def.example"),
        ("   <abc@def.example>   ", "abc@def.example"),
        ("abc@def.example", "abc@def.example"),
        ("< abc@def.example >", "abc@def.example"),
        ("<abc@def.example> (comment)", "abc@def.example"),
        ("<>", nil),
    ] as [(String, String?)])
    func messageID(_ value: String, _ expected: String?) throws {
        #expect(try Self.headers("Message-ID: \(value)\n\n").messageID == expected)
    }

    @Test func foldedMessageID() throws {
        #expect(try Self.headers("Message-ID:\r\n <abc@def.example>\r\n\r\n").messageID == "abc@def.example")
    }

    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Int {
        EmailDate.daysFromCivil(year: y, month: mo, day: d) * 86400 + h * 3600 + mi * 60 + s
    }

    @Test(arguments: [
        ("Mon, 5 Feb 2024 10:00:00 +0000", utc(2024, 2, 5, 10, 0)),
        ("Mon, 05 Feb 2024 10:00:00 +0530", utc(2024, 2, 5, 4, 30)),
        ("Mon, 5 Feb 2024 10:00:00 -0800", utc(2024, 2, 5, 18, 0)),
        ("5 Feb 2024 10:00:00 +0000", utc(2024, 2, 5, 10, 0)),  // no weekday
        ("Mon, 5 Feb 2024 10:00 +0000", utc(2024, 2, 5, 10, 0)),  // no seconds
        ("Mon, 5 Feb 24 10:00:00 +0000", utc(2024, 2, 5, 10, 0)),  // two-digit year
        ("Mon, 5 Feb 96 10:00:00 +0000", utc(1996, 2, 5, 10, 0)),
        ("Sun, 6 Feb 55 10:00:00 +0000", utc(1955, 2, 6, 10, 0)),  // RFC 5322 §4.3: 50-99 is 19xx
        ("Mon, 5 Feb 124 10:00:00 +0000", utc(2024, 2, 5, 10, 0)),  // three-digit year: + 1900
        ("1 Jan 24 10:00 EST", utc(2024, 1, 1, 15, 0)),
        ("Mon, 5 Feb 2024 10:00:00 EDT", utc(2024, 2, 5, 14, 0)),
        ("Mon, 5 Feb 2024 10:00:00 PST", utc(2024, 2, 5, 18, 0)),
        ("Mon, 5 Feb 2024 10:00:00 GMT", utc(2024, 2, 5, 10, 0)),
        ("Mon, 5 Feb 2024 10:00:00 UT", utc(2024, 2, 5, 10, 0)),
        ("Mon, 5 Feb 2024 10:00:00 Z", utc(2024, 2, 5, 10, 0)),
        ("Mon, 5 Feb 2024 10:00:00 A", utc(2024, 2, 5, 10, 0)),  // military zones mean "unknown"
        ("Mon, 5 Feb 2024 10:00:00 -0000", utc(2024, 2, 5, 10, 0)),
        ("Mon, 5 Feb 2024 10:00:00", utc(2024, 2, 5, 10, 0)),  // no zone: UTC
        ("Mon, 5 Feb 2024 10:00:00 +0000 (UTC)", utc(2024, 2, 5, 10, 0)),
        ("Mon, 5 Feb 2024 10:00:00 +05:30", utc(2024, 2, 5, 4, 30)),
        ("Monday, 5 February 2024 10:00:00 +0000", utc(2024, 2, 5, 10, 0)),
        ("Mon Feb  5 10:00:00 2024", utc(2024, 2, 5, 10, 0)),  // asctime
        ("Feb 5 2024 10:00:00 +0100", utc(2024, 2, 5, 9, 0)),
        ("Thu, 29 Feb 2024 23:59:60 +0000", utc(2024, 2, 29, 23, 59, 60)),  // leap second
        ("Mon,5 Feb 2024 10:00:00 +0000", utc(2024, 2, 5, 10, 0)),
        ("  Mon, 5 Feb 2024\r\n 10:00:00 +0000 ", utc(2024, 2, 5, 10, 0)),
    ])
    func dates(_ value: String, _ seconds: Int) throws {
        let date = try #require(try Self.headers("Date: \(value)\n\n").date)
        #expect(Int(date.timeIntervalSince1970) == seconds)
    }

    @Test(arguments: [
        "garbage", "", "Mon, 31 Feb 2024 10:00:00 +0000", "Mon, 5 Feb 2024", "Mon, 5 Foo 2024 10:00:00 +0000",
        "Mon, 5 Feb 2024 25:00:00 +0000", "Mon, 5 Feb 2024 10:61:00 +0000", "2024-02-05T10:00:00Z",
        "Mon, 29 Feb 2023 10:00:00 +0000", "Mon, 5 Feb 2024 10:00:00 +05", "5 5 Feb 2024 10:00",
    ])
    func unparseableDates(_ value: String) throws {
        #expect(try Self.headers("Date: \(value)\n\n").date == nil)
    }

    @Test func missingRoutingFieldsAreNil() throws {
        let headers = try Self.headers("X: y\n\n")
        #expect(headers.fromAddress == nil)
        #expect(headers.subject == nil)
        #expect(headers.date == nil)
        #expect(headers.messageID == nil)
    }
}
