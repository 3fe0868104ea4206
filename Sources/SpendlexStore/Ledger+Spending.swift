import Foundation
import GRDB
import SpendlexEngine

extension Ledger: CardSpendingSource {
    /// Debits on cards ending in `last4` dated from `start` through `end`, summed by category,
    /// subcategory and merchant, for the card advisor's caps. Duplicates count once (their
    /// primary); refunds and credits do not reduce the sum. A NULL category is uncategorized.
    /// Sums are exact decimals, added here rather than by SQLite's floating-point `sum`.
    public func spending(last4: String, from start: LocalDate, through end: LocalDate) throws -> [SpendingTotal] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT category, subcategory, merchant, amount_value
                FROM transactions
                WHERE account_last4 = ? AND direction = 'debit' AND duplicate_of IS NULL
                  AND date >= ? AND date <= ? AND amount_value IS NOT NULL
                ORDER BY id
                """, arguments: [last4, start.description, end.description])
            var totals: [String: SpendingTotal] = [:]
            var order: [String] = []
            for row in rows {
                guard let amount = (row["amount_value"] as String?).flatMap({ Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) })
                else { continue }
                let category: String? = row["category"]
                let subcategory: String? = row["subcategory"]
                let merchant: String? = row["merchant"]
                let key = [category ?? "", subcategory ?? "", merchant ?? ""].joined(separator: "\u{1F}")
                if totals[key] == nil {
                    order.append(key)
                    totals[key] = SpendingTotal(category: category, subcategory: subcategory, merchant: merchant, amount: 0)
                }
                totals[key]!.amount += amount
            }
            return order.map { totals[$0]! }
        }
    }
}
