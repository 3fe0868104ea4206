import Foundation
import GRDB
import SpendlexEngine

/// A user's change to one transaction: each field given is set, the others are left alone.
public struct TransactionEdit: Sendable, Equatable {
    /// A new category and subcategory (nil subcategory: none), set by hand: kept over the rules
    /// from then on.
    public var category: (name: String, subcategory: String?)?
    /// A new note; `.some(nil)` removes it.
    public var note: String??
    /// A new merchant, set by hand: kept over the parser's from then on.
    public var merchant: String?
    /// True: the transaction duplicates nothing. Its link to a primary is undone, and no later run
    /// links it again.
    public var notDuplicate = false

    /// An edit; nothing changes unless told.
    public init(category: (name: String, subcategory: String?)? = nil, note: String?? = nil, merchant: String? = nil,
                notDuplicate: Bool = false) {
        self.category = category
        self.note = note
        self.merchant = merchant
        self.notDuplicate = notDuplicate
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { category == nil && note == nil && merchant == nil && !notDuplicate }

    public static func == (a: TransactionEdit, b: TransactionEdit) -> Bool {
        a.category?.name == b.category?.name && a.category?.subcategory == b.category?.subcategory && a.note == b.note
            && a.merchant == b.merchant && a.notDuplicate == b.notDuplicate
    }
}

extension Ledger {
    /// Applies a user's edit to a transaction; false when there is no such transaction. A
    /// category or merchant set here is the user's (`category_source`, `merchant_source` =
    /// 'user'), kept through later categorizing and reparsing; a transaction said to duplicate
    /// nothing is unlinked and stays so (`not_duplicate`).
    @discardableResult
    public func edit(transaction id: Int64, _ edit: TransactionEdit) throws -> Bool {
        try pool.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions WHERE id = ?", arguments: [id]) == 1 else {
                return false
            }
            let now = Self.now()
            if let category = edit.category {
                try db.execute(sql: """
                    UPDATE transactions SET category = ?, subcategory = ?, category_source = 'user', updated_at = ?
                    WHERE id = ?
                    """, arguments: [category.name, category.subcategory, now, id])
            }
            if let merchant = edit.merchant {
                try db.execute(sql: "UPDATE transactions SET merchant = ?, merchant_source = 'user', updated_at = ? WHERE id = ?",
                               arguments: [CardNumberMasker.mask(merchant), now, id])
            }
            if edit.notDuplicate {
                try db.execute(sql: """
                    UPDATE transactions SET duplicate_of = NULL, duplicate_reason = NULL, not_duplicate = 1, updated_at = ?
                    WHERE id = ?
                    """, arguments: [now, id])
            }
            if let note = edit.note {
                try db.execute(sql: "UPDATE transactions SET note = ?, updated_at = ? WHERE id = ?", arguments: [note.map(CardNumberMasker.mask), now, id])
            }
            return true
        }
    }

    /// Deletes a transaction a user says is none (a test alert, a declined payment): a duplicate
    /// of it takes its place as the primary, and its message stays in the ledger as ignored
    /// "deleted by the user", so that reading the message again does not bring it back.
    /// False when there is no such transaction.
    @discardableResult
    public func delete(transaction id: Int64) throws -> Bool {
        try pool.write { db in
            guard let messageID = try String.fetchOne(db, sql: "SELECT message_id FROM transactions WHERE id = ?",
                                                      arguments: [id]) else { return false }
            try remove(id, db: db)
            try db.execute(sql: """
                UPDATE messages SET status = 'ignored', reason = 'deleted by the user', processed_at = ? WHERE id = ?
                """, arguments: [Self.now(), messageID])
            return true
        }
    }
}
