import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexStore

struct Categorize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categorize",
        abstract: "Categorize the ledger's transactions with the categories file's decision tables.",
        discussion: """
            Fills in the category of every transaction that has none; with --recompute, decides every one again \
            (after the tables change). A category set by hand (--set) always wins. Counts each deciding row's \
            hits in the ledger's mapping statistics.
            """
    )

    @OptionGroup var rules: RuleOptions

    @Option(name: .customLong("store"), help: ArgumentHelp("The SQLite ledger (from spendlex parse --store) (default: $SPENDLEX_STORE).", valueName: "file"))
    var storeOption: String?

    /// `--store`, else `SPENDLEX_STORE`; "" when neither (refused by `validate`).
    var store: String { storeOption ?? ProcessInfo.processInfo.environment["SPENDLEX_STORE"] ?? "" }

    @Flag(name: .long, help: "Decide every transaction again, not only uncategorized ones (hand-set categories kept).")
    var recompute = false

    @Option(name: .customLong("set"), parsing: .upToNextOption, help: ArgumentHelp(
        "Set one transaction's category by hand: its ledger id, then CATEGORY or CATEGORY/SUBCATEGORY.",
        valueName: "id category"))
    var set: [String] = []

    @Flag(name: .long, help: "Print the mapping statistics: how often each row decided.")
    var statistics = false

    func validate() throws {
        if store.isEmpty { throw ValidationError("no ledger given: pass --store FILE or set SPENDLEX_STORE") }
        if !set.isEmpty && (set.count != 2 || Int64(set[0]) == nil) {
            throw ValidationError("--set takes a ledger id and a category: --set 42 \"Food & Dining/Groceries\"")
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: store) else {
            Stderr.write("error: no ledger at \(store)\n")
            throw ExitStatus.badInput
        }
        let engine = try rules.engine()
        let ledger = try Ledger(path: store)
        let declared = engine.rules.rules.categories
        if set.count == 2, let id = Int64(set[0]) {
            let parts = set[1].split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let category = parts[0]
            let subcategory = parts.count > 1 ? parts[1] : nil
            // Categories are a closed list: a hand-set one must be declared too.
            guard let declaration = declared.first(where: { $0.name.value == category }) else {
                throw ValidationError("unknown category '\(category)'; declared: "
                                      + declared.map(\.name.value).joined(separator: ", "))
            }
            if let subcategory, !declaration.subcategories.contains(where: { $0.value == subcategory }) {
                throw ValidationError("'\(category)' has no subcategory '\(subcategory)'")
            }
            guard try ledger.setCategory(transaction: id, category: category, subcategory: subcategory) else {
                Stderr.write("error: the ledger has no transaction \(id)\n")
                throw ExitStatus.badInput
            }
            print("transaction \(id): \(set[1]) (set by hand)")
            return
        }
        guard !engine.rules.rules.categoryTables.isEmpty else {
            throw ValidationError("no categories file among the rules (rules/categories.yaml)")
        }
        let worker = engine.makeWorker()
        let counts = try ledger.categorize(recompute: recompute) { candidate in
            let input = CategoryInput(merchant: candidate.merchant, amount: candidate.amount,
                                      direction: candidate.direction, kind: candidate.kind, bank: candidate.bank,
                                      last4: candidate.last4, accountType: candidate.accountType)
            return worker.categorize(input).map {
                Ledger.StoredCategory(category: $0.category, subcategory: $0.subcategory, tags: $0.tags, rows: $0.rows)
            }
        }
        print("\(counts.changed) categorized, \(counts.unchanged) unchanged, \(counts.keptByUser) set by hand and kept")
        if statistics {
            for (row, hits) in try ledger.mappingStatistics() { print("\(hits)\t\(row)") }
        }
    }
}
