import Testing

@testable import SpendlexEngine

private func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
    LocalDate(year: year, month: month, day: day)!
}

private func expectDateError(_ id: String, _ body: () throws -> Void) {
    #expect {
        try body()
    } throws: { error in
        (error as? FieldError)?.id == id
    }
}

@Suite("DateNormalizer")
struct DateNormalizerTests {
    static let reference = day(2026, 5, 10)

    /// raw, expected, with detection, day-month-year order and reference 2026-05-10.
    static let detected: [(String, String)] = [
        // ISO and numeric.
        ("2026-05-02", "2026-05-02"),
        ("02-05-26", "2026-05-02"),
        ("01/05/2026", "2026-05-01"),
        ("02.05.2026", "2026-05-02"),
        ("2026/05/02", "2026-05-02"),
        ("2026.5.2", "2026-05-02"),
        ("02 05 2026", "2026-05-02"),
        ("2/5/2026", "2026-05-02"),
        ("17-5-2026", "2026-05-17"),
        ("20260502", "2026-05-02"),
        ("2026年5月2日", "2026-05-02"),
        // Hijri years: Solar Hijri (Iran: 1 Farvardin 1405 was 21 March 2026, 1 Mehr 1404 was
        // 23 September 2025), lunar Hijri (Umm al-Qura: 1 Muharram 1447 was 26 June 2025).
        ("1405/01/01", "2026-03-21"),
        ("1404.07.01", "2025-09-23"),
        ("۱۴۰۵.۰۱.۰۱", "2026-03-21"),
        ("1447/01/01", "2025-06-26"),
        ("  02-05-2026 \n", "2026-05-02"),
        // English month names.
        ("02-May-26", "2026-05-02"),
        ("02May26", "2026-05-02"),
        ("02-MAY-2026", "2026-05-02"),
        ("02 may 2026", "2026-05-02"),
        ("May 2, 2026", "2026-05-02"),
        ("May 02 2026", "2026-05-02"),
        ("May 2nd, 2026", "2026-05-02"),
        ("2 May 2026", "2026-05-02"),
        ("Sat, 02 May 2026", "2026-05-02"),
        ("Saturday, May 2, 2026", "2026-05-02"),
        ("02 May 2026 (Sat)", "2026-05-02"),
        ("2nd May 2026", "2026-05-02"),
        ("1st of May 2026", "2026-05-01"),
        ("the 3rd of May, 2026", "2026-05-03"),
        ("4th May 2026", "2026-05-04"),
        ("2 September 2026", "2026-09-02"),
        ("2 Sept. 2026", "2026-09-02"),
        ("2026-May-02", "2026-05-02"),
        // Spanish, Portuguese, French, German, Italian, Dutch, Indonesian.
        ("2 de mayo de 2026", "2026-05-02"),
        ("2 mayo 2026", "2026-05-02"),
        ("15-ene-2026", "2026-01-15"),
        ("2 dic. 2026", "2026-12-02"),
        ("mar, 3 mar 2026", "2026-03-03"),
        ("3 mar 2026", "2026-03-03"),
        ("2 de maio de 2026", "2026-05-02"),
        ("10 out 2026", "2026-10-10"),
        ("5 fev 2026", "2026-02-05"),
        ("15 março 2026", "2026-03-15"),
        ("1er mai 2026", "2026-05-01"),
        ("2 mai 2026", "2026-05-02"),
        ("1 déc. 2026", "2026-12-01"),
        ("1 DÉC 2026", "2026-12-01"),
        ("1 de\u{0301}c. 2026", "2026-12-01"),
        ("3 févr. 2026", "2026-02-03"),
        ("10 août 2026", "2026-08-10"),
        ("lundi 4 mai 2026", "2026-05-04"),
        ("2. Mai 2026", "2026-05-02"),
        ("15. März 2026", "2026-03-15"),
        ("15 Maerz 2026", "2026-03-15"),
        ("15 Mrz 2026", "2026-03-15"),
        ("1 Okt 2026", "2026-10-01"),
        ("Mo, 4. Mai 2026", "2026-05-04"),
        ("2 maggio 2026", "2026-05-02"),
        ("2 gen 2026", "2026-01-02"),
        ("2 mei 2026", "2026-05-02"),
        ("2 mrt 2026", "2026-03-02"),
        ("02 Mei 2026", "2026-05-02"),
        ("17 Agu 2026", "2026-08-17"),
        ("17 Agustus 2026", "2026-08-17"),
        ("17 Agt 2026", "2026-08-17"),
        ("25 Des 2025", "2025-12-25"),
        ("Senin, 4 Mei 2026", "2026-05-04"),
        // Shapes from the India SMS corpus.
        ("29-JUN-26", "2026-06-29"),
        ("07/09/26", "2026-09-07"),
        ("08/MAY/2026", "2026-05-08"),
        ("28/MAY/2026", "2026-05-28"),
        ("17-5-2026", "2026-05-17"),
        ("2026-07-12", "2026-07-12"),
        ("2026-06-01", "2026-06-01"),
        ("02-JUL-26", "2026-07-02"),
        ("01/07/26", "2026-07-01"),
        ("01/08/26", "2026-08-01"),
        ("2026-08-19", "2026-08-19"),
        ("11-Jun-26", "2026-06-11"),
        ("27-Jul-26", "2026-07-27"),
        ("21-Aug-26", "2026-08-21"),
        ("01-Jun-26", "2026-06-01"),
        ("18-Jul-26", "2026-07-18"),
        // Dashes, spaced or not: en dash and em dash.
        ("14 \u{2014} Jul \u{2014} 2026", "2026-07-14"),
        ("14\u{2013}Jul\u{2013}2026", "2026-07-14"),
        ("28-May-26", "2026-05-28"),
        ("09-May-26", "2026-05-09"),
        ("21-MAY-26", "2026-05-21"),
        ("06-SEP-26", "2026-09-06"),
        ("01-May-26", "2026-05-01"),
        ("16-May-26", "2026-05-16"),
        ("25/05/26", "2026-05-25"),
        ("26/05/26", "2026-05-26"),
        ("16/05/26", "2026-05-16"),
        ("26-May-26", "2026-05-26"),
        ("31/08/26", "2026-08-31"),
        ("21-08-2026", "2026-08-21"),
        ("09/05/26", "2026-05-09"),
        ("18/07/2026", "2026-07-18"),
        ("22-05-2026", "2026-05-22"),
        ("14-09-26", "2026-09-14"),
        ("08-Sep-26", "2026-09-08"),
        ("03-Sep-26", "2026-09-03"),
        ("29 Apr 2026", "2026-04-29"),
        ("28Jul26", "2026-07-28"),
        ("01-01-26", "2026-01-01"),
        ("01Jan26", "2026-01-01"),
        ("10/07/26", "2026-07-10"),
        ("14/08/2026", "2026-08-14"),
        ("03-05-26", "2026-05-03"),
        ("26-05-26", "2026-05-26"),
        ("01-05-2026", "2026-05-01"),
        ("23-05", "2025-05-23"),  // no year: 2026-05-23 would be 13 days after the reference
    ]

    @Test("detected forms", arguments: detected)
    func detectedForm(_ raw: String, _ expected: String) throws {
        #expect(try DateNormalizer().normalize(raw, reference: Self.reference).description == expected)
    }

    /// raw, order, expected (reference 2026-05-10).
    static let ordered: [(String, DateOrder, String)] = [
        ("05/02/2026", .monthDayYear, "2026-05-02"),
        ("5/2/26", .monthDayYear, "2026-05-02"),
        ("12/31/2025", .monthDayYear, "2025-12-31"),
        ("05/02", .monthDayYear, "2026-05-02"),
        ("2026-05-02", .monthDayYear, "2026-05-02"),
        ("May 2, 2026", .monthDayYear, "2026-05-02"),
        ("02 May 2026", .monthDayYear, "2026-05-02"),
        ("05/02/2026", .dayMonthYear, "2026-02-05"),
        ("05/02", .dayMonthYear, "2026-02-05"),
        ("26/05/02", .yearMonthDay, "2026-05-02"),
        ("26.5.2", .yearMonthDay, "2026-05-02"),
        ("2026.05.02", .yearMonthDay, "2026-05-02"),
        ("05/02", .yearMonthDay, "2026-05-02"),
        ("02/05/2026", .yearMonthDay, "2026-05-02"),
    ]

    @Test("numeric dates follow the order", arguments: ordered)
    func orderedForm(_ raw: String, _ order: DateOrder, _ expected: String) throws {
        #expect(try DateNormalizer(order: order).normalize(raw, reference: Self.reference).description == expected)
    }

    /// The 12 synthetic formats of the benchmark (bench/gen_mbox.py), reference 2024-05-03.
    static let benchFormats: [(String, String, DateOrder, String)] = [
        ("hdfc_cc", "02-05-2024", .dayMonthYear, "2024-05-02"),
        ("icici_cc", "02-May-24", .dayMonthYear, "2024-05-02"),
        ("chase", "May 2, 2024", .monthDayYear, "2024-05-02"),
        ("bca_id", "02/05/2024", .dayMonthYear, "2024-05-02"),
        ("n26_de", "02.05.2024", .dayMonthYear, "2024-05-02"),
        ("sbi_upi", "02May24", .dayMonthYear, "2024-05-02"),
        ("axis_cc", "02-05-24", .dayMonthYear, "2024-05-02"),
        ("amex", "May 2, 2024", .monthDayYear, "2024-05-02"),
        ("barclays_uk", "02/05/2024", .dayMonthYear, "2024-05-02"),
        ("kotak_dc", "02-May-2024", .dayMonthYear, "2024-05-02"),
        ("citi", "05/02/2024", .monthDayYear, "2024-05-02"),
        ("santander_es", "02/05/2024", .dayMonthYear, "2024-05-02"),
    ]

    @Test("benchmark formats", arguments: benchFormats)
    func benchFormat(_ rule: String, _ raw: String, _ order: DateOrder, _ expected: String) throws {
        let date = try DateNormalizer(order: order).normalize(raw, reference: day(2024, 5, 3))
        #expect(date.description == expected, "rule \(rule)")
    }

    /// raw, reference, expected: dates without a year.
    static let withoutYear: [(String, LocalDate, String)] = [
        ("30 Dec", day(2026, 1, 3), "2025-12-30"),
        ("Dec 30", day(2026, 1, 3), "2025-12-30"),
        ("30/12", day(2026, 1, 3), "2025-12-30"),
        ("02 Jan", day(2026, 1, 3), "2026-01-02"),
        ("3 Jan", day(2026, 1, 3), "2026-01-03"),
        ("10 Jan", day(2026, 1, 3), "2026-01-10"),
        ("11 Jan", day(2026, 1, 3), "2025-01-11"),
        ("02 Jan", day(2025, 12, 28), "2026-01-02"),
        ("05 Jan", day(2025, 12, 28), "2025-01-05"),
        ("28 Dec", day(2025, 12, 28), "2025-12-28"),
        ("02 May", day(2026, 5, 10), "2026-05-02"),
        ("May 2", day(2026, 5, 10), "2026-05-02"),
        ("23-05", day(2026, 5, 23), "2026-05-23"),
        ("02.05.", day(2026, 5, 10), "2026-05-02"),
        ("29 Feb", day(2024, 3, 10), "2024-02-29"),
        ("1st June", day(2026, 5, 10), "2025-06-01"),
    ]

    @Test("no year: the reference's year, or the one before", arguments: withoutYear)
    func noYear(_ raw: String, _ reference: LocalDate, _ expected: String) throws {
        #expect(try DateNormalizer().normalize(raw, reference: reference).description == expected)
    }

    @Test func noYearWithoutReferenceIsInvalid() {
        expectDateError("date.noYear") { _ = try DateNormalizer().normalize("02 May", reference: nil) }
        expectDateError("date.noYear") { _ = try DateNormalizer().normalize("23-05", reference: nil) }
    }

    /// raw, reference, expected: two-digit years.
    static let twoDigitYears: [(String, LocalDate?, String)] = [
        ("02-05-26", day(2026, 5, 10), "2026-05-02"),
        ("02-05-27", day(2026, 5, 10), "2027-05-02"),
        ("02-05-28", day(2026, 5, 10), "1928-05-02"),
        ("02-05-99", day(2026, 5, 10), "1999-05-02"),
        ("02-05-00", day(2026, 5, 10), "2000-05-02"),
        ("01-01-00", day(1999, 12, 31), "2000-01-01"),
        ("31-12-99", day(1999, 12, 31), "1999-12-31"),
        ("02-05-99", nil, "2099-05-02"),
        ("02-05-26", nil, "2026-05-02"),
        ("02May99", day(2026, 5, 10), "1999-05-02"),
    ]

    @Test("two-digit years", arguments: twoDigitYears)
    func twoDigitYear(_ raw: String, _ reference: LocalDate?, _ expected: String) throws {
        #expect(try DateNormalizer().normalize(raw, reference: reference).description == expected)
    }

    @Test("leap years", arguments: [
        ("29-02-2024", "2024-02-29"), ("29-02-2000", "2000-02-29"), ("29 Feb 2028", "2028-02-29"),
        ("28-02-2025", "2025-02-28"), ("29-02-24", "2024-02-29"),
    ])
    func leapYear(_ raw: String, _ expected: String) throws {
        #expect(try DateNormalizer().normalize(raw, reference: Self.reference).description == expected)
    }

    @Test("days that do not exist are never rolled over", arguments: [
        "31-02-2026", "29-02-2025", "29-02-1900", "29-02-2100", "31-04-2026", "30 Feb 2024", "31/06/26",
        "2025-02-29", "Sep 31, 2026",
        "1405/07/31",  // Mehr, the seventh Solar Hijri month, has 30 days
    ])
    func nonexistent(_ raw: String) {
        expectDateError("date.nonexistent") { _ = try DateNormalizer().normalize(raw, reference: Self.reference) }
    }

    @Test func noYearLeapDayInCommonYear() {
        expectDateError("date.nonexistent") { _ = try DateNormalizer().normalize("29 Feb", reference: day(2025, 3, 10)) }
    }

    @Test("garbage", arguments: [
        "", "   ", "hello", "12", "May", "May 2026", "2026", "32-01-2026", "01-13-2026", "2026-13-01",
        "00-05-2026", "02-00-2026", "02-05/2026", "02-05-2026-01", "02-05-202", "02-05-20265", "2026-05-02:22:26:01",
        "Foo 2 2026", "02 May 2026 June", "1/2/3/4", "02 Mai 0026", "12345678", "2026-05-02T10:00", "02-05-2026 x",
        "May 2nd 3rd", "123 May 2026",
    ])
    func garbage(_ raw: String) {
        expectDateError("date.invalid") { _ = try DateNormalizer().normalize(raw, reference: Self.reference) }
    }

    // MARK: - Explicit formats

    /// format, raw, expected (reference 2026-05-10).
    static let formatted: [(String, String, String)] = [
        ("dd-MM-yyyy", "02-05-2026", "2026-05-02"),
        ("dd-MM-yyyy", "2-5-2026", "2026-05-02"),
        ("dd/MM/yy", "02/05/26", "2026-05-02"),
        ("dd-MMM-yy", "29-JUN-26", "2026-06-29"),
        ("dd-MMM-yy", "29-jun-26", "2026-06-29"),
        ("ddMMMyy", "28Jul26", "2026-07-28"),
        ("MMM d, yyyy", "May 2, 2026", "2026-05-02"),
        ("MMMM d, yyyy", "May 2, 2026", "2026-05-02"),
        ("EEE, dd MMM yyyy", "Sat, 02 May 2026", "2026-05-02"),
        ("EEEE d MMMM yyyy", "samedi 2 mai 2026", "2026-05-02"),
        ("d MMMM yyyy", "2 mayo 2026", "2026-05-02"),
        ("d MMM yyyy", "1 déc. 2026", "2026-12-01"),
        ("d MMM. yyyy", "1 déc. 2026", "2026-12-01"),
        ("yyyy-MM-dd", "2026-05-02", "2026-05-02"),
        ("yyyyMMdd", "20260502", "2026-05-02"),
        ("ddMMyy", "020526", "2026-05-02"),
        ("MM/dd/yyyy", "05/02/2026", "2026-05-02"),
        ("dd MMM yyyy", "02   May 2026", "2026-05-02"),
        ("dd MMM yyyy", "  02 May 2026  ", "2026-05-02"),
        ("dd.MM.", "02.05.", "2026-05-02"),
        ("dd-MM", "30-12", "2025-12-30"),
        ("d 'de' MMMM 'de' yyyy", "2 de mayo de 2026", "2026-05-02"),
        ("yyyy'年'M'月'd'日'", "2026年5月2日", "2026-05-02"),
        ("''yy MMM d", "'26 May 2", "2026-05-02"),
    ]

    @Test("explicit formats", arguments: formatted)
    func explicitFormat(_ format: String, _ raw: String, _ expected: String) throws {
        let normalizer = try DateNormalizer(format: format)
        #expect(try normalizer.normalize(raw, reference: Self.reference).description == expected)
    }

    @Test("bad formats", arguments: [
        "", "   ", "YYYY-MM-DD", "MM-yyyy", "dd-yyyy", "dd-MM-yyyy-dd", "ddd-MM-yyyy", "dd-MM-yyy", "dd-MM-y",
        "dd 'unclosed", "dd-MM-yyyy HH:mm", "dd-MM-yy-yyyy", "dd MMMMM yyyy", "EEE EEE dd MM",
    ])
    func badFormat(_ format: String) {
        expectDateError("date.format") { _ = try DateNormalizer(format: format) }
    }

    /// format, raw: text that does not fit the format.
    static let mismatched: [(String, String)] = [
        ("dd-MM-yyyy", "02/05/2026"),
        ("dd-MM-yyyy", "02-05-26"),
        ("dd-MMM-yy", "02-Foo-26"),
        ("dd-MMM-yy", "02-05-26"),
        ("dd-MM-yyyy", "02-05-2026 x"),
        ("EEE, dd MMM yyyy", "Xyz, 02 May 2026"),
        ("dd-MM-yyyy", ""),
        ("dd-MM-yyyy", "32-05-2026"),
        ("dd-MM-yyyy", "02-13-2026"),
    ]

    @Test("text that does not fit the format", arguments: mismatched)
    func mismatch(_ format: String, _ raw: String) throws {
        let normalizer = try DateNormalizer(format: format)
        expectDateError("date.invalid") { _ = try normalizer.normalize(raw, reference: Self.reference) }
    }

    @Test func formatNonexistentDay() throws {
        let normalizer = try DateNormalizer(format: "dd-MM-yyyy")
        expectDateError("date.nonexistent") { _ = try normalizer.normalize("31-02-2026", reference: nil) }
    }

    @Test func formatWithoutYearNeedsReference() throws {
        let normalizer = try DateNormalizer(format: "dd MMM")
        expectDateError("date.noYear") { _ = try normalizer.normalize("30 Dec", reference: nil) }
        #expect(try normalizer.normalize("30 Dec", reference: day(2026, 1, 3)).description == "2025-12-30")
    }
}

@Suite("LocalDate and DateOrder")
struct LocalDateTests {
    @Test("existing and missing days", arguments: [
        (2024, 2, 29, true), (2025, 2, 29, false), (2000, 2, 29, true), (1900, 2, 29, false), (2100, 2, 29, false),
        (2026, 4, 31, false), (2026, 12, 31, true), (2026, 13, 1, false), (2026, 0, 1, false), (2026, 1, 0, false),
        (0, 1, 1, false), (9999, 12, 31, true), (10000, 1, 1, false), (1, 1, 1, true),
    ])
    func existence(_ year: Int, _ month: Int, _ dayOfMonth: Int, _ exists: Bool) {
        #expect((LocalDate(year: year, month: month, day: dayOfMonth) != nil) == exists)
    }

    @Test func description() {
        #expect(day(2026, 5, 2).description == "2026-05-02")
        #expect(day(999, 1, 5).description == "0999-01-05")
    }

    @Test func ordering() {
        #expect(day(2025, 12, 31) < day(2026, 1, 1))
        #expect(day(2026, 1, 2) > day(2026, 1, 1))
        #expect(day(2026, 2, 1) > day(2026, 1, 31))
        #expect([day(2026, 5, 2), day(2024, 1, 1), day(2025, 6, 30)].sorted().map(\.description)
            == ["2024-01-01", "2025-06-30", "2026-05-02"])
    }

    @Test func dayArithmetic() {
        #expect(day(1970, 1, 1).daysSinceEpoch == 0)
        #expect(day(2000, 3, 1).daysSinceEpoch == 11017)
        #expect(day(1969, 12, 31).daysSinceEpoch == -1)
        #expect(day(2024, 2, 28).adding(days: 1) == day(2024, 2, 29))
        #expect(day(2025, 2, 28).adding(days: 1) == day(2025, 3, 1))
        #expect(day(2025, 12, 31).adding(days: 1) == day(2026, 1, 1))
        #expect(day(2026, 1, 3).adding(days: -4) == day(2025, 12, 30))
        #expect(day(9999, 12, 31).adding(days: 1) == nil)
        var d = day(1999, 1, 1)
        for _ in 0..<3000 {
            let next = d.adding(days: 1)!
            #expect(next > d)
            #expect(LocalDate(daysSinceEpoch: next.daysSinceEpoch) == next)
            d = next
        }
    }

    @Test("usual order by country", arguments: [
        ("US", DateOrder.monthDayYear), ("us", .monthDayYear), ("PH", .monthDayYear), ("CN", .yearMonthDay),
        ("JP", .yearMonthDay), ("KR", .yearMonthDay), ("TW", .yearMonthDay), ("HU", .yearMonthDay),
        ("LT", .yearMonthDay), ("IN", .dayMonthYear), ("GB", .dayMonthYear), ("DE", .dayMonthYear),
        ("ID", .dayMonthYear), ("", .dayMonthYear),
    ])
    func order(_ country: String, _ expected: DateOrder) {
        #expect(DateOrder.forCountry(country) == expected)
    }

    @Test func orderWithoutCountry() {
        #expect(DateOrder.forCountry(nil) == .dayMonthYear)
        #expect(DateOrder(rawValue: "mdy") == .monthDayYear)
    }
}
