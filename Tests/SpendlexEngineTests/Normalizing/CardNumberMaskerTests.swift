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

    /// On generated texts of every shape (card numbers at the start, the end, glued to words, in
    /// groups, beside dates, amounts and other chains), the masker masks exactly what the rule,
    /// written plainly (`byteByByte`), masks.
    @Test func masksWhatTheRuleWrittenPlainlyMasks() {
        var generator = SplitMix64(seed: 0x5EED_CA4D)
        let pieces = ["4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111", "378282246310005",
                      "5555555555554444", "4111111111111112", "1800 2662 ", "12-05-2026", "Rs.1,234.00", " ", "-",
                      "  ", "--", "x", "card ", "كارت", "€", "ended", "9", "0000000000000", "7", "\n", "ABC"]
        for _ in 0..<4_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 12) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            #expect(CardNumberMasker.mask(text) == Self.byteByByte(text), "\(text)")
        }
    }

    /// The masking rule read byte by byte: every chain of digit groups joined by single spaces or
    /// dashes, its first consecutive groups of 13 to 19 digits that pass the Luhn check and are
    /// not one digit repeated masked to their last four (ASCII digits only).
    static func byteByByte(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var output: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard isDigit(bytes[i]) else {
                output.append(bytes[i])
                i += 1
                continue
            }
            var groups: [Range<Int>] = []
            var j = i
            while true {
                let start = j
                while j < bytes.count, isDigit(bytes[j]) { j += 1 }
                groups.append(start..<j)
                if j + 1 < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x2D, isDigit(bytes[j + 1]) { j += 1 } else { break }
            }
            var copied = i
            var a = 0
            while a < groups.count {
                var matchEnd: Int?
                var count = 0
                for b in a..<groups.count {
                    count += groups[b].count
                    if count > 19 { break }
                    let digits = groups[a...b].flatMap { bytes[$0] }
                    if count >= 13, CardNumberMasker.isLuhnValid(digits), Set(digits).count > 1 { matchEnd = b }
                }
                guard let end = matchEnd else {
                    a += 1
                    continue
                }
                let digits = groups[a...end].flatMap { bytes[$0] }
                output.append(contentsOf: bytes[copied..<groups[a].lowerBound])
                output.append(contentsOf: Array(repeating: UInt8(ascii: "X"), count: digits.count - 4) + digits.suffix(4))
                copied = groups[end].upperBound
                a = end + 1
            }
            output.append(contentsOf: bytes[copied..<j])
            i = j
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A small seeded generator (SplitMix64), so that the generated texts are the same in every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
