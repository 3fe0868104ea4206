import Testing

@testable import SpendlexEngine

/// Field shapes copied from the India SMS conformance corpus (shared/conformance/india-sms.jsonl) and the
/// 12 synthetic formats of the benchmark (shared/bench/gen_mbox.py, rules.json), with the values their
/// sources expect. Dates are in DateNormalizerTests.
@Suite("Real message shapes")
struct RealShapesTests {
    /// Amount or balance text as it stands in the SMS (with its currency), expected decimal string, currency.
    static let indiaAmounts: [(String, String, String)] = [
        ("INR 15000", "15000", "INR"),
        ("INR 123.45", "123.45", "INR"),
        ("INR 99,999.99", "99999.99", "INR"),
        ("INR 30.00", "30.00", "INR"),
        ("INR. 99,999.99", "99999.99", "INR"),
        ("INR 12,345.00", "12345.00", "INR"),
        ("INR 1,00,000.00", "100000.00", "INR"),
        ("INR 100.00", "100.00", "INR"),
        ("Rs.12345.67", "12345.67", "INR"),
        ("Rs.1,23,456.78", "123456.78", "INR"),
        ("Rs. 1.00", "1.00", "INR"),
        ("Rs.1000", "1000", "INR"),
        ("Rs 100", "100", "INR"),
        ("Rs. 100.00", "100.00", "INR"),
        ("RS. 200.00", "200.00", "INR"),
        ("Rs.10290", "10290", "INR"),
        ("Rs.569", "569", "INR"),
        ("Rs.100.00", "100.00", "INR"),
        ("Rs.2", "2", "INR"),
        ("INR 15000.00", "15000.00", "INR"),
        ("Rs 99999.99", "99999.99", "INR"),
        ("Rs 7000.00", "7000.00", "INR"),
        ("Rs. 54,321.00", "54321.00", "INR"),
        ("Rs. 12,345.67", "12345.67", "INR"),
        ("Rs. 2,000.00", "2000.00", "INR"),
        ("Rs 15,000.00", "15000.00", "INR"),
        ("INR 1,234.56", "1234.56", "INR"),
        ("Rs 1000.00", "1000.00", "INR"),
        ("Rs 14.00", "14.00", "INR"),
        ("Rs 12,345.00", "12345.00", "INR"),
        ("Rs 2.00", "2.00", "INR"),
        ("INR 1,604.00", "1604.00", "INR"),
        ("INR 99,99,999.99", "9999999.99", "INR"),
        ("INR 50,000.00", "50000.00", "INR"),
        ("INR 1,23,456.00", "123456.00", "INR"),
        ("INR 0.00", "0.00", "INR"),
        ("INR 9,99,999.99", "999999.99", "INR"),
        ("Rs. 100000.00", "100000.00", "INR"),
        ("INR.1,000.00", "1000.00", "INR"),
        ("INR.9,99,999.99", "999999.99", "INR"),
        ("Rs. 2,500.00", "2500.00", "INR"),
        ("Rs. 200,000.00", "200000.00", "INR"),
        ("Rs. 750.00", "750.00", "INR"),
        ("Rs 14999", "14999", "INR"),
        ("Rs. 12345", "12345", "INR"),
        ("Rs 12345.00", "12345.00", "INR"),
        ("Rs. 3001.00", "3001.00", "INR"),
        ("Rs.9.00", "9.00", "INR"),
        ("Rs. 49.00", "49.00", "INR"),
        ("USD 42.50", "42.50", "USD"),
        ("Rs. 1,234.00", "1234.00", "INR"),
        ("Rs. 10,000.00", "10000.00", "INR"),
        ("Rs.1050.00", "1050.00", "INR"),
        ("Rs.1799.94", "1799.94", "INR"),
        ("Rs.999999.0", "999999.0", "INR"),
        ("Rs.12345", "12345", "INR"),
        ("Rs. 45,000", "45000", "INR"),
        ("Rs. 1,23,456.78", "123456.78", "INR"),
    ]

    @Test("India SMS amounts", arguments: indiaAmounts)
    func indiaAmount(_ raw: String, _ expected: String, _ currency: String) throws {
        let amount = try AmountNormalizer(country: "IN").normalize(raw)
        #expect(amount.plainString == expected)
        #expect(amount.currency == currency)
        #expect(amount.sign == nil)
    }

    @Test("India SMS bare balances", arguments: [("12345.00", "12345.00"), ("99,999.99", "99999.99"), ("100.00", "100.00")])
    func indiaBareAmount(_ raw: String, _ expected: String) throws {
        let amount = try AmountNormalizer(country: "IN").normalize(raw)
        #expect(amount.plainString == expected)
        #expect(amount.currency == nil)
    }

    /// Time text as captured from the SMS, expected `transaction_time`.
    static let indiaTimes: [(String, String)] = [
        ("19:53:18 IST", "19:53:18"),
        ("07:53:18 PM", "19:53:18"),
        ("22:26:01", "22:26:01"),
        ("17:00:56", "17:00:56"),
        ("13:21:20", "13:21:20"),
        ("12:00:27", "12:00:27"),
        ("07:58:13 pm", "19:58:13"),
    ]

    @Test("India SMS times", arguments: indiaTimes)
    func indiaTime(_ raw: String, _ expected: String) throws {
        #expect(try TimeNormalizer.normalize(raw).description == expected)
    }

    @Test("India SMS times without seconds", arguments: [("12:53", 12, 53), ("15:35", 15, 35), ("09:30", 9, 30)])
    func indiaTimeWithoutSeconds(_ raw: String, _ hour: Int, _ minute: Int) throws {
        let time = try TimeNormalizer.normalize(raw)
        #expect(time.hour == hour && time.minute == minute && time.second == nil)
    }

    /// Merchant captures (sometimes with the trailing noise a lazy capture leaves), expected counterparty.
    static let indiaMerchants: [(String, String)] = [
        ("SampleMerchant Store", "SampleMerchant Store"),
        ("CITY REALTY AND DEVELO", "CITY REALTY AND DEVELO"),
        ("EAZYDINE0000000", "EAZYDINE0000000"),
        ("RAZ*SampleFood", "RAZ*SampleFood"),
        ("sample.vpa@hdfcbank", "sample.vpa@hdfcbank"),
        ("PAYZAPP0000000", "PAYZAPP0000000"),
        ("RAHUL SHARMA.", "RAHUL SHARMA"),
        ("BIL*INFT*FFF0000000*", "BIL*INFT*FFF0000000*"),
        ("CUSTOMER NAME ", "CUSTOMER NAME"),
        ("SAMPLE FUND MANAGER", "SAMPLE FUND MANAGER"),
        ("Pune Metro", "Pune Metro"),
        ("A.B. Traders", "A.B. Traders"),
        ("ONYX BAR.", "ONYX BAR"),
        ("SAMPLE MERCHANT.", "SAMPLE MERCHANT"),
        ("M/S A.B. MART", "M/S A.B. MART"),
        ("Refund Frm SampleSource Payments", "Refund Frm SampleSource Payments"),
        ("PYU*SWIGGY FOOD.", "PYU*SWIGGY FOOD"),
        ("SampleRide", "SampleRide"),
        ("SampleCloud", "SampleCloud"),
        ("QuickGroceries Marketplace", "QuickGroceries Marketplace"),
        ("Sample Name", "Sample Name"),
        ("SENDER NAME", "SENDER NAME"),
        ("-Customer-", "Customer"),
    ]

    @Test("India SMS merchants", arguments: indiaMerchants)
    func indiaMerchant(_ raw: String, _ expected: String) throws {
        #expect(try MerchantNormalizer.normalize(raw) == expected)
    }

    /// Benchmark rule, amount capture, country, expected decimal string, card capture, expected last digits.
    static let benchFields: [(String, String, String, String, String, String)] = [
        ("hdfc_cc", "1,23,456.78", "IN", "123456.78", "1234", "1234"),
        ("icici_cc", "45,678.90", "IN", "45678.90", "XX0042", "0042"),
        ("chase", "1,234.56", "US", "1234.56", "9876", "9876"),
        ("bca_id", "1.250.000", "ID", "1250000", "****4321", "4321"),
        ("bca_id", "50.000,00", "ID", "50000.00", "****4321", "4321"),
        ("bca_id", "5.000", "ID", "5000", "0007", "0007"),
        ("n26_de", "1.234,56", "DE", "1234.56", "(•••• 5678)", "5678"),
        ("n26_de", "12,34", "DE", "12.34", "5678", "5678"),
        ("sbi_upi", "19,999.00", "IN", "19999.00", "XX0001", "0001"),
        ("axis_cc", "2,99,999.99", "IN", "299999.99", "XX1111", "1111"),
        ("amex", "4,999.00", "US", "4999.00", "81005", "81005"),
        ("barclays_uk", "899.99", "GB", "899.99", "2468", "2468"),
        ("kotak_dc", "49,999.50", "IN", "49999.50", "XX1357", "1357"),
        ("citi", "1,499.00", "US", "1499.00", "8642", "8642"),
        ("santander_es", "2.999,99", "ES", "2999.99", "****3141", "3141"),
        ("santander_es", "1,00", "ES", "1.00", "3141", "3141"),
    ]

    @Test("benchmark amounts and cards", arguments: benchFields)
    func benchField(_ rule: String, _ amountRaw: String, _ country: String, _ expected: String, _ card: String, _ last: String)
        throws
    {
        #expect(try AmountNormalizer(country: country).normalize(amountRaw).plainString == expected, "rule \(rule)")
        #expect(try AccountMask.lastDigits(card) == last, "rule \(rule)")
    }

    @Test("benchmark amounts with their written currency", arguments: [
        ("Rs.1,23,456.78", "IN", "INR"), ("INR 45,678.90", "IN", "INR"), ("$1,234.56", "US", "USD"),
        ("Rp 1.250.000", "ID", "IDR"), ("1.234,56 EUR", "DE", "EUR"), ("Rs 19,999.00", "IN", "INR"),
        ("£899.99", "GB", "GBP"), ("2.999,99 EUR", "ES", "EUR"),
    ])
    func benchCurrency(_ raw: String, _ country: String, _ currency: String) throws {
        #expect(try AmountNormalizer(country: country).normalize(raw).currency == currency)
    }
}
