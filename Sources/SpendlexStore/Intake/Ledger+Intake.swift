import Foundation
import GRDB
import SpendlexEngine

/// What storing one message did to the ledger.
public enum MessageStoreOutcome: Sendable, Equatable {
    /// The message gave a new transaction, stored with this ledger id (it may be linked to an
    /// earlier alert about the same money: read its `duplicateOf`).
    case transaction(id: Int64)
    /// The message was in the ledger already (same message id): nothing was added. `status` is
    /// what it ended as then, `transactionID` the transaction it gave, if any.
    case alreadyStored(status: MessageRecord.Status, transactionID: Int64?)
    /// A message that is no transaction (ignored, unmatched, error), recorded as such.
    case recorded
}

extension Ledger {
    /// Stores one message, as a run of one: its record, and its transaction linked to the
    /// transactions it duplicates. A message already in the ledger adds nothing and says so,
    /// unless it was unmatched or an error then and gives a transaction now (the rules were
    /// fixed since): then its record is updated and the transaction added.
    public func store(_ record: MessageRecord) throws -> MessageStoreOutcome {
        var counts = try write([record], run: nil)
        // Ignored messages stay ignored: an ignore rule's, or a transaction the user deleted.
        let retry: Set<String> = [MessageRecord.Status.unmatched.rawValue, MessageRecord.Status.error.rawValue]
        if counts.messages == 0, record.transaction != nil, try retry.contains(pool.read({ db in
            try String.fetchOne(db, sql: "SELECT status FROM messages WHERE id = ?", arguments: [record.id]) ?? ""
        })) {
            counts = try write([record], run: nil, reprocess: true)
        }
        return try pool.read { db in
            let transactionID = try Int64.fetchOne(db, sql: "SELECT id FROM transactions WHERE message_id = ?",
                                                   arguments: [record.id])
            guard counts.messages == 1 else {
                let status = try String.fetchOne(db, sql: "SELECT status FROM messages WHERE id = ?", arguments: [record.id])
                return .alreadyStored(status: status.flatMap(MessageRecord.Status.init(rawValue:)) ?? .error,
                                      transactionID: transactionID)
            }
            if record.transaction != nil, let transactionID { return .transaction(id: transactionID) }
            return .recorded
        }
    }

    /// The stored transaction with this ledger id, duplicate or not; nil when there is none.
    public func transaction(id: Int64) throws -> StoredTransaction? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(Self.transactionColumns) FROM transactions WHERE id = ?
                """, arguments: [id]).map(Self.storedTransaction)
        }
    }

    /// The ledger ids of the transactions linked to `id` as its duplicates, oldest first.
    public func duplicates(of id: Int64) throws -> [Int64] {
        try pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM transactions WHERE duplicate_of = ? ORDER BY id", arguments: [id])
        }
    }
}
