import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexRules
import SpendlexStore

extension ReportPeriod: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report income, spending and where it went, per period and per currency.",
        discussion: """
            From the ledger's primaries (a duplicate never counts twice), per period and per currency \
            (never converted or added together): income, expenses, net, count; spending by category and \
            subcategory (Uncategorized until categorization assigns one); top merchants; a per-day series; \
            per-account totals; recurring payments; with a budgets file (--budgets, or budgets.yaml beside \
            the ledger), where each budget stands on the range's last day (as spendlex budget --today shows it). \
            --format html writes one self-contained page with SVG charts.
            """
    )

    @OptionGroup var range: LedgerRangeOptions
    @OptionGroup var budgetsFile: BudgetsOption

    @Option(name: .long, help: "Split by week, month, quarter or year.")
    var period: ReportPeriod = .month

    @Option(name: .long, help: "Output format: text, json or html.")
    var format: ReportFormat = .text

    @Option(name: .long, help: "How many merchants to list per currency.")
    var top: Int = 10

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of stdout.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "The locale amounts are written in, in text and html: symbols, grouping, decimal mark (en_IN, de_DE); default: each currency's own.",
        valueName: "identifier"))
    var locale: String?

    func validate() throws {
        if top < 0 { throw ValidationError("--top must be at least 0") }
    }

    /// The declared categories, to check the budgets' against: the bundled rules' (none when no
    /// rules are found: the budgets are then not checked).
    static func categories() throws -> CategoryList {
        guard let paths = try? BundledRules.paths(given: []) else { return CategoryList.of(RuleSet()) }
        return CategoryList.of(RuleLoader.load(paths: paths).0)
    }

    func run() throws {
        let transactions = try range.transactions()
        var report = LedgerReport(transactions: transactions, period: period, from: range.fromDate, to: range.toDate,
                                  topMerchants: top)
        // Budgets count over the whole ledger (a rollover reaches back before the range).
        if let budgets = try budgetsFile.load(ledger: range.store, categories: Self.categories) {
            report.budgets = BudgetStatus(budgets: budgets, transactions: try range.transactions(all: true),
                                          day: range.toDate ?? Recommend.today())
        }
        let out = try OutputStream(path: output)
        out.write(format.render(report, locale: locale))
        try out.finish(name: output ?? "the output")
    }
}
