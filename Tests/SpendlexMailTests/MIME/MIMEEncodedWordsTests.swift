import Testing
@testable import SpendlexMail

@Suite("RFC 2047 encoded words")
struct MIMEEncodedWordsTests {
    @Test(arguments: [
        ("no encoded word", "no encoded word"),
        ("=?utf-8?B?w6k=?=", "é"),
        ("=?UTF-8?b?w6k=?=", "é"),
        ("=?utf-8?Q?caf=C3=A9_au_lait?=", "café au lait"),
        ("=?utf-8?q?caf=c3=a9?=", "café"),
        // Adjacent encoded words: the whitespace between them goes, also across folds.
        ("=?utf-8?q?a?= =?utf-8?q?b?=", "ab"),
        ("=?utf-8?q?a?=\t  =?utf-8?q?b?=", "ab"),
        // Text between encoded words keeps its whitespace.
        ("=?utf-8?q?a?= and =?utf-8?q?b?=", "a and b"),
        ("Re: =?utf-8?q?caf=C3=A9?= now", "Re: café now"),
        // A character split across two words (bytes joined before conversion).
        ("=?utf-8?B?4oI=?= =?utf-8?B?rA==?= 12", "€ 12"),
        ("=?utf-8?Q?=E2=82?= =?utf-8?Q?=AC?=", "€"),
        // Different charsets next to each other.
        ("=?iso-8859-1?q?caf=E9?= =?koi8-r?b?8NLJ18XU?=", "caféПривет"),
        // RFC 2231 language suffix.
        ("=?utf-8*en?Q?a_b?=", "a b"),
        ("=?ISO-8859-1*fr?Q?=E9t=E9?=", "été"),
        // Glued to other text, as Python and most readers accept.
        ("abc=?utf-8?q?x?=def", "abcxdef"),
        // Whitespace inside Q text is tolerated.
        ("=?utf-8?q?hello world?=", "hello world"),
        // Malformed: left as written.
        ("=?utf-8?X?bad?=", "=?utf-8?X?bad?="),
        ("=?utf-8?q?no end", "=?utf-8?q?no end"),
        ("=?utf-8?q?", "=?utf-8?q?"),
        ("a =? b ?= c", "a =? b ?= c"),
        ("=?utf 8?q?x?=", "=?utf 8?q?x?="),
        // Unknown charset: valid UTF-8 stays UTF-8, anything else is windows-1252.
        ("=?x-unknown?q?caf=C3=A9?=", "café"),
        ("=?x-unknown?q?caf=E9?=", "café"),
        // Lying label: Latin-1 bytes under UTF-8.
        ("=?utf-8?q?caf=E9?=", "café"),
        ("=?iso-2022-jp?B?GyRCJDMkcyRLJEEkTxsoQg==?=", "こんにちは"),
        ("=?gb2312?B?xOO6ww==?=", "你好"),
    ])
    func decodes(_ input: String, _ expected: String) {
        #expect(MIMEEncodedWords.decode(input) == expected)
    }

    @Test func subjectAccessorDecodesAndUnfolds() throws {
        let message = Array("Subject: =?utf-8?q?Zahlung_=C3=BCber?=\r\n =?utf-8?q?_12_=E2=82=AC?=\r\n\r\n".utf8)
        let headers = try MIMEDecoder.headers(of: message)
        #expect(headers.subject == "Zahlung über 12 €")
        #expect(headers.field("subject") == "=?utf-8?q?Zahlung_=C3=BCber?= =?utf-8?q?_12_=E2=82=AC?=")
    }
}

@Suite("Encoded words next to 8-bit text")
struct MIMEEncodedWordsEightBitTests {
    @Test func latin1TextAroundEncodedWordsIsLatin1() throws {
        let message = Array("Subject: caf".utf8) + [0xE9] + Array(" =?utf-8?q?=E2=82=AC?= 5\n\n".utf8)
        #expect(try MIMEDecoder.headers(of: message).subject == "café € 5")
    }
}
