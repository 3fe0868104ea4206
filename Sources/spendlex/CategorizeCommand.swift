import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexLanguageModel
import SpendlexRules
import SpendlexStore

struct Categorize: AsyncParsableCommand {
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
            --evaluate scores the model by k-fold cross-validation on the ledger, each merchant in one fold. \
            When the person's settings (spendlex.yaml beside the ledger) name a language model (language_model: \
            url, model, api_key_env: an OpenAI-compatible chat completions endpoint), the merchants still \
            uncategorized are asked in batches with the closed category list; each answer is checked against \
            the list and written as a row of the person's categories.yaml (id model.*, with the model and the day), \
            never over a person's own. Nothing leaves the machine unless that setting is there.
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

    @Flag(name: .long, help: "Do not ask the language model the settings name.")
    var noModel = false

    func validate() throws {
        if store.isEmpty { throw ValidationError("no ledger given: pass --store FILE or set SPENDLEX_STORE") }
        if !(0...1).contains(threshold) { throw ValidationError("--threshold is a probability, from 0 to 1") }
        if folds < 2 { throw ValidationError("--folds is at least 2") }
        if !set.isEmpty && (set.count != 2 || Int64(set[0]) == nil) {
            throw ValidationError("--set takes a ledger id and a category: --set 42 \"Food & Dining/Groceries\"")
        }
    }

    func run() async throws {
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
        if !noModel, let settings = try PersonSettings.load(ledger: store)?.languageModel {
            try await askLanguageModel(settings, ledger: ledger, categories: CategoryList.of(engine.rules.rules))
        }
        if statistics {
            for (row, hits) in try ledger.mappingStatistics() { print("\(hits)\t\(row)") }
        }
    }

    /// Asks the language model about the merchants still uncategorized; remembers each valid
    /// answer as a row of the person's categories file (checked like `edit --remember`) and
    /// categorizes the merchant's transactions by it.
    private func askLanguageModel(_ settings: PersonConfig.LanguageModel, ledger: Ledger, categories: CategoryList) async throws {
        let merchants = try ledger.uncategorizedMerchants()
        guard !merchants.isEmpty else { return }
        let answers: ChatCategorizer.Answers
        do { answers = try await ChatCategorizer(settings: settings, categories: categories).categorize(merchants) } catch {
            Stderr.write("error: \(error)\n")
            throw ExitStatus.internalError
        }
        let asked = "asked \(settings.model) on \(Recommend.today())"
        var remembered = 0, changed = 0
        let bundled = try BundledRules.paths(given: rules.rules)
        for merchant in merchants {
            guard let answer = answers.categories[merchant] else { continue }
            let row = RememberedCategories.Row(merchant: merchant, category: answer.category, subcategory: answer.subcategory,
                                               askedModel: asked)
            do { _ = try RememberedCategories.remember(row, ledger: store, bundled: bundled) } catch let code as ExitCode
                where code == ExitStatus.findings {
                continue  // it would change a bundled example: said on stderr, not remembered
            }
            remembered += 1
            changed += try ledger.categorize(merchant: merchant, category: answer.category, subcategory: answer.subcategory)
        }
        for refused in answers.refused { Stderr.write("note: the language model's answer is not a declared category: \(refused)\n") }
        print("language model \(settings.model) (\(merchants.count) merchants asked): \(remembered) remembered, \(changed) transactions categorized")
    }
}
