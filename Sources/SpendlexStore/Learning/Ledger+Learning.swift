import Foundation
import GRDB
import SpendlexEngine
import SpendlexRules

extension Ledger {
    /// What learning categories did.
    public struct LearnedCounts: Sendable, Equatable {
        /// Transactions the model categorized (its probability at or above the threshold).
        public var categorized = 0
        /// Transactions it was not sure enough of: left uncategorized, marked for review, with its guess kept.
        public var forReview = 0
        /// The examples it learned from.
        public var examples = 0
    }

    /// The columns the model's features come from, and the label columns.
    private static let learningColumns = """
        id, merchant, bank, channel, direction, kind, amount_value, date, category, subcategory, category_source
        """

    private static func features(_ row: Row) -> [String] {
        CategoryModel.features(
            merchant: row["merchant"], bank: row["bank"], channel: row["channel"],
            direction: (row["direction"] as String?).flatMap(Direction.init(rawValue:)),
            kind: (row["kind"] as String?).flatMap(TransactionKind.init(rawValue:)),
            amount: (row["amount_value"] as String?).flatMap { Decimal(string: $0) },
            date: (row["date"] as String?).flatMap(LocalDate.init(iso:)))
    }

    /// The ledger's categorized transactions as the model's examples (primaries; not those
    /// uncategorized, nor those the model itself categorized, unless a person confirmed them),
    /// each with its merchant as the group that cross-validation keeps together.
    /// A merchant's transactions share one unit of weight (three for a person's choices): a shop
    /// paid five hundred times is one merchant to learn from, not five hundred, or the model is as
    /// sure of its words as if every one had been seen that often (the probabilities it gave on the
    /// reference corpus's ledger were then right half as often as they said).
    public func categoryExamples() throws -> [(id: Int64, group: String, example: CategoryModel.Example)] {
        try pool.read { db in
            let sizes = try Self.groupSizes(db)
            return try Row.fetchAll(db, sql: "SELECT \(Self.learningColumns) FROM transactions WHERE \(Self.examplesCondition) ORDER BY id",
                                    arguments: [StoredTransaction.uncategorized]).map { Self.example($0, groupSizes: sizes) }
        }
    }

    /// The model of the ledger's examples, as `categoryExamples()` gives them, trained from
    /// cursors without holding them (the same model, to the last bit).
    private static func trainer(_ db: Database) throws -> CategoryModel.Trainer {
        let sizes = try groupSizes(db)
        var trainer = CategoryModel.Trainer()
        let rows = try Row.fetchCursor(db, sql: "SELECT \(learningColumns) FROM transactions WHERE \(examplesCondition) ORDER BY id",
                                       arguments: [StoredTransaction.uncategorized])
        while let row = try rows.next() { trainer.add(example(row, groupSizes: sizes).example) }
        return trainer
    }

    /// Which transactions are examples (see `categoryExamples()`); its argument is the
    /// uncategorized category's name.
    private static let examplesCondition = """
        duplicate_of IS NULL AND category IS NOT NULL AND category != ? AND (category_source = 'user' OR category_probability IS NULL)
        """

    /// How many examples each merchant (its folded key) has, read from a cursor; an example without
    /// a merchant is a group of its own, not counted here.
    private static func groupSizes(_ db: Database) throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        let merchants = try String?.fetchCursor(db, sql: "SELECT merchant FROM transactions WHERE \(examplesCondition)",
                                                arguments: [StoredTransaction.uncategorized])
        while let merchant = try merchants.next() {
            if let key = RecurringPayments.merchantKey(merchant ?? "") { sizes[key, default: 0] += 1 }
        }
        return sizes
    }

    /// One example, its weight shared with its merchant's other examples.
    private static func example(_ row: Row, groupSizes: [String: Int]) -> (id: Int64, group: String, example: CategoryModel.Example) {
        let label = CategoryModel.Label(category: row["category"], subcategory: row["subcategory"])
        let weight = row["category_source"] as String? == "user" ? CategoryModel.userWeight : 1
        let id: Int64 = row["id"]
        let key = RecurringPayments.merchantKey(row["merchant"] as String? ?? "")
        let example = CategoryModel.Example(features: Self.features(row), label: label,
                                            weight: weight / Double(key.flatMap { groupSizes[$0] } ?? 1))
        return (id, key ?? "#\(id)", example)
    }

    /// Per merchant (its folded key), the category a person last set on one of its transactions.
    func personsMerchantCategories() throws -> [String: CategoryModel.Label] {
        try pool.read { db in
            var chosen: [String: CategoryModel.Label] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT merchant, category, subcategory FROM transactions
                WHERE category_source = 'user' AND merchant IS NOT NULL ORDER BY updated_at, id
                """) {
                guard let key = RecurringPayments.merchantKey(row["merchant"]) else { continue }
                chosen[key] = CategoryModel.Label(category: row["category"], subcategory: row["subcategory"])
            }
            return chosen
        }
    }

    /// The model, trained on the ledger as it is now.
    public func categoryModel() throws -> CategoryModel {
        try pool.read { db in try Self.trainer(db).model }
    }

    /// Categorizes with the learned model the transactions no decision-table row categorized
    /// (uncategorized, and not set by a person): at `threshold` or more, the model's label becomes
    /// the category (`category_probability` says the model decided); below it, the category stays
    /// empty, the transaction is marked for review, and the model's guess is kept beside it
    /// (`learned_category`). `run`: only that run's transactions; `recompute`: also those the model
    /// categorized before (a person's corrections since change them). One SQLite transaction.
    public func learnCategories(threshold: Double = CategoryModel.defaultThreshold, run: Int64? = nil,
                                recompute: Bool = false) throws -> LearnedCounts {
        var conditions = ["duplicate_of IS NULL", "category_source IS NOT 'user'"]
        var arguments: [(any DatabaseValueConvertible)?] = [StoredTransaction.uncategorized]
        conditions.append(recompute ? "(category IS NULL OR category = ? OR category_probability IS NOT NULL)"
                                    : "(category IS NULL OR category = ?) AND learned_category IS NULL")
        if let run {
            // A look-up per transaction: "message_id IN (SELECT ...)" scanned every message again for
            // each chunk below (a million stored SMS took 79 s instead of 34).
            conditions.append("EXISTS (SELECT 1 FROM messages WHERE messages.id = transactions.message_id AND messages.run_id = ?)")
            arguments.append(run)
        }
        let targets = conditions.joined(separator: " AND ")
        // What to learn from and what to categorize first: with either missing, the model is not
        // trained (a ledger with no categorized transaction, a run that a table categorized whole).
        var counts = LearnedCounts()
        let trainer = try pool.read { db -> CategoryModel.Trainer? in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM transactions WHERE \(targets))",
                                    arguments: StatementArguments(arguments)) == true else { return nil }
            return try Self.trainer(db)
        }
        guard let trainer, trainer.count > 0 else { return counts }
        counts.examples = trainer.count
        let model = trainer.model
        // A merchant a person categorized keeps that category (their latest choice): a correction
        // decides the merchant's later transactions outright, whatever the model makes of them.
        let chosen = try personsMerchantCategories()
        return try pool.write { db in
            let now = Self.now()
            // The transactions to categorize a chunk at a time, in id order: memory stays flat
            // however many a run stored.
            var after: Int64 = 0
            while true {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT \(Self.learningColumns) FROM transactions WHERE \(targets) AND id > ? ORDER BY id LIMIT \(Self.learningChunk)
                    """, arguments: StatementArguments(arguments + [after]))
                guard let last = rows.last else { break }
                after = last["id"]
                for row in rows {
                    let id: Int64 = row["id"]
                    let label: CategoryModel.Label
                    let probability: Double
                    if let key = RecurringPayments.merchantKey(row["merchant"] as String? ?? ""), let chosenLabel = chosen[key] {
                        (label, probability) = (chosenLabel, 1)
                    } else if let prediction = model.predict(Self.features(row)) {
                        (label, probability) = (prediction.label, prediction.probability)
                    } else {
                        continue
                    }
                    if probability >= threshold {
                        try db.cachedStatement(sql: """
                            UPDATE transactions SET category = ?, subcategory = ?, category_source = 'rules', category_probability = ?,
                                learned_category = ?, learned_subcategory = ?, learned_probability = ?, updated_at = ?
                            WHERE id = ? AND category_source IS NOT 'user'
                            """).execute(arguments: [label.category, label.subcategory, probability,
                                                     label.category, label.subcategory, probability, now, id])
                        counts.categorized += db.changesCount
                    } else {
                        try db.cachedStatement(sql: """
                            UPDATE transactions SET category = ?, subcategory = NULL, category_probability = NULL,
                                learned_category = ?, learned_subcategory = ?, learned_probability = ?,
                                status = CASE WHEN status = 'ok' THEN 'review' ELSE status END, updated_at = ?
                            WHERE id = ? AND category_source IS NOT 'user'
                            """).execute(arguments: [StoredTransaction.uncategorized, label.category, label.subcategory,
                                                     probability, now, id])
                        counts.forReview += db.changesCount
                    }
                }
            }
            return counts
        }
    }

    /// How many transactions `learnCategories` reads at once.
    static let learningChunk = 2_000

    /// How the model would do on this ledger: k-fold accuracy over its categorized transactions,
    /// a merchant's transactions always in one fold.
    public func evaluateCategoryModel(folds: Int = 5, threshold: Double = CategoryModel.defaultThreshold) throws
        -> CategoryModel.Evaluation
    {
        CategoryModel.evaluate(try categoryExamples().map { ($0.group, $0.example) }, folds: folds, threshold: threshold)
    }

    /// Why a stored transaction has its category: what the model says about it (trained on the
    /// ledger without it, when it is an example itself), with the features that decided.
    public func explainCategory(of id: Int64) throws -> CategoryModel.Prediction? {
        guard let t = try transaction(id: id) else { return nil }
        // The transaction's own example left out: its category is what is being explained.
        let model = CategoryModel(examples: try categoryExamples().filter { $0.id != id }.map(\.example))
        return model.predict(t.modelFeatures)
    }
}

extension Ledger {
    /// The merchants of the ledger's uncategorized primaries (not set by a person), each once, in
    /// order: what is left for a language model to ask about.
    public func uncategorizedMerchants() throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT DISTINCT merchant FROM transactions
                WHERE duplicate_of IS NULL AND merchant IS NOT NULL AND merchant != '' AND category_source IS NOT 'user'
                  AND (category IS NULL OR category = ?)
                ORDER BY merchant
                """, arguments: [StoredTransaction.uncategorized])
        }
    }

    /// Gives `merchant`'s uncategorized transactions (not a person's) the category a decision row
    /// now decides for it (a person's remembered row, a language model's answer); how many changed.
    public func categorize(merchant: String, category: String, subcategory: String?) throws -> Int {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE transactions SET category = ?, subcategory = ?, category_source = 'rules', category_probability = NULL,
                    updated_at = ?
                WHERE merchant = ? AND category_source IS NOT 'user' AND (category IS NULL OR category = ?)
                """, arguments: [category, subcategory, Self.now(), merchant, StoredTransaction.uncategorized])
            return db.changesCount
        }
    }
}
