import Foundation
import GRDB
import SpendlexEngine
import SpendlexRules

extension Ledger {
    /// What categorizing a stored transaction needs to know about it.
    public struct CategoryCandidate: Sendable {
        /// The transaction's row id.
        public let id: Int64
        public let merchant: String?
        public let amount: Decimal?
        public let direction: Direction?
        public let kind: TransactionKind?
        public let bank: String
        public let last4: String?
        public let accountType: String?
    }

    /// A decision to store: the category, subcategory, tags and the deciding row ids.
    public struct StoredCategory: Sendable {
        public var category: String?
        public var subcategory: String?
        public var tags: [String]
        public var rows: [String]

        /// Creates a decision to store.
        public init(category: String?, subcategory: String?, tags: [String] = [], rows: [String] = []) {
            self.category = category
            self.subcategory = subcategory
            self.tags = tags
            self.rows = rows
        }
    }

    /// What `categorize` changed.
    public struct CategorizeCounts: Sendable, Equatable {
        /// Transactions whose category was set or changed.
        public var changed = 0
        /// Transactions looked at whose category stayed the same.
        public var unchanged = 0
        /// Transactions a user categorized by hand, left alone.
        public var keptByUser = 0
    }

    /// Categorizes stored transactions with `decide`: those without a category, or with
    /// `recompute` every one the rules categorized (a category a user set by hand is kept).
    /// The user's own merchant mappings (`addCategoryMapping`) come first; `decide` is asked
    /// about the others. Each deciding row's hit count goes to `mapping_stats`. One SQLite transaction.
    public func categorize(recompute: Bool, decide: (CategoryCandidate) -> StoredCategory?) throws -> CategorizeCounts {
        let mappings = try categoryMappings()
        return try pool.write { db in
            var counts = CategorizeCounts()
            counts.keptByUser = try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions WHERE category_source = 'user'") ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, merchant, amount_value, direction, kind, bank, account_last4, account_type, category,
                       subcategory, tags
                FROM transactions
                WHERE category_source IS NOT 'user' AND (? OR category IS NULL)
                ORDER BY id
                """, arguments: [recompute])
            let now = Self.now()
            for row in rows {
                let candidate = CategoryCandidate(
                    id: row["id"], merchant: row["merchant"], amount: (row["amount_value"] as String?).flatMap { Decimal(string: $0) },
                    direction: (row["direction"] as String?).flatMap(Direction.init(rawValue:)),
                    kind: (row["kind"] as String?).flatMap(TransactionKind.init(rawValue:)),
                    bank: row["bank"], last4: row["account_last4"], accountType: row["account_type"])
                let mapped = mappings.mapping(for: candidate.merchant).map {
                    StoredCategory(category: $0.category, subcategory: $0.subcategory, rows: [$0.rowID])
                }
                guard let decision = mapped ?? decide(candidate) else { continue }
                let tags = decision.tags.isEmpty ? nil : decision.tags.joined(separator: ",")
                if decision.category == row["category"], decision.subcategory == row["subcategory"], tags == row["tags"] {
                    counts.unchanged += 1
                } else {
                    try db.cachedStatement(sql: """
                        UPDATE transactions SET category = ?, subcategory = ?, tags = ?, category_source = 'rules',
                            category_probability = NULL, updated_at = ? WHERE id = ?
                        """).execute(arguments: [decision.category, decision.subcategory, tags, now, candidate.id])
                    counts.changed += 1
                }
                for rowID in decision.rows { try countMappingHit(rowID, now: now, db: db) }
            }
            return counts
        }
    }

    /// Sets a transaction's category by hand: it wins over the rules from then on, through
    /// `categorize --recompute` and `parse --reprocess`. False when there is no such transaction.
    @discardableResult
    public func setCategory(transaction id: Int64, category: String, subcategory: String?) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE transactions SET category = ?, subcategory = ?, category_source = 'user', updated_at = ?
                WHERE id = ?
                """, arguments: [category, subcategory, Self.now(), id])
            return db.changesCount > 0
        }
    }

    /// Hit counts of categorization rows, most used first.
    public func mappingStatistics() throws -> [(row: String, hits: Int)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT row_id, hits FROM mapping_stats ORDER BY hits DESC, row_id")
                .map { ($0["row_id"], $0["hits"]) }
        }
    }
}
