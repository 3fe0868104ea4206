import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexRules
import SpendlexStore

/// Where a person's budgets file is: `--budgets`, else `SPENDLEX_BUDGETS`, else `budgets.yaml`
/// beside the ledger (a person's own files live with their ledger).
struct BudgetsOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The budgets file (default: $SPENDLEX_BUDGETS, else budgets.yaml beside the ledger).", valueName: "file"))
    var budgets: String?

    /// The file's path, given the ledger's; `given` says whether the person named it (then a
    /// missing file is an error, not "no budgets").
    func path(ledger: String) -> (path: String, given: Bool) {
        if let budgets { return (budgets, true) }
        if let fromEnvironment = ProcessInfo.processInfo.environment["SPENDLEX_BUDGETS"], !fromEnvironment.isEmpty {
            return (fromEnvironment, true)
        }
        return (URL(fileURLWithPath: ledger).deletingLastPathComponent().appendingPathComponent("budgets.yaml").path, false)
    }

    /// The budgets, read and checked against `categories`; nil when there is no file and none was
    /// named. A file with errors prints them and is bad input (exit 65).
    func load(ledger: String, categories: () throws -> CategoryList) throws -> Budgets? {
        let (path, given) = path(ledger: ledger)
        guard given || FileManager.default.fileExists(atPath: path) else { return nil }
        let (budgets, diagnostics, source) = BudgetFileReader.load(path: path, categories: try categories())
        if !diagnostics.isEmpty {
            Stderr.write(DiagnosticFormatter(sources: source.map { [path: $0] } ?? [:]).format(diagnostics.sortedByLocation()))
        }
        guard let budgets, !diagnostics.containsErrors else { throw ExitStatus.badInput }
        return budgets
    }
}

struct Budget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Where each budget stands: spent, left, and the pace against the period gone.",
        discussion: """
            The budgets file lists limits per category (or category/subcategory), currency and period (week, \\
            month, quarter, year), with rollover of what a period left or overspent when asked:
              budgets:
                - {category: "Food & Dining", limit: 15000, currency: INR, period: month, rollover: true}
                - {category: "Food & Dining/Restaurants", limit: 4000, currency: INR}
            Spending counts as the report counts expenses (debits less refunds, no duplicates, no transfers \\
            between your own accounts); the report shows the same figures (spendlex report --budgets). A \\
            budget over its limit gets a warning line.
            """
    )

    @OptionGroup var store: StoreOption
    @OptionGroup var budgetsFile: BudgetsOption
    @OptionGroup var rules: RuleOptions

    @Option(name: .long, help: ArgumentHelp("The day to stand on (default: today).", valueName: "yyyy-mm-dd"))
    var today: String?

    @Option(name: .long, help: "text or json.")
    var format: Show.ShowFormat = .text

    func validate() throws {
        if let today, LocalDate(iso: today) == nil { throw ValidationError("--today takes a day: yyyy-mm-dd") }
    }

    func run() throws {
        let path = try store.path()
        let ledger = try store.open()
        guard let budgets = try budgetsFile.load(ledger: path, categories: {
            CategoryList.of(RuleLoader.load(paths: try BundledRules.paths(given: rules.rules)).0)
        }) else {
            Stderr.write("error: no budgets file: write \(budgetsFile.path(ledger: path).path) or pass --budgets FILE "
                         + "(spendlex budget --help shows the format)\n")
            throw ExitStatus.badInput
        }
        let status: BudgetStatus
        do {
            status = BudgetStatus(budgets: budgets, transactions: try ledger.transactions(),
                                  day: today.flatMap(LocalDate.init(iso:)) ?? Recommend.today())
        } catch {
            Stderr.write("error: reading the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        print(format == .json ? status.json() : status.text(), terminator: "")
    }
}
