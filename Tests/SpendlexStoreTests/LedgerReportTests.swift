import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// Compares with `Tests/Fixtures/golden/NAME`; `SPENDLEX_UPDATE_GOLDEN=1 swift test` rewrites it.
func expectStoreGolden(_ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden/\(name)")
    if ProcessInfo.processInfo.environment["SPENDLEX_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == golden, "differs from golden file \(name)", sourceLocation: sourceLocation)
}

@Suite("Ledger report")
struct LedgerReportTests {
    /// Two months, two currencies, a duplicate pair, a refund, a salary, a card bill paid.
    func sample() throws -> Ledger {
        try ledger(with: [
            categorized("s1", amount: "10290", date: "2026-05-02", time: "22:26:01", merchant: "EAZYDINE",
                        category: "Food & Dining", subcategory: "Restaurants", last4: "0000"),
            // The same dinner by push, a minute later: a duplicate, never counted twice.
            categorized("p1", amount: "10290", date: "2026-05-02", time: "22:26:01", merchant: "EAZYDINE",
                        category: "Food & Dining", subcategory: "Restaurants", last4: "0000", channel: .push),
            categorized("s2", amount: "450.50", date: "2026-05-09", merchant: "Swiggy", category: "Food & Dining",
                        subcategory: "Delivery", last4: "0000"),
            categorized("s3", amount: "75000.00", direction: .credit, kind: .salary, date: "2026-05-31",
                        merchant: "ACME PAYROLL", category: "Salary", last4: nil, bank: "icici"),
            categorized("s4", amount: "50.50", direction: .credit, kind: .refund, date: "2026-06-01", merchant: "Swiggy",
                        category: "Food & Dining", subcategory: "Delivery", last4: "0000"),
            categorized("s5", amount: "10290.00", direction: .credit, kind: .cardPayment, date: "2026-06-03",
                        merchant: "Payment received", last4: "0000"),
            categorized("m1", amount: "12.50", currency: "EUR", date: "2026-05-31", merchant: "REWE", last4: "2210",
                        bank: "n26", channel: .email),
            categorized("m2", amount: "7.25", currency: "EUR", date: "2026-06-01", merchant: "REWE", last4: "2210",
                        bank: "n26", channel: .email),
        ])
    }

    func totals(_ section: LedgerReport.Section, _ currency: String) throws -> LedgerReport.CurrencyTotals {
        try #require(section.currencies.first { $0.currency == currency })
    }

    @Test func currenciesAreKeptApart() throws {
        let report = LedgerReport(transactions: try sample().transactions(), period: .month)
        #expect(report.total.currencies.map(\.currency) == ["EUR", "INR"])
        let eur = try totals(report.total, "EUR")
        #expect(eur.expenses == Decimal(string: "19.75"))
        #expect(eur.income == 0)
        #expect(eur.count == 2)
        #expect(eur.merchants.map(\.name) == ["REWE"])
        let inr = try totals(report.total, "INR")
        #expect(inr.income == 75000)
        #expect(inr.accounts.map(\.name) == ["hdfc card 0000", "icici"])
    }

    @Test func aDuplicateCountsOnce() throws {
        let ledger = try sample()
        let inr = try totals(LedgerReport(transactions: try ledger.transactions(), period: .year).total, "INR")
        // 10290 + 450.50 spent, 50.50 refunded; the push about the dinner is not counted.
        #expect(inr.expenses == Decimal(string: "10690"))
        #expect(inr.net == Decimal(string: "64310"))
        #expect(inr.count == 5)
        #expect(inr.transfers == 10290)
        let food = try #require(inr.categories.first)
        #expect(food.total.name == "Food & Dining" && food.total.count == 3)
        #expect(food.subcategories.map(\.name) == ["Restaurants", "Delivery"])
        #expect(food.subcategories.map(\.amount) == [10290, 400])
    }

    @Test func aDeclinedPaymentIsInNoMoneyTotal() throws {
        let rows = try ledger(with: [
            categorized("d1", amount: "899.00", kind: .declined, date: "2026-05-02", merchant: "SAMPLE STORE"),
            categorized("s1", amount: "100.00", date: "2026-05-02", merchant: "SAMPLE CAFE"),
        ]).transactions()
        let inr = try totals(LedgerReport(transactions: rows, period: .month).total, "INR")
        #expect(inr.expenses == 100 && inr.income == 0 && inr.transfers == 0)
        #expect(inr.declined == Decimal(string: "899.00"))
        #expect(inr.count == 2)
        #expect(inr.merchants.map(\.name) == ["SAMPLE CAFE"])
        #expect(inr.accounts.map(\.moneyOut) == [100])
    }

    @Test func monthsSplitAtTheirLastDay() throws {
        let report = LedgerReport(transactions: try sample().transactions(), period: .month)
        #expect(report.periods.map(\.label) == ["2026-05", "2026-06"])
        let may = try totals(report.periods[0], "INR"), june = try totals(report.periods[1], "INR")
        #expect(may.expenses == Decimal(string: "10740.50") && may.income == 75000 && may.count == 3)
        #expect(june.expenses == Decimal(string: "-50.50") && june.count == 2)
        #expect(try totals(report.periods[0], "EUR").days.map(\.date.description) == ["2026-05-31"])
        #expect(report.periods[1].start?.description == "2026-06-01" && report.periods[1].end?.description == "2026-06-30")
    }

    @Test func aRangeClipsThePeriods() throws {
        let ledger = try sample()
        let from = LocalDate(iso: "2026-05-09"), to = LocalDate(iso: "2026-06-01")
        let rows = try ledger.transactions(TransactionQuery(from: from, to: to))
        let report = LedgerReport(transactions: rows, period: .quarter, from: from, to: to)
        #expect(report.periods.map(\.label) == ["2026-Q2"])
        #expect(report.periods[0].start == from && report.periods[0].end == to)
        #expect(try totals(report.total, "INR").count == 3)
    }

    @Test(arguments: [
        ("2026-05-02", ReportPeriod.week, "2026-W18", "2026-04-27", "2026-05-03"),
        ("2027-01-01", .week, "2026-W53", "2026-12-28", "2027-01-03"),
        ("2025-12-29", .week, "2026-W01", "2025-12-29", "2026-01-04"),
        ("2028-02-29", .month, "2028-02", "2028-02-01", "2028-02-29"),
        ("2026-09-30", .quarter, "2026-Q3", "2026-07-01", "2026-09-30"),
        ("2026-10-01", .quarter, "2026-Q4", "2026-10-01", "2026-12-31"),
        ("2026-05-02", .year, "2026", "2026-01-01", "2026-12-31"),
    ])
    func periodsHaveISOLabelsAndBounds(day: String, period: ReportPeriod, label: String, start: String, end: String) throws {
        let interval = period.interval(containing: try #require(LocalDate(iso: day)))
        #expect(interval.label == label)
        #expect(interval.start.description == start && interval.end.description == end)
    }

    @Test func transactionsWithoutAmountAreCountedAsLeftOut() throws {
        var noAmount = categorized("x", amount: "1", date: "2026-05-02")
        noAmount.amount = nil
        noAmount.amountText = nil
        let report = LedgerReport(transactions: try ledger(with: [noAmount]).transactions(), period: .month)
        #expect(report.leftOut == 1 && report.periods.isEmpty)
    }

    @Test func moneyIsRoundedToTheCurrencysMinorUnit() {
        #expect(MoneyText.format(Decimal(string: "1917.5")!, currency: "INR") == "1917.50")
        #expect(MoneyText.format(Decimal(string: "1500")!, currency: "JPY") == "1500")
        #expect(MoneyText.format(Decimal(string: "1.2345")!, currency: "KWD") == "1.235")
        #expect(MoneyText.format(Decimal(string: "-0.001")!, currency: "USD") == "0.00")
    }

    @Test func textReportIsGolden() throws {
        let report = LedgerReport(transactions: try sample().transactions(), period: .month, topMerchants: 3)
        try expectStoreGolden(ReportFormat.text.render(report), "report-month.txt")
    }

    @Test func jsonReportHasExactDecimalStrings() throws {
        let report = LedgerReport(transactions: try sample().transactions(), period: .month)
        let json = ReportFormat.json.render(report)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let total = try #require(object["total"] as? [String: Any])
        let currencies = try #require(total["currencies"] as? [[String: Any]])
        #expect(currencies.map { $0["expenses"] as? String } == ["19.75", "10690"])
    }

    @Test func htmlReportIsSelfContainedWithSVGCharts() throws {
        let report = LedgerReport(transactions: try sample().transactions(), period: .month)
        let html = ReportFormat.html.render(report)
        #expect(html.hasPrefix("<!doctype html>"))
        // Two currencies, each with its spending by category, period over period and per day.
        #expect(html.components(separatedBy: "<svg ").count - 1 == 6)
        #expect(html.contains("Category trend"))
        #expect(html.contains("Food &amp; Dining"))
        for external in ["<script", "<link", "src=", "url(", "@import", "http://", "https://"] {
            let allowed = external == "http://" ? html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "") : html
            #expect(!allowed.contains(external), "\(external)")
        }
    }
}
