import Testing
@testable import SpendlexMail

@Suite("MIME tree walking and body text")
struct MIMEDecoderBodyTests {
    static func body(_ text: String) throws -> EmailBody {
        let message = Array(text.utf8)
        return MIMEDecoder.body(of: message, headers: try MIMEDecoder.headers(of: message))
    }

    static func body(bytes message: [UInt8]) throws -> EmailBody {
        MIMEDecoder.body(of: message, headers: try MIMEDecoder.headers(of: message))
    }

    @Test func aSinglePartWithoutContentTypeIsPlainText() throws {
        let body = try Self.body("Subject: x\n\nHello\r\nworld\n")
        #expect(body.plain == "Hello\nworld\n")
        #expect(body.html == nil)
        #expect(body.problems.isEmpty)
        #expect(body.text == "Hello\nworld\n")
    }

    /// A body written decomposed (as macOS stores text) is read composed (NFC), so that rules
    /// written composed match it: UTF-8 combining marks, an HTML entity that writes one, and a
    /// windows-1252 body (precomposed by nature) left as decoded.
    @Test func bodiesAreComposed() throws {
        let plain = try Self.body("Content-Type: text/plain; charset=utf-8\n\nde\u{301}bite\u{301} chez CAFE\u{301}\n")
        #expect(plain.text == "débité chez CAFÉ\n")
        #expect(plain.text.unicodeScalars.count == "débité chez CAFÉ\n".unicodeScalars.count)
        let html = try Self.body("Content-Type: text/html\n\n<p>CAFE&#769; SAMPLE</p>\n")
        #expect(html.text.unicodeScalars.elementsEqual("CAFÉ SAMPLE".unicodeScalars))
        let latin = try Self.body(bytes: Array("Content-Type: text/plain; charset=iso-8859-1\n\nop".utf8) + [0xE9, 0x72] + Array(" CAF".utf8) + [0xC9])
        #expect(latin.text == "opér CAFÉ")
    }

    @Test func alternativeKeepsBothAndTextPrefersPlain() throws {
        let body = try Self.body("""
            Content-Type: multipart/alternative; boundary=b

            --b
            Content-Type: text/plain

            plain text
            --b
            Content-Type: text/html

            <p>html&amp;text</p>
            --b--
            """)
        #expect(body.plain == "plain text")
        #expect(body.html == "html&text")
        #expect(body.text == "plain text")
    }

    @Test func textFallsBackToHTMLWhenPlainIsBlank() throws {
        let body = try Self.body("""
            Content-Type: multipart/alternative; boundary="b"

            --b
            Content-Type: text/plain

             \t
            --b
            Content-Type: text/html

            <div>from html</div>
            --b--
            """)
        #expect(body.text == "from html")
        #expect(EmailBody().text == "")
    }

    @Test func nestedPartsInDocumentOrder() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed; boundary="outer"

            preamble
            --outer
            Content-Type: multipart/alternative; boundary="inner"

            --inner
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: quoted-printable

            first caf=C3=A9
            --inner
            Content-Type: multipart/related; boundary="deep"

            --deep
            Content-Type: text/html

            <b>first</b> html
            --deep
            Content-Type: image/gif
            Content-Transfer-Encoding: base64

            R0lGODlh!!!!
            --deep--
            --inner--
            --outer
            Content-Type: text/plain
            Content-Transfer-Encoding: base64

            c2Vjb25k
            --outer--
            epilogue
            """)
        #expect(body.plain == "first café\nsecond")
        #expect(body.html == "first html")
        // The image is never decoded, so its bad base64 is no problem.
        #expect(body.problems.isEmpty)
    }

    @Test func problemsNameThePart() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed; boundary="m"

            --m
            Content-Type: text/plain

            one
            --m
            Content-Type: multipart/alternative; boundary="a"

            --a
            Content-Type: text/plain
            Content-Transfer-Encoding: base64

            dH!dv
            """)
        #expect(body.plain == "one\ntwo")
        #expect(body.problems == [
            "bad base64 in part 2.1: 1 characters skipped",
            "missing closing boundary in part 2",
            "missing closing boundary in the body",
        ])
    }

    @Test func delimitersMustMatchTheWholeBoundary() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed; boundary="b"

            --b
            Content-Type: text/plain

            --bb is not a delimiter, nor is --b inside a line
            --b\t \r
            Content-Type: text/plain

            second
            --b--   
            """)
        #expect(body.plain == "--bb is not a delimiter, nor is --b inside a line\nsecond")
        #expect(body.problems.isEmpty)
    }

    @Test func boundariesAreCaseSensitive() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed; boundary="Boundary"

            --boundary
            Content-Type: text/plain

            wrong case
            --Boundary
            Content-Type: text/plain

            right case
            --Boundary--
            """)
        #expect(body.plain == "right case")
    }

    @Test func attachmentsAndNonTextPartsAreSkipped() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed; boundary="b"

            --b
            Content-Type: text/plain

            keep
            --b
            Content-Type: text/plain
            Content-Disposition: attachment; filename=a.txt

            skip attachment
            --b
            Content-Type: text/plain; name=inline.txt
            Content-Disposition: inline; filename=inline.txt

            keep inline
            --b
            Content-Type: text/csv

            skip,csv
            --b
            Content-Type: message/rfc822

            Subject: inner

            skip attached message
            --b--
            """)
        #expect(body.plain == "keep\nkeep inline")
    }

    @Test func partsOfADigestAreMessages() throws {
        let body = try Self.body("""
            Content-Type: multipart/digest; boundary="d"

            --d

            Subject: digest entry

            not read
            --d
            Content-Type: text/plain

            read
            --d--
            """)
        #expect(body.plain == "read")
    }

    @Test func aTopLevelAttachmentHasNoText() throws {
        let body = try Self.body("Content-Type: text/plain\nContent-Disposition: attachment\n\nsecret\n")
        #expect(body.plain == nil)
        #expect(body.text == "")
    }

    @Test func rfc2231ContinuedBoundary() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed; boundary*0="long-"; boundary*1="boundary"

            --long-boundary
            Content-Type: text/plain; charset*=iso-8859-1'en'iso-8859-1

            caf\u{E9}
            --long-boundary--
            """)
        #expect(body.plain == "café")
    }

    @Test func unquotedBoundaryWithEqualsSign() throws {
        let body = try Self.body("""
            Content-Type: multipart/alternative;
             boundary=----=_Part_1_2.3

            ------=_Part_1_2.3
            Content-Type: text/plain

            text
            ------=_Part_1_2.3--
            """)
        #expect(body.plain == "text")
    }

    @Test func crlfMultipart() throws {
        let message = MIMETestSupport.crlf("""
            Content-Type: multipart/alternative; boundary="b"

            --b
            Content-Type: text/plain
            Content-Transfer-Encoding: quoted-printable

            soft=
             break
            line two
            --b--

            """)
        let body = try Self.body(bytes: message)
        #expect(body.plain == "soft break\nline two")
        #expect(body.problems.isEmpty)
    }

    @Test func emptyPartsAndEmptyBodies() throws {
        #expect(try Self.body("Subject: x\n\n").plain == "")
        #expect(try Self.body("Subject: x").plain == "")
        let body = try Self.body("Content-Type: multipart/mixed; boundary=b\n\n--b\n--b\n\nonly body\n--b--\n")
        #expect(body.plain == "\nonly body")
    }

    @Test func aMissingBoundaryIsGuessedFromTheBody() throws {
        let body = try Self.body("""
            Content-Type: multipart/mixed

            --guessed
            Content-Type: text/plain

            found
            --guessed--
            """)
        #expect(body.plain == "found")
        #expect(body.problems == ["multipart without boundary in the body; used \"guessed\""])
    }

    @Test func nestingIsCapped() throws {
        var text = "Content-Type: text/plain\n\ndeep\n"
        for level in (1...(MIMEDecoder.defaultMaxDepth + 1)).reversed() {
            text = "Content-Type: multipart/mixed; boundary=\"l\(level)\"\n\n--l\(level)\n\(text)--l\(level)--\n"
        }
        let body = try Self.body("Subject: deep\n" + text)
        #expect(body.plain == nil)
        #expect(body.problems.count == 1)
        #expect(body.problems.first?.hasPrefix("multipart nested deeper than 20 levels in part 1.1.1") == true)
    }

    @Test func unknownTransferEncodingIsReadAsIs() throws {
        let body = try Self.body("Content-Transfer-Encoding: x-custom\n\nraw =41 text\n")
        #expect(body.plain == "raw =41 text\n")
    }

    @Test func charsetOfAPartApplies() throws {
        let message = Array("Content-Type: text/plain; charset=koi8-r\nContent-Transfer-Encoding: 8bit\n\n".utf8)
            + [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]
        #expect(try Self.body(bytes: message).plain == "Привет")
    }

    @Test func theBodyOffsetOfTheGivenHeadersIsUsed() throws {
        let message = Array("Subject: x\n\nbody".utf8)
        let headers = EmailHeaders(fields: [("Content-Type", "text/html")], bodyOffset: 12)
        #expect(MIMEDecoder.body(of: message, headers: headers).html == "body")
        let past = EmailHeaders(fields: [], bodyOffset: 1000)
        #expect(MIMEDecoder.body(of: message, headers: past).plain == "")
    }
}

@Suite("The text to parse")
struct EmailBodyTextTests {
    @Test(arguments: [
        (EmailBody(plain: "plain", html: "html"), "plain"),
        (EmailBody(plain: " \n\t\u{A0}\u{3000}", html: "html"), "html"),
        (EmailBody(plain: "", html: nil), ""),
        (EmailBody(plain: nil, html: "html"), "html"),
        (EmailBody(), ""),
    ])
    func text(_ body: EmailBody, _ expected: String) {
        #expect(body.text == expected)
    }
}
