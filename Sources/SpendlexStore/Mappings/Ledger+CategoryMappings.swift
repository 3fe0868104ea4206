import Foundation
import GRDB
import SpendlexEngine

extension Ledger {
    /// Adds a user's merchant-to-category mapping, or replaces the one for the same merchant
    /// (compared folded). Returns it. The category is not checked here: the caller checks it
    /// against the declared categories.
    public func addCategoryMapping(merchant given: String, category: String, subcategory: String?) throws -> CategoryMapping {
        let merchant = CardNumberMasker.mask(given)
        return try pool.write { db in
            try db.execute(sql: """
                INSERT INTO category_mappings (merchant, merchant_key, category, subcategory, created_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (merchant_key) DO UPDATE SET merchant = excluded.merchant, category = excluded.category,
                    subcategory = excluded.subcategory
                """, arguments: [merchant, CategoryMapping.key(merchant), category, subcategory, Self.now()])
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM category_mappings WHERE merchant_key = ?",
                                        arguments: [CategoryMapping.key(merchant)]) ?? db.lastInsertedRowID
            return CategoryMapping(id: id, merchant: merchant, category: category, subcategory: subcategory)
        }
    }

    /// The user's mappings, oldest first.
    public func categoryMappings() throws -> [CategoryMapping] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, merchant, category, subcategory FROM category_mappings ORDER BY id").map {
                CategoryMapping(id: $0["id"], merchant: $0["merchant"], category: $0["category"], subcategory: $0["subcategory"])
            }
        }
    }

    /// Deletes a mapping; false when there is none with this id.
    @discardableResult
    public func deleteCategoryMapping(id: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM category_mappings WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}
