import GRDB

/// The ledger's full-text index: SQLite FTS5 over every stored message with its transaction's
/// merchant, category and note (the ManageMe design: what a person remembers of a payment is a
/// word of its merchant, its note or its text, and the answer must cite where it came from).
///
/// The index holds no copy of the text: it is an external-content FTS5 table over the view
/// `search_documents` (one row per message, rowid the message's). Messages enter it in bulk,
/// by `catchUp`: every message whose rowid is above `search_state.indexed_through`, read from
/// the view as it is then. Storing a batch run's messages one by one through triggers took three
/// times as long as storing them (100,000 messages of the reference corpus: 8.7 s against
/// 2.7 s); in one statement at the next search, 1.1 s. A message already indexed is kept in
/// step by triggers on `messages` and on updates and deletions of `transactions`, which take its
/// old words out before a change and put the new ones in after, and by `takeOut` and `restore` when a
/// transaction is added to it (a reparse); messages not yet indexed are left alone (the view gives
/// their current words when they are). Rowids only grow (no message is ever deleted: a
/// deleted transaction's message stays, ignored), so "above the mark" is exactly "not indexed".
/// `INSERT INTO search_index (search_index) VALUES ('integrity-check')` checks the index.
enum SearchIndex {
    /// The indexed columns, in the index's order: `bm25` weights and snippets refer to them by position.
    static let columns = ["merchant", "category", "note", "subject", "text", "sender"]

    /// How much a hit in each column counts (bm25 weights, in `columns`' order): a merchant or a
    /// person's note names the payment; a word of the message's text may be any word.
    static let weights = [10.0, 4.0, 6.0, 2.0, 1.0, 1.0]

    /// The view, the index, its mark and its triggers; the index built from what the ledger holds.
    static var schema: String {
        let list = columns.joined(separator: ", ")
        func add(_ rowid: String) -> String {
            "INSERT INTO search_index (rowid, \(list)) SELECT rowid, \(list) FROM search_documents WHERE rowid = \(rowid);"
        }
        func remove(_ rowid: String) -> String {
            "INSERT INTO search_index (search_index, rowid, \(list)) SELECT 'delete', rowid, \(list) FROM search_documents WHERE rowid = \(rowid);"
        }
        // A message's rowid when it is in the index; NULL (so the trigger does nothing) when it is
        // not yet, or when a transaction is written before its message.
        let indexed = "<= (SELECT indexed_through FROM search_state)"
        let messageOf = { (row: String) in "(SELECT rowid FROM messages WHERE id = \(row).message_id)" }
        // A transaction never moves to another message: its message_id is not watched.
        let watched = "merchant, category, subcategory, note"
        return """
            CREATE VIEW search_documents AS
                SELECT m.rowid AS rowid, t.merchant AS merchant,
                       trim(COALESCE(t.category, '') || ' ' || COALESCE(t.subcategory, '')) AS category,
                       t.note AS note, m.subject AS subject, m.text AS text, m.sender AS sender
                FROM messages m LEFT JOIN transactions t ON t.message_id = m.id;
            CREATE VIRTUAL TABLE search_index USING fts5(
                \(list), content = 'search_documents', content_rowid = 'rowid',
                tokenize = 'unicode61 remove_diacritics 2');
            CREATE TABLE search_state (indexed_through INTEGER NOT NULL);
            INSERT INTO search_state (indexed_through) SELECT COALESCE(max(rowid), 0) FROM messages;
            INSERT INTO search_index (search_index) VALUES ('rebuild');
            CREATE TRIGGER search_message_changing BEFORE UPDATE OF subject, text, sender ON messages
                WHEN old.rowid \(indexed) BEGIN \(remove("old.rowid")) END;
            CREATE TRIGGER search_message_changed AFTER UPDATE OF subject, text, sender ON messages
                WHEN new.rowid \(indexed) BEGIN \(add("new.rowid")) END;
            CREATE TRIGGER search_message_removed BEFORE DELETE ON messages
                WHEN old.rowid \(indexed) BEGIN \(remove("old.rowid")) END;
            CREATE TRIGGER search_transaction_adding BEFORE INSERT ON transactions
                WHEN \(messageOf("new")) \(indexed) BEGIN \(remove(messageOf("new"))) END;
            CREATE TRIGGER search_transaction_added AFTER INSERT ON transactions
                WHEN \(messageOf("new")) \(indexed) BEGIN \(add(messageOf("new"))) END;
            CREATE TRIGGER search_transaction_changing BEFORE UPDATE OF \(watched) ON transactions
                WHEN \(messageOf("old")) \(indexed) BEGIN \(remove(messageOf("old"))) END;
            CREATE TRIGGER search_transaction_changed AFTER UPDATE OF \(watched) ON transactions
                WHEN \(messageOf("new")) \(indexed) BEGIN \(add(messageOf("new"))) END;
            CREATE TRIGGER search_transaction_removing BEFORE DELETE ON transactions
                WHEN \(messageOf("old")) \(indexed) BEGIN \(remove(messageOf("old"))) END;
            CREATE TRIGGER search_transaction_removed AFTER DELETE ON transactions
                WHEN \(messageOf("old")) \(indexed) BEGIN \(add(messageOf("old"))) END;
            """
    }

    /// Whether the message with this id is in the full-text index (at or below its mark) and
    /// whether it has a vector (at or below `MeaningIndex`'s): one look-up for both, made for
    /// every transaction a batch writes.
    static func isIndexed(messageID: String, _ db: Database) throws -> (words: Bool, meaning: Bool) {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT m.rowid <= s.indexed_through, m.rowid <= v.embedded_through
            FROM messages m, search_state s, meaning_state v WHERE m.id = ?
            """), arguments: [messageID]) else { return (false, false) }
        return (row[0], row[1])
    }

    /// Takes an indexed message's words out of the index (its document as the view gives it now),
    /// before a transaction is added to it; `restore` puts them back with the transaction's after.
    static func takeOut(messageID: String, _ db: Database) throws {
        let list = columns.joined(separator: ", ")
        try db.cachedStatement(sql: """
            INSERT INTO search_index (search_index, rowid, \(list))
            SELECT 'delete', rowid, \(list) FROM search_documents WHERE rowid = (SELECT rowid FROM messages WHERE id = ?)
            """).execute(arguments: [messageID])
    }

    /// Puts a message's words (with its transaction's) into the index: after `takeOut`.
    static func restore(messageID: String, _ db: Database) throws {
        let list = columns.joined(separator: ", ")
        try db.cachedStatement(sql: """
            INSERT INTO search_index (rowid, \(list))
            SELECT rowid, \(list) FROM search_documents WHERE rowid = (SELECT rowid FROM messages WHERE id = ?)
            """).execute(arguments: [messageID])
    }

    /// Adds every message not yet in the index (above the mark), with its transaction's words, and
    /// moves the mark to the last message. Call it inside a write transaction.
    static func catchUp(_ db: Database) throws {
        let list = columns.joined(separator: ", ")
        guard let mark = try Int64.fetchOne(db, sql: "SELECT indexed_through FROM search_state"),
              let last = try Int64.fetchOne(db, sql: "SELECT COALESCE(max(rowid), 0) FROM messages"), last > mark else { return }
        try db.execute(sql: """
            INSERT INTO search_index (rowid, \(list)) SELECT rowid, \(list) FROM search_documents WHERE rowid > ? AND rowid <= ?
            """, arguments: [mark, last])
        try db.execute(sql: "UPDATE search_state SET indexed_through = ?", arguments: [last])
    }
}

extension Ledger {
    /// Adds the messages not yet in the search index (those a batch run stored, or a run killed
    /// before its end left). `search` does this first; a batch run does it at its end.
    public func updateSearchIndex() throws {
        try pool.write { db in try SearchIndex.catchUp(db) }
    }
}
