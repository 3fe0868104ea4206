import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexStore

struct Categorize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categorize",
        abstract: "Categorize the ledger's transactions: the decision tables first, then a model learned from the ledger.",
        discussion: """
            Fills in the category of every transaction that has none; with --recompute, decides every one again \
            (after the tables change). A category set by hand (--set, spendlex edit) always wins. Counts each \
            deciding row's hits in the ledger's mapping statistics. What no table row decides, a naive Bayes \
            model trained on the ledger's own categorized transactions (a person's edits weigh three times a \
            table's) categorizes from the merchant's words and letters, the bank, channel, kind, amount and \
            weekday, when it is at least --threshold sure; below that the transaction stays uncategorized, is \
            marked for review and keeps the model's guess (spendlex explain --transaction ID shows why). \
            --evaluate scores the model by k-fold cross-validation on the ledger, each merchant in one fold.
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

    @Option(name: .long, help: ArgumentHelp("How sure the learned model must be to categorize (0...1).", valueName: "probability"))
    var threshold = CategoryModel.defaultThreshold

    @Flag(name: .long, help: "Only the decision tables: no learned model.")
    var noLearning = false

    @Flag(name: .long, help: "Score the learned model on the ledger (k-fold, each merchant in one fold) and change nothing.")
    var evaluate = false

    @Option(name: .long, help: "With --evaluate: the number of folds.")
    var folds = 5

    func validate() throws {
        if store.isEmpty { throw ValidationError("no ledger given: pass --store FILE or set SPENDLEX_STORE") }
        if !(0...1).contains(threshold) { throw ValidationError("--threshold is a probability, from 0 to 1") }
        if folds < 2 { throw ValidationError("--folds is at least 2") }
        if !set.isEmpty && (set.count != 2 || Int64(set[0]) == nil) {
            throw ValidationError("--set takes a ledger id and a category: --set 42 \"Food & Dining/Groceries\"")
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: store) else {
            Stderr.write("error: no ledger at \(store)\n")
            throw ExitStatus.badInput
        }
        let ledger = try Ledger(path: store)
        if evaluate {
            let evaluation = try ledger.evaluateCategoryModel(folds: folds, threshold: threshold)
            guard evaluation.examples > 0 else {
                Stderr.write("error: the ledger has no categorized transaction to learn from\n")
                throw ExitStatus.badInput
            }
            print(evaluation.text(), terminator: "")
            return
        }
        let engine = try rules.engine(ledger: store)
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
        if !noLearning {
            let learned = try ledger.learnCategories(threshold: threshold, recompute: recompute)
            print("learned model (\(learned.examples) examples): \(learned.categorized) categorized, "
                  + "\(learned.forReview) left for review")
        }
        if statistics {
            for (row, hits) in try ledger.mappingStatistics() { print("\(hits)\t\(row)") }
        }
    }
}
