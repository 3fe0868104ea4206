import Testing
@testable import SpendlexMail

@Suite("Charsets to UTF-8")
struct MIMECharsetTests {
    static func convert(_ bytes: [UInt8], _ label: String?) -> String {
        let utf8 = bytes.withUnsafeBytes { MIMECharset.utf8($0, charset: MIMECharset(label: label)) }
        return String(decoding: utf8, as: UTF8.self)
    }

    @Test(arguments: [
        ("utf-8", MIMECharset.utf8), ("\"UTF-8\"", .utf8), ("utf8", .utf8), ("utf-8*en", .utf8),
        ("us-ascii", .windows1252), ("ISO-8859-1", .windows1252), ("latin1", .windows1252),
        ("windows-1252", .windows1252), ("koi8-r", .singleByte("KOI8-R")), ("windows-1251", .singleByte("WINDOWS-1251")),
        ("iso-8859-15", .singleByte("ISO-8859-15")), ("Shift_JIS", .multiByte("SHIFT_JIS")),
        ("x-sjis", .multiByte("SHIFT_JIS")), ("gb2312", .multiByte("GBK")), ("euc-kr", .multiByte("CP949")),
        ("big5", .multiByte("BIG5-HKSCS")), ("utf-16", .stateful("UTF-16")), ("iso-2022-jp", .stateful("ISO-2022-JP")),
        ("", .unknown),
    ])
    func labels(_ label: String, _ expected: MIMECharset) {
        #expect(MIMECharset(label: label) == expected)
    }

    @Test func noLabelIsUnknown() {
        #expect(MIMECharset(label: nil as String?) == .unknown)
    }

    @Test(arguments: [
        ("iso-8859-1", [0x63, 0x61, 0x66, 0xE9], "café"),
        // ISO-8859-1 and US-ASCII are read as windows-1252 (WHATWG): 0x80 is the euro sign.
        ("iso-8859-1", [0x80, 0x20, 0x93, 0x71, 0x94], "€ “q”"),
        ("us-ascii", [0x41, 0xE9], "Aé"),
        ("windows-1252", [0x85, 0x96, 0x81], "…–\u{81}"),
        ("koi8-r", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        ("windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        ("iso-8859-15", [0xA4], "€"),
        ("iso-8859-2", [0xB1, 0xE6], "ąć"),
        ("shift_jis", [0x83, 0x4A, 0x81, 0x5B, 0x83, 0x68], "カード"),
        ("euc-jp", [0xA5, 0xAB, 0xA1, 0xBC, 0xA5, 0xC9], "カード"),
        ("gbk", [0xC4, 0xE3, 0xBA, 0xC3], "你好"),
        ("big5", [0xA7, 0x41, 0xA6, 0x6E], "你好"),
        ("euc-kr", [0xC4, 0xAB, 0xB5, 0xE5], "카드"),
        ("utf-16le", [0x41, 0x00, 0xAC, 0x20], "A€"),
        ("utf-16", [0xFF, 0xFE, 0x41, 0x00], "A"),
        ("utf-7", Array("A+ImIDkQ.".utf8), "A≢Α."),
    ] as [(String, [UInt8], String)])
    func convertsWithIconv(_ label: String, _ bytes: [UInt8], _ expected: String) {
        #expect(Self.convert(bytes, label) == expected)
    }

    @Test(arguments: [
        // Latin-1 text labelled UTF-8: bytes that are not UTF-8 are windows-1252, valid sequences stay.
        ("utf-8", [0x63, 0x61, 0x66, 0xE9, 0x20, 0xC3, 0xA9], "café é"),
        // UTF-8 text under a single-byte label: UTF-8.
        ("iso-8859-1", [0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
        ("koi8-r", [0xE2, 0x82, 0xAC], "€"),
        // Unknown label: valid UTF-8 stays, else windows-1252.
        ("x-no-such-charset", [0xC3, 0xA9], "é"),
        ("x-no-such-charset", [0xE9], "é"),
        (nil, [0xE9, 0x80], "é€"),
        // Bytes a multi-byte label rejects: the label lies; UTF-8 if valid. ("✓ ✓": E2 9C 93 20 is
        // not Shift_JIS. A multi-byte label is trusted as long as iconv accepts the bytes.)
        ("shift_jis", [0xE2, 0x9C, 0x93, 0x20, 0xE2, 0x9C, 0x93], "✓ ✓"),
    ] as [(String?, [UInt8], String)])
    func survivesLyingLabels(_ label: String?, _ bytes: [UInt8], _ expected: String) {
        #expect(Self.convert(bytes, label) == expected)
    }

    @Test func anIsolatedBadSequenceBecomesOneReplacementCharacter() {
        // "カード" + a stray 0xFF + "カード" in Shift_JIS: the rest survives.
        let card: [UInt8] = [0x83, 0x4A, 0x81, 0x5B, 0x83, 0x68]
        let text = Self.convert(card + Array(repeating: 0x41, count: 80) + [0xFF] + card, "shift_jis")
        #expect(text == "カード" + String(repeating: "A", count: 80) + "\u{FFFD}カード")
    }

    @Test func asciiPassesThroughEveryLabel() {
        for label in ["utf-8", "iso-8859-1", "koi8-r", "shift_jis", "x-unknown", "gb2312"] {
            #expect(Self.convert(Array("plain ascii".utf8), label) == "plain ascii")
        }
    }
}

@Suite("Charset declared inside HTML")
struct MIMEHTMLCharsetTests {
    @Test func anHTMLPartWithoutCharsetUsesItsMetaDeclaration() throws {
        let html = Array("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">".utf8)
            + Array("</head><body>".utf8) + [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2] + Array("</body></html>".utf8)
        let message = Array("Content-Type: text/html\n\n".utf8) + html
        let body = MIMEDecoder.body(of: message, headers: try MIMEDecoder.headers(of: message))
        #expect(body.html == "Привет")
        // The MIME label wins over the document's.
        let labelled = Array("Content-Type: text/html; charset=koi8-r\n\n".utf8) + html
        #expect(MIMEDecoder.body(of: labelled, headers: try MIMEDecoder.headers(of: labelled)).html == "оПХБЕР")
    }

    @Test(arguments: [
        ("<meta charset=\"Shift_JIS\">", MIMECharset.multiByte("SHIFT_JIS")),
        ("<meta charset=utf-8>", .utf8),
        ("<meta content='text/html; charset=iso-8859-2'>", .singleByte("ISO-8859-2")),
        ("<p>no declaration</p>", nil),
    ] as [(String, MIMECharset?)])
    func declarations(_ html: String, _ expected: MIMECharset?) {
        let bytes = Array(html.utf8)
        #expect(bytes.withUnsafeBytes { MIMECharset.declaredInHTML($0) } == expected)
    }
}
