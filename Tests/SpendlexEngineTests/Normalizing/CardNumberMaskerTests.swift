import Testing

@testable import SpendlexEngine

@Suite("CardNumberMasker")
struct CardNumberMaskerTests {
    /// text, masked text.
    static let texts: [(String, String)] = [
        ("4111 1111 1111 1111", "XXXXXXXXXXXX1111"),
        ("4111-1111-1111-1111", "XXXXXXXXXXXX1111"),
        ("4111111111111111", "XXXXXXXXXXXX1111"),
        ("Card 4111111111111111 used at AMAZON", "Card XXXXXXXXXXXX1111 used at AMAZON"),
        ("Amex 378282246310005.", "Amex XXXXXXXXXXX0005."),
        ("Amex 3782 822463 10005 charged", "Amex XXXXXXXXXXX0005 charged"),
        ("(5555555555554444)", "(XXXXXXXXXXXX4444)"),
        ("cards 4111111111111111 and 6011111111111117", "cards XXXXXXXXXXXX1111 and XXXXXXXXXXXX1117"),
        ("Call 1800 2662 4111 1111 1111 1111", "Call 1800 2662 XXXXXXXXXXXX1111"),
        ("कार्ड 4111111111111111 ✓", "कार्ड XXXXXXXXXXXX1111 ✓"),
        ("4222222222222", "XXXXXXXXX2222"),
        // Glued to letters, spaced or dashed: a merchant or an id that carries a card number.
        ("EAZYDINE4111111111111111", "EAZYDINEXXXXXXXXXXXX1111"),
        ("ABC4111111111111111", "ABCXXXXXXXXXXXX1111"),
        ("Ref 4111111111111111abc", "Ref XXXXXXXXXXXX1111abc"),
        ("<4111111111111111@mail.example>", "<XXXXXXXXXXXX1111@mail.example>"),
        ("shop4111-1111-1111-1111x", "shopXXXXXXXXXXXX1111x"),
        ("=HYPERLINK 5555 5555 5555 4444", "=HYPERLINK XXXXXXXXXXXX4444"),
        ("GET /x4111111111111111", "GET /xXXXXXXXXXXXX1111"),
    ]

    @Test("valid numbers are masked", arguments: texts)
    func masked(_ text: String, _ expected: String) {
        #expect(CardNumberMasker.mask(text) == expected)
    }

    @Test("text left alone", arguments: [
        "4111 1111 1111 1112",  // 16 digits, Luhn invalid
        "4111111111111112",
        "Call 9876543210 now",  // a 10-digit phone number
        "Call 18002586161/SMS BLOCK CC 0000 to 7308080808",
        "NEFT Cr-IN00000000000000-SAMPLE",  // one digit repeated: a filler, not a number
        "0000000000000000",
        "41111111111111111111",  // 20 digits
        "UTR HDFCR52026050212345678901",  // a 23-digit reference glued to letters
        "IMPS ref 412345678901",  // 12 digits
        "on 02-05-2026 19:53:18",
        "UPI Ref No 000000000000",
        "",
        "no digits at all",
        "XX1234",
    ])
    func untouched(_ text: String) {
        #expect(CardNumberMasker.mask(text) == text)
    }

    @Test func returnsTheInputWhenNothingToMask() {
        let text = String(repeating: "Rs.1,234.00 spent on card XX1234 at SHOP. ", count: 20)
        let masked = CardNumberMasker.mask(text)
        var original = text
        var result = masked
        let a = original.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        let b = result.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        #expect(a == b)
    }

    @Test("Luhn check", arguments: [
        ("79927398713", true), ("79927398710", false), ("4111111111111111", true), ("4111111111111112", false),
        ("378282246310005", true), ("00", true), ("0", false), ("", false), ("12a4", false), ("5555555555554444", true),
    ])
    func luhn(_ digits: String, _ valid: Bool) {
        #expect(CardNumberMasker.isLuhnValid(digits.utf8) == valid)
        #expect(CardNumberMasker.isLuhnValid(Array(digits.utf8)) == valid)
    }
}
