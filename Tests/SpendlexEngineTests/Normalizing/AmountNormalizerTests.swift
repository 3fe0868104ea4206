import Foundation
import Testing

@testable import SpendlexEngine

@Suite("AmountNormalizer")
struct AmountNormalizerTests {
    /// raw, plainString, sign, currency — with the default normalizer (auto mark, no country).
    static let notations: [(String, String, AmountSign?, String?)] = [
        // Grouping and decimal marks.
        ("1,234.56", "1234.56", nil, nil),
        ("1.234,56", "1234.56", nil, nil),
        ("1 234,56", "1234.56", nil, nil),
        ("1\u{00A0}234,56", "1234.56", nil, nil),
        ("1\u{202F}234,56", "1234.56", nil, nil),
        ("1\u{2009}234,56", "1234.56", nil, nil),
        ("1 234 567", "1234567", nil, nil),
        ("1'234.50", "1234.50", nil, nil),
        ("1\u{2019}234.50", "1234.50", nil, nil),
        ("1'234'567.05", "1234567.05", nil, nil),
        ("1,24,560.00", "124560.00", nil, nil),
        ("99,99,999.99", "9999999.99", nil, nil),
        ("1,00,000.00", "100000.00", nil, nil),
        ("12,345,678.9", "12345678.9", nil, nil),
        ("1.000.000", "1000000", nil, nil),
        ("1,000,000", "1000000", nil, nil),
        ("1.250.000,00", "1250000.00", nil, nil),
        ("10290", "10290", nil, nil),
        ("0010", "10", nil, nil),
        (".05", "0.05", nil, nil),
        ("0.5", "0.5", nil, nil),
        ("0,5", "0.5", nil, nil),
        ("12.", "12", nil, nil),
        ("1,234", "1234", nil, nil),
        ("1.234", "1234", nil, nil),
        ("1,5", "1.5", nil, nil),
        ("12,50", "12.50", nil, nil),
        ("1.2345", "1.2345", nil, nil),
        ("0.500", "0.500", nil, nil),
        ("0,750", "0.750", nil, nil),
        ("1 234.567", "1234.567", nil, nil),
        ("30.00", "30.00", nil, nil),
        ("0.00", "0.00", nil, nil),
        ("0", "0", nil, nil),
        ("  30.00\n", "30.00", nil, nil),
        ("123456789012345678901234.5678", "123456789012345678901234.5678", nil, nil),
        // Signs.
        ("-12.00", "12.00", .negative, nil),
        ("\u{2212}12.00", "12.00", .negative, nil),
        ("(12.00)", "12.00", .negative, nil),
        ("12.00-", "12.00", .negative, nil),
        ("- 12.00", "12.00", .negative, nil),
        ("+500.00", "500.00", nil, nil),
        ("1,000.00 CR", "1000.00", .credit, nil),
        ("1,000.00 Cr", "1000.00", .credit, nil),
        ("1,000.00Cr", "1000.00", .credit, nil),
        ("1,000.00 cr.", "1000.00", .credit, nil),
        ("CR 1,000.00", "1000.00", .credit, nil),
        ("Dr 500", "500", .debit, nil),
        ("DR 500", "500", .debit, nil),
        ("500 Dr", "500", .debit, nil),
        ("500.00 DR", "500.00", .debit, nil),
        // Currencies before and after.
        ("₹500", "500", nil, "INR"),
        ("₹ 1,24,560.00", "124560.00", nil, "INR"),
        ("Rs:147.5", "147.5", nil, "INR"),
        ("6.50BYN", "6.50", nil, "BYN"),
        ("Rs.500", "500", nil, "INR"),
        ("Rs 500", "500", nil, "INR"),
        ("Rs. 500", "500", nil, "INR"),
        ("RS. 200.00", "200.00", nil, "INR"),
        ("Rs. 500/-", "500", nil, "INR"),
        // A dash for the decimals: a whole amount (Central European, Swiss).
        ("14.000,-HUF", "14000", nil, "HUF"),
        ("+123.456,- HUF", "123456", nil, "HUF"),
        ("10,-- €", "10", nil, "EUR"),
        ("Fr. 10.\u{2013}", "10", nil, "CHF"),
        ("Rs.1,234.00", "1234.00", nil, "INR"),
        ("INR 500.00", "500.00", nil, "INR"),
        ("INR. 99,999.99", "99999.99", nil, "INR"),
        ("INR.1,000.00", "1000.00", nil, "INR"),
        ("inr 5", "5", nil, "INR"),
        ("500 EUR", "500", nil, "EUR"),
        ("500EUR", "500", nil, "EUR"),
        ("USD 5", "5", nil, "USD"),
        ("US$ 12", "12", nil, "USD"),
        ("US$12", "12", nil, "USD"),
        // A dollar form's letters apart from its sign ("RD $925.00", an e-mail table's two cells).
        ("RD $925.00", "925.00", nil, "DOP"),
        ("US $ 40", "40", nil, "USD"),
        ("NZ  $7.10", "7.10", nil, "NZD"),
        ("$12.50", "12.50", nil, "USD"),
        ("$.05", "0.05", nil, "USD"),
        ("£3.20", "3.20", nil, "GBP"),
        ("€5,00", "5.00", nil, "EUR"),
        ("12,50 €", "12.50", nil, "EUR"),
        ("12,50\u{00A0}€", "12.50", nil, "EUR"),
        ("1.234,56 €", "1234.56", nil, "EUR"),
        ("R$ 10,00", "10.00", nil, "BRL"),
        ("R$ 1.234,56", "1234.56", nil, "BRL"),
        ("¥1200", "1200", nil, "JPY"),
        ("¥1,200", "1200", nil, "JPY"),
        ("AED 50", "50", nil, "AED"),
        ("Dhs 50", "50", nil, "AED"),
        ("SGD 4.50", "4.50", nil, "SGD"),
        ("S$4.50", "4.50", nil, "SGD"),
        ("RM 12.90", "12.90", nil, "MYR"),
        ("CHF 1'234.50", "1234.50", nil, "CHF"),
        ("Fr. 12.50", "12.50", nil, "CHF"),
        ("12,99 zł", "12.99", nil, "PLN"),
        ("99 kr", "99", nil, "SEK"),
        ("Rp 50.000", "50000", nil, "IDR"),
        ("Rp 1.250.000,00", "1250000.00", nil, "IDR"),
        ("Rp50.000", "50000", nil, "IDR"),
        ("Rp. 5.000", "5000", nil, "IDR"),
        // Signs with currencies.
        ("-$12.50", "12.50", .negative, "USD"),
        ("$-12.50", "12.50", .negative, "USD"),
        ("(₹1,000.00)", "1000.00", .negative, "INR"),
        // A currency in brackets before the figure is the currency, not a negative amount.
        ("($USD) 51.28", "51.28", nil, "USD"),
        ("(EUR) 12,00", "12.00", nil, "EUR"),
        ("(USD 51.28)", "51.28", .negative, "USD"),
        ("₹(1,000.00)", "1000.00", .negative, "INR"),
        ("Rs 1,000.00 Cr", "1000.00", .credit, "INR"),
        ("Dr Rs 500", "500", .debit, "INR"),
        ("INR 500 DR", "500", .debit, "INR"),
        ("-12,50 €", "12.50", .negative, "EUR"),
        ("INR 500 INR", "500", nil, "INR"),
        // Three-decimal currencies: a single mark followed by 3 digits is the decimal mark.
        ("BHD 1.250", "1.250", nil, "BHD"),
        ("KWD 12,500", "12.500", nil, "KWD"),
        ("OMR 5.000", "5.000", nil, "OMR"),
        ("JOD 1,234.567", "1234.567", nil, "JOD"),
        ("1.250 TND", "1.250", nil, "TND"),
        // Iraqi dinars are written without decimals (CLDR; ISO 4217 says 3): "2.500" groups.
        ("IQD 2.500", "2500", nil, "IQD"),
        ("LYD 3.750", "3.750", nil, "LYD"),
        ("KD 10.500", "10.500", nil, "KWD"),
    ]

    @Test("notations", arguments: notations)
    func notation(_ raw: String, _ plain: String, _ sign: AmountSign?, _ currency: String?) throws {
        let amount = try AmountNormalizer().normalize(raw)
        #expect(amount.plainString == plain)
        #expect(amount.sign == sign)
        #expect(amount.currency == currency)
        #expect(amount.value == Decimal(string: plain, locale: Locale(identifier: "en_US_POSIX")))
        #expect(amount.value >= 0)
    }

    @Test("fraction digits keep the written scale", arguments: [
        ("30.00", 2), ("10290", 0), (".5", 1), ("1,24,560.00", 2), ("1.234,5", 1), ("Rp 50.000", 0), ("0.500", 3),
    ])
    func fractionDigits(_ raw: String, _ digits: Int) throws {
        #expect(try AmountNormalizer().normalize(raw).fractionDigits == digits)
    }

    /// raw, decimal mark, country, plainString, currency.
    static let configured: [(String, AmountNormalizer.DecimalMark, String?, String, String?)] = [
        ("1.234", .point, nil, "1.234", nil),
        ("1,234", .point, nil, "1234", nil),
        ("1,234.5", .point, nil, "1234.5", nil),
        ("1,24,560.00", .point, nil, "124560.00", nil),
        ("12.50", .point, nil, "12.50", nil),
        ("1.234", .comma, nil, "1234", nil),
        ("1,234", .comma, nil, "1.234", nil),
        ("1.234,5", .comma, nil, "1234.5", nil),
        ("12,50", .comma, nil, "12.50", nil),
        ("1 234,56", .comma, nil, "1234.56", nil),
        ("1.250", .auto, "BH", "1.250", nil),
        ("1.250", .auto, "KW", "1.250", nil),
        ("1.250", .auto, "IN", "1250", nil),
        ("1.250", .auto, nil, "1250", nil),
        ("$12", .auto, "CA", "12", "CAD"),
        ("$12", .auto, "AU", "12", "AUD"),
        ("$12", .auto, "US", "12", "USD"),
        ("$12", .auto, "MX", "12", "MXN"),
        ("¥1200", .auto, "CN", "1200", "CNY"),
        ("¥1200", .auto, "JP", "1200", "JPY"),
        ("Rs 500", .auto, "PK", "500", "PKR"),
        ("Rs 500", .auto, "LK", "500", "LKR"),
        ("Rs 500", .auto, "in", "500", "INR"),
        ("99 kr", .auto, "NO", "99", "NOK"),
        ("99 kr.", .auto, "DK", "99", "DKK"),
        ("£3.20", .auto, "EG", "3.20", "EGP"),
        // A policy's mark written twice groups; a currency without decimals groups before 3 digits,
        // whatever the country's mark (a Vietnamese alert read as from Bangladesh, which writes ".").
        ("3.000.000", .point, nil, "3000000", nil),
        ("1,000,000", .comma, nil, "1000000", nil),
        ("1.234", .point, nil, "1.234", nil),
        ("200.000 VND", .point, "BD", "200000", "VND"),
        ("3.000.000 VND", .point, "BD", "3000000", "VND"),
        ("12,500 XOF", .comma, nil, "12500", "XOF"),
        ("5.000", .point, "VN", "5000", nil),
        ("1.500", .auto, "JP", "1500", nil),
        ("12.50 USD", .point, "VN", "12.50", "USD"),
        // The other mark once, before one or two digits, can only mark decimals: no grouping leaves
        // fewer than three digits after it ("€12,34" in a German text read as from the US).
        ("€12,34", .point, "US", "12.34", "EUR"),
        ("12,5", .point, nil, "12.5", nil),
        ("12.50", .comma, nil, "12.50", nil),
        ("1.234", .comma, nil, "1234", nil),
        // Both marks written: the later marks the decimals, whatever the policy ("IDR 76.300,00" in
        // an alert read as from Singapore, which writes "."): grouping never follows the decimals.
        ("1.234,56", .point, nil, "1234.56", nil),
        ("IDR 76.300,00", .point, "SG", "76300.00", "IDR"),
        ("1,234.56", .comma, nil, "1234.56", nil),
    ]

    @Test("decimal mark and country", arguments: configured)
    func configuredNotation(
        _ raw: String, _ mark: AmountNormalizer.DecimalMark, _ country: String?, _ plain: String, _ currency: String?
    ) throws {
        let amount = try AmountNormalizer(decimalMark: mark, country: country).normalize(raw)
        #expect(amount.plainString == plain)
        #expect(amount.currency == currency)
    }

    /// raw, decimal mark, error id.
    static let invalid: [(String, AmountNormalizer.DecimalMark, String)] = [
        ("", .auto, "amount.invalid"),
        ("   ", .auto, "amount.invalid"),
        ("abc", .auto, "amount.invalid"),
        ("Rs.", .auto, "amount.invalid"),
        ("-", .auto, "amount.invalid"),
        ("1.2.3,4,5", .auto, "amount.invalid"),
        ("12,-5", .auto, "amount.invalid"),
        ("1.234.56", .auto, "amount.invalid"),
        ("1,23,4567", .auto, "amount.invalid"),
        ("1234,567", .auto, "amount.invalid"),
        ("1,2345,678", .auto, "amount.invalid"),
        ("12 34", .auto, "amount.invalid"),
        ("1.234 567", .auto, "amount.invalid"),
        ("1.234,567.89", .auto, "amount.invalid"),
        ("12a34", .auto, "amount.invalid"),
        ("12O0", .auto, "amount.invalid"),
        ("12.00 13.00", .auto, "amount.invalid"),
        ("12.00 / 13.00", .auto, "amount.invalid"),
        ("1..2", .auto, "amount.invalid"),
        ("1,,000", .auto, "amount.invalid"),
        ("--5", .auto, "amount.invalid"),
        ("-12.00-", .auto, "amount.invalid"),
        ("-(12.00)", .auto, "amount.invalid"),
        ("(12.00", .auto, "amount.invalid"),
        ("12.00)", .auto, "amount.invalid"),
        (")12.00(", .auto, "amount.invalid"),
        ("CR 12 DR", .auto, "amount.invalid"),
        ("-12 CR", .auto, "amount.invalid"),
        ("12 USD EUR", .auto, "amount.invalid"),
        ("$12 €", .auto, "amount.invalid"),
        ("EUR $12", .auto, "amount.invalid"),  // no form "EUR$": two currencies
        ("foo 12", .auto, "amount.invalid"),
        ("12 apples", .auto, "amount.invalid"),
        ("Amt: 12", .auto, "amount.invalid"),
        ("XYZ 12", .auto, "currency.unknown"),
        ("12 ABC", .auto, "currency.unknown"),
        ("12345678901234567890123456789012345", .auto, "amount.invalid"),
        (",5", .point, "amount.invalid"),
        (".5", .comma, "amount.invalid"),
        (".5.000", .auto, "amount.invalid"),
    ]

    @Test("invalid amounts", arguments: invalid)
    func invalidAmount(_ raw: String, _ mark: AmountNormalizer.DecimalMark, _ id: String) {
        #expect {
            _ = try AmountNormalizer(decimalMark: mark).normalize(raw)
        } throws: { error in
            (error as? FieldError)?.id == id
        }
    }

    @Test func errorIsTyped() {
        #expect(throws: FieldError.self) { _ = try AmountNormalizer().normalize("1.2.3,4,5") }
        do {
            _ = try AmountNormalizer().normalize("nope")
        } catch {
            // `error` is statically a FieldError: typed throws.
            #expect(error.id == "amount.invalid")
            #expect(error.description.hasPrefix("amount.invalid: "))
        }
    }

    @Test func valueIsExactBeyondDoublePrecision() throws {
        let amount = try AmountNormalizer().normalize("9,007,199,254,740,993.01")
        #expect(amount.plainString == "9007199254740993.01")
        #expect(amount.value == Decimal(string: "9007199254740993.01", locale: Locale(identifier: "en_US_POSIX")))
        let tiny = try AmountNormalizer().normalize("0.1")
        #expect(tiny.value * 3 == Decimal(string: "0.3", locale: Locale(identifier: "en_US_POSIX")))
    }

    @Test func parsedAmountInitDerivesFractionDigits() throws {
        let value = Decimal(sign: .plus, exponent: -2, significand: 1234)
        #expect(ParsedAmount(value: value).fractionDigits == 2)
        #expect(ParsedAmount(value: value).plainString == "12.34")
        #expect(ParsedAmount(value: 30, fractionDigits: 2).plainString == "30.00")
        #expect(ParsedAmount(value: 5).plainString == "5")
        #expect(ParsedAmount(value: Decimal(sign: .plus, exponent: -3, significand: 1234), fractionDigits: 1).plainString == "1.234")
        #expect(try AmountNormalizer().normalize("30.00") != AmountNormalizer().normalize("30"))
    }
}

@Suite("Digits of other scripts")
struct OtherScriptDigitsTests {
    @Test("amounts", arguments: [
        ("١٬٢٣٤٫٥٠ ر.س", "1234.50", "SAR"), ("৳ ১,২৫০", "1250", "BDT"), ("₹ १,२५०.००", "1250.00", "INR"),
        ("๑๒๓.๔๕ บาท", "123.45", "THB"), ("\u{200F}١٢٠ د.إ\u{200F}", "120", "AED"), ("۱۵۰٫۵ ریال", "150.5", nil),
    ])
    func amounts(_ raw: String, _ plain: String, _ currency: String?) throws {
        let amount = try AmountNormalizer().normalize(raw.replacingOccurrences(of: " ریال", with: ""))
        #expect(amount.plainString == plain)
        if let currency { #expect(amount.currency == currency) }
    }

    @Test func datesAndTimes() throws {
        #expect(try DateNormalizer(order: .dayMonthYear).normalize("٠٥/١١/٢٠٢٦", reference: nil).description == "2026-11-05")
        #expect(try TimeNormalizer.normalize("١٤:٣٠").description.hasPrefix("14:30"))
    }

    @Test func asciiTextIsLeftAlone() {
        #expect(NormalizingText.withASCIIDigits("Rs 1,250.00") == nil)
        #expect(NormalizingText.withASCIIDigits("12,50 €") == nil)
    }

    @Test("decomposed text is composed (NFC) before the rules read it, an e-mail body too")
    func composed() throws {
        let decomposed = "Paiement de 12,50 EUR de\u{301}bite\u{301} chez CAFE\u{301} \u{1112}\u{1161}\u{11AB}"
        for channel in [MessageChannel.sms, .email, .push] {
            let message = Message(id: "m", text: decomposed, channel: channel)
            #expect(message.text == "Paiement de 12,50 EUR débité chez CAFÉ 한")
            #expect(message.text.unicodeScalars.count < decomposed.unicodeScalars.count)
        }
        #expect(NormalizingText.composed("Rs 1,250.00 at ₹ CAFÉ") == "Rs 1,250.00 at ₹ CAFÉ")
    }

    @Test("a card number in Arabic-Indic or other digits is masked too")
    func otherScriptCardNumbers() {
        #expect(CardNumberMasker.mask("بطاقة ٤١١١١١١١١١١١١١١١ تم") == "بطاقة XXXXXXXXXXXX1111 تم")
        #expect(CardNumberMasker.mask("card ४१११ ११११ ११११ ११११") == "card XXXXXXXXXXXX1111")
        // Other digits that are no card number stay as written.
        #expect(CardNumberMasker.mask("رقم العملية ٠٢٢٠٠٠٦٨٣٧١٦") == "رقم العملية ٠٢٢٠٠٠٦٨٣٧١٦")
    }

    @Test("Arabic's optional vowel marks and tatweel are dropped before the rules read a text")
    func arabicMarks() {
        // "خُصم" (with a damma) reads as "خصم"; "بـ30.48" (with a tatweel) as "ب30.48".
        #expect(Message(id: "m", text: "خُصم من حسابك 300.00 ريال", channel: .sms).text == "خصم من حسابك 300.00 ريال")
        #expect(NormalizingText.composed("بـ30.48 SAR") == "ب30.48 SAR")
        #expect(NormalizingText.composed("مُحَمَّد ٰ") == "محمد ")
        // Other Arabic letters (U+0641–U+064A, U+0660–U+066F, U+0671 on) stay.
        let kept = "في رصيدك ١٢٣ ٱ"
        #expect(NormalizingText.composed(kept) == kept)
        #expect(NormalizingText.withoutArabicMarks("ASCII only") == nil)
    }

    /// The eight-bytes-at-a-time check against a byte-by-byte one: every position of a word and
    /// of the tail, the bytes on both sides of each threshold.
    @Test("a byte at or above a threshold is found wherever it stands", arguments: [UInt8(0x80), 0xCC])
    func hasByte(threshold: UInt8) {
        for length in 0...19 {
            for position in 0..<max(length, 1) {
                for byte in [threshold - 1, threshold, 0xFF, 0x7F, 0x00] {
                    var bytes = [UInt8](repeating: 0x41, count: length)
                    if length > 0 { bytes[position] = byte }
                    // Not UTF-8 on purpose: the check reads bytes, and a String built from them
                    // repairs them; compare with the repaired bytes.
                    let text = String(decoding: bytes, as: UTF8.self)
                    let expected = text.utf8.contains { $0 >= threshold }
                    #expect(NormalizingText.hasByte(text, atLeast: threshold) == expected, "\(bytes) \(threshold)")
                }
            }
        }
    }
}
