import Testing

@testable import SpendlexEngine

@Suite("CurrencyNormalizer")
struct CurrencyNormalizerTests {
    /// raw, country, expected code.
    static let symbols: [(String, String?, String)] = [
        ("₹", nil, "INR"), ("Rs", nil, "INR"), ("Rs.", nil, "INR"), ("rs.", "IN", "INR"), ("RS", nil, "INR"),
        ("Re.", nil, "INR"), ("₨", "PK", "PKR"), ("Rs", "PK", "PKR"), ("Rs", "LK", "LKR"), ("Rs", "NP", "NPR"),
        ("Rs", "US", "INR"), ("INR", nil, "INR"), ("inr", nil, "INR"), ("INR.", nil, "INR"), (" eur ", nil, "EUR"),
        ("$", nil, "USD"), ("$", "US", "USD"), ("$", "CA", "CAD"), ("$", "AU", "AUD"), ("$", "NZ", "NZD"),
        ("$", "SG", "SGD"), ("$", "HK", "HKD"), ("$", "MX", "MXN"), ("$", "TW", "TWD"), ("$", "DE", "USD"),
        ("$", "IN", "USD"), ("$", "ca", "CAD"), ("US$", "CA", "USD"), ("C$", nil, "CAD"), ("C$", "NI", "NIO"),
        ("A$", nil, "AUD"), ("NZ$", nil, "NZD"), ("HK$", nil, "HKD"), ("NT$", nil, "TWD"), ("MX$", nil, "MXN"),
        ("£", nil, "GBP"), ("£", "GB", "GBP"), ("€", nil, "EUR"), ("Euro", nil, "EUR"), ("Rp", nil, "IDR"),
        ("RP", nil, "IDR"), ("Rp.", nil, "IDR"), ("R$", nil, "BRL"), ("¥", nil, "JPY"), ("¥", "JP", "JPY"),
        ("¥", "CN", "CNY"), ("￥", "CN", "CNY"), ("元", nil, "CNY"), ("RMB", nil, "CNY"), ("AED", nil, "AED"),
        ("Dhs", nil, "AED"), ("DH", "MA", "MAD"), ("SGD", nil, "SGD"), ("S$", nil, "SGD"), ("RM", nil, "MYR"),
        ("kr", "SE", "SEK"), ("kr", "NO", "NOK"), ("kr", "DK", "DKK"), ("kr.", "DK", "DKK"), ("kr", "IS", "ISK"),
        ("kr", nil, "SEK"), ("zł", nil, "PLN"), ("ZŁ", nil, "PLN"), ("Kč", nil, "CZK"), ("Ft", nil, "HUF"),
        ("CHF", nil, "CHF"), ("Fr.", nil, "CHF"), ("₩", nil, "KRW"), ("₱", nil, "PHP"), ("฿", nil, "THB"),
        ("₺", nil, "TRY"), ("₪", nil, "ILS"), ("₫", nil, "VND"), ("₦", nil, "NGN"), ("₽", nil, "RUB"),
        ("R", nil, "ZAR"), ("KSh", nil, "KES"), ("S/.", nil, "PEN"), ("SR", nil, "SAR"), ("QR", nil, "QAR"),
        ("KD", nil, "KWD"), ("BD", nil, "BHD"), ("FCFA", "CM", "XAF"), ("CFA", "SN", "XOF"), ("usd", nil, "USD"),
        ("JPY", nil, "JPY"), ("bhd", nil, "BHD"), ("XOF", nil, "XOF"),
    ]

    @Test("symbols, abbreviations and codes", arguments: symbols)
    func code(_ raw: String, _ country: String?, _ expected: String) {
        #expect(CurrencyNormalizer.code(for: raw, country: country) == expected)
    }

    @Test("unknown currencies", arguments: ["", " ", "XYZ", "abc", "Drachma", "$$", "12", "Dr", "CR", "ABCD", "XAU"])
    func unknown(_ raw: String) {
        #expect(CurrencyNormalizer.code(for: raw, country: "IN") == nil)
    }

    @Test("country defaults", arguments: [
        ("IN", "INR"), ("in", "INR"), (" IN ", "INR"), ("US", "USD"), ("ID", "IDR"), ("DE", "EUR"), ("ES", "EUR"),
        ("GB", "GBP"), ("JP", "JPY"), ("CN", "CNY"), ("SG", "SGD"), ("AE", "AED"), ("BH", "BHD"), ("CH", "CHF"),
        ("BR", "BRL"), ("MX", "MXN"), ("HR", "EUR"), ("SE", "SEK"),
    ])
    func defaultCode(_ country: String, _ expected: String) {
        #expect(CurrencyNormalizer.defaultCode(forCountry: country) == expected)
    }

    @Test("no default for unknown countries", arguments: ["", "ZZ", "IND", "X"])
    func noDefault(_ country: String) {
        #expect(CurrencyNormalizer.defaultCode(forCountry: country) == nil)
    }

    @Test func minorUnits() {
        for code in ["BHD", "KWD", "OMR", "JOD", "TND", "LYD"] {
            #expect(CurrencyNormalizer.minorUnitDigits(of: code) == 3)
        }
        #expect(CurrencyNormalizer.minorUnitDigits(of: "IQD") == 0)
        #expect(CurrencyNormalizer.minorUnitDigits(of: "JPY") == 0)
        #expect(CurrencyNormalizer.minorUnitDigits(of: "INR") == 2)
        #expect(CurrencyNormalizer.isKnownCode("INR"))
        #expect(!CurrencyNormalizer.isKnownCode("inr"))
    }
}

@Suite("CurrencyTable")
struct CurrencyTableTests {
    @Test func everyCurrencyFromCLDR() {
        let table = CurrencyTable.standard
        #expect(table.source.hasPrefix("CLDR "))
        #expect(table.currencies.count >= 150)
        #expect(table.countries.count >= 240)
        // Names in local scripts, and local forms the data adds to CLDR's symbols.
        for (written, code) in [("บาท", "THB"), ("Ksh", "KES"), ("৳", "BDT"), ("Tk", "BDT"), ("₦", "NGN"),
                                ("naira", "NGN"), ("ብር", "ETB"), ("HRK", "HRK")] {
            #expect(CurrencyNormalizer.code(for: written, country: nil) == code, "\(written)")
        }
    }

    @Test("hasThreeDecimals agrees with the data")
    func threeDecimalsInStep() {
        for (code, currency) in CurrencyTable.standard.currencies {
            #expect(CurrencyNormalizer.hasThreeDecimals(code) == (currency.digits == 3), "\(code)")
        }
    }

    @Test("hasNoDecimals agrees with the data")
    func noDecimalsInStep() {
        for (code, currency) in CurrencyTable.standard.currencies {
            #expect(CurrencyNormalizer.hasNoDecimals(code) == (currency.digits == 0), "\(code)")
        }
    }

    @Test("a shared symbol is certain only when the country decides it")
    func certainty() {
        #expect(CurrencyNormalizer.reading(of: "$", country: "CA") == .init(code: "CAD", certain: true))
        #expect(CurrencyNormalizer.reading(of: "$", country: nil) == .init(code: "USD", certain: false))
        #expect(CurrencyNormalizer.reading(of: "$", country: "IN") == .init(code: "USD", certain: false))
        #expect(CurrencyNormalizer.reading(of: "₹", country: nil) == .init(code: "INR", certain: true))
        #expect(CurrencyNormalizer.reading(of: "Rs", country: "PK") == .init(code: "PKR", certain: true))
    }

    @Test("another country's form is read when neither the country nor CLDR knows it, and is not certain")
    func formsOfOtherCountries() {
        let kenya = CurrencyScope(country: "KE", local: ["Ksh": "KES"], elsewhere: ["MT": "MZN", "Ksh": "XXX"])
        #expect(kenya.reading(of: "MT") == CurrencyTable.Reading(code: "MZN", certain: false))
        #expect(kenya.reading(of: "Ksh")?.code == "KES")
        #expect(kenya.reading(of: "USD")?.code == "USD")
        #expect(CurrencyScope(country: "KE").reading(of: "MT") == nil)
    }
}
