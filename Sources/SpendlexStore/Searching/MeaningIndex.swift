import Foundation
import GRDB
import SpendlexMeaning

/// The ledger's vectors for search by meaning: one per stored message that made a transaction or
/// kept its text, of its *meaning document* (`MeaningDocument`), beside the full-text index.
///
/// Documents repeat (every SWIGGY order of a month reads the same), so a vector is kept once per
/// distinct document (`meaning_vectors`) and each message points at its own (`message_meanings`):
/// the reference corpus's 69,887 transactions are 67 documents, embedded in well under a second.
///
/// Kept in step as the full-text index is (`SearchIndex`): messages above a mark
/// (`meaning_state.embedded_through`) have no vector yet and get one at the next `catchUp` (a
/// search, the end of a batch run, `spendlex reindex`); a message at or below it whose document
/// changes is listed in `meaning_stale`, by triggers on updates and deletions of messages and
/// transactions, and by `Ledger.write` when a transaction is added to it (no insert trigger: a
/// trigger's sub-query on every inserted transaction made storing a million rows much slower, see
/// `LedgerSchema` v9). The full-text index always catches up first, so a message with a vector is
/// in the full-text index too.
enum MeaningIndex {
    static let schema = """
        CREATE TABLE meaning_vectors (
            id INTEGER PRIMARY KEY,
            document TEXT NOT NULL UNIQUE,
            vector BLOB NOT NULL               -- MeaningVector.data: scale (float32 LE) then int8 components
        );
        CREATE TABLE message_meanings (
            message_rowid INTEGER PRIMARY KEY, -- messages.rowid
            vector_id INTEGER NOT NULL         -- meaning_vectors.id
        );
        CREATE INDEX message_meanings_vector ON message_meanings(vector_id);
        CREATE TABLE meaning_stale (message_rowid INTEGER PRIMARY KEY);
        CREATE TABLE meaning_state (embedded_through INTEGER NOT NULL, model TEXT);
        INSERT INTO meaning_state (embedded_through, model) VALUES (0, NULL);
        CREATE TRIGGER meaning_message_changed AFTER UPDATE OF subject, text ON messages
            WHEN new.rowid <= (SELECT embedded_through FROM meaning_state)
            BEGIN INSERT OR IGNORE INTO meaning_stale (message_rowid) VALUES (new.rowid); END;
        CREATE TRIGGER meaning_transaction_changed AFTER UPDATE OF merchant, category, subcategory, note, kind, direction ON transactions
            WHEN (SELECT rowid FROM messages WHERE id = new.message_id) <= (SELECT embedded_through FROM meaning_state)
            BEGIN INSERT OR IGNORE INTO meaning_stale (message_rowid) SELECT rowid FROM messages WHERE id = new.message_id; END;
        CREATE TRIGGER meaning_transaction_removed AFTER DELETE ON transactions
            WHEN (SELECT rowid FROM messages WHERE id = old.message_id) <= (SELECT embedded_through FROM meaning_state)
            BEGIN INSERT OR IGNORE INTO meaning_stale (message_rowid) SELECT rowid FROM messages WHERE id = old.message_id; END;
        """

    /// Lists a message that is gaining a transaction as changed, when it has a vector already.
    static func markChanged(messageID: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO meaning_stale (message_rowid)
            SELECT rowid FROM messages WHERE id = ? AND rowid <= (SELECT embedded_through FROM meaning_state)
            """).execute(arguments: [messageID])
    }

    /// The messages waiting for a vector: those above the mark and those listed as changed, with
    /// their documents now (nil for a message with nothing to embed: ignored, its text not kept).
    struct Pending {
        var documents: [(rowid: Int64, document: String?)]
        var through: Int64
        var model: String?
    }

    static func pending(_ db: Database) throws -> Pending {
        let state = try Row.fetchOne(db, sql: "SELECT embedded_through, model FROM meaning_state")
        let mark: Int64 = state?["embedded_through"] ?? 0
        let last = try Int64.fetchOne(db, sql: "SELECT COALESCE(max(rowid), 0) FROM messages") ?? 0
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.rowid AS rowid, t.id AS transaction_id, t.merchant, t.category, t.subcategory, t.note, t.kind,
                   t.direction, m.subject, m.text
            FROM messages m LEFT JOIN transactions t ON t.message_id = m.id
            WHERE (m.rowid > ? AND m.rowid <= ?) OR m.rowid IN (SELECT message_rowid FROM meaning_stale)
            """, arguments: [mark, last])
        return Pending(documents: rows.map { ($0["rowid"], MeaningDocument(row: $0)?.text) }, through: max(mark, last),
                       model: state?["model"])
    }

    /// Vectors for every pending message: each distinct document not yet embedded is embedded
    /// (`batch` at a time, outside any write transaction, `progress` told after each batch), then
    /// the messages are pointed at them and the mark moved, in one write transaction that first
    /// brings the full-text index up to date. A message whose document changed meanwhile stays
    /// pending. A ledger whose vectors another model made is embedded again whole. Returns how many
    /// documents were embedded.
    @discardableResult
    static func catchUp(_ pool: DatabasePool, embedder: TextEmbedder, batch: Int = 64,
                        progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Int {
        var pending = try pool.read { db in try Self.pending(db) }
        if let model = pending.model, model != embedder.identity {
            try pool.write { db in
                try db.execute(sql: """
                    DELETE FROM message_meanings; DELETE FROM meaning_vectors; DELETE FROM meaning_stale;
                    UPDATE meaning_state SET embedded_through = 0, model = NULL;
                    """)
            }
            pending = try pool.read { db in try Self.pending(db) }
        }
        let wanted = Set(pending.documents.compactMap(\.document))
        let known = try pool.read { db in
            try String.fetchSet(db, sql: "SELECT document FROM meaning_vectors")
        }
        let missing = wanted.subtracting(known).sorted()
        var made: [(document: String, vector: MeaningVector)] = []
        made.reserveCapacity(missing.count)
        progress?(0, missing.count)
        var start = 0
        while start < missing.count {
            let slice = Array(missing[start..<min(missing.count, start + batch)])
            let vectors = try embedder.embed(slice, as: .passage)
            for (document, vector) in zip(slice, vectors) { made.append((document, MeaningVector(vector))) }
            start += slice.count
            progress?(start, missing.count)
        }
        guard !pending.documents.isEmpty || !made.isEmpty || pending.model == nil else { return 0 }
        try pool.write { db in
            try SearchIndex.catchUp(db)
            let insertVector = try db.cachedStatement(sql: "INSERT OR IGNORE INTO meaning_vectors (document, vector) VALUES (?, ?)")
            for (document, vector) in made {
                try insertVector.execute(arguments: [document, vector.data])
            }
            let now = try Self.pending(db)
            let embedded = Dictionary(pending.documents.map { ($0.rowid, $0.document) }, uniquingKeysWith: { $1 })
            let link = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO message_meanings (message_rowid, vector_id)
                SELECT ?, id FROM meaning_vectors WHERE document = ?
                """)
            let unlink = try db.cachedStatement(sql: "DELETE FROM message_meanings WHERE message_rowid = ?")
            let done = try db.cachedStatement(sql: "DELETE FROM meaning_stale WHERE message_rowid = ?")
            var changed: [Int64] = []
            for (rowid, document) in now.documents {
                // Changed between the read and this write: stays (or becomes) pending.
                guard let before = embedded[rowid], before == document else {
                    changed.append(rowid)
                    continue
                }
                if let document { try link.execute(arguments: [rowid, document]) } else { try unlink.execute(arguments: [rowid]) }
                try done.execute(arguments: [rowid])
            }
            try db.execute(sql: "UPDATE meaning_state SET embedded_through = ?, model = ?",
                           arguments: [now.through, embedder.identity])
            let markStale = try db.cachedStatement(sql: "INSERT OR IGNORE INTO meaning_stale (message_rowid) VALUES (?)")
            for rowid in changed { try markStale.execute(arguments: [rowid]) }
            // A document no message reads any more (a merchant renamed everywhere) is dropped.
            try db.execute(sql: "DELETE FROM meaning_vectors WHERE id NOT IN (SELECT vector_id FROM message_meanings)")
        }
        return made.count
    }
}

/// What a message means, in the few words the embedding model reads: for a transaction its
/// merchant, category, kind (unless a purchase), "received" for money in, and the person's note
/// ("SWIGGY. Food & Dining / Food Delivery", "ACME LTD. Income / Salary. salary, received"); for a message with no transaction, its subject and the start of its
/// text with the figures taken out. Amounts, dates, accounts and references are left to the
/// full-text index: they carry no meaning to compare, and leaving them out is what makes the
/// documents of a merchant's transactions one document.
struct MeaningDocument: Equatable {
    /// The words embedded.
    let text: String

    /// How many words of a message's text a document keeps (the model reads 512 tokens, and the
    /// first sentence or two say what a message is about).
    static let textWords = 40

    init?(row: Row) {
        let transactionID: Int64? = row["transaction_id"]
        if transactionID != nil {
            var parts: [String] = []
            if let merchant = (row["merchant"] as String?).flatMap(Self.clean) { parts.append(merchant) }
            let category = [row["category"] as String?, row["subcategory"] as String?].compactMap { $0.flatMap(Self.clean) }
            if !category.isEmpty { parts.append(category.joined(separator: " / ")) }
            // The kind and direction only where they say something a category may not: a purchase
            // paid is what most transactions are, and the words only blur the merchant's meaning
            // (measured on the labelled queries' development part).
            var how: [String] = []
            if let kind = (row["kind"] as String?).flatMap(Self.clean), kind != "purchase" {
                how.append(kind.replacingOccurrences(of: "_", with: " "))
            }
            if row["direction"] as String? == "credit" { how.append("received") }
            if !how.isEmpty { parts.append(how.joined(separator: ", ")) }
            if let note = (row["note"] as String?).flatMap(Self.clean) { parts.append(note) }
            guard !parts.isEmpty else { return nil }
            text = parts.joined(separator: ". ")
        } else {
            let subject = (row["subject"] as String?).flatMap(Self.clean)
            let body = (row["text"] as String?).flatMap(Self.clean).map(Self.withoutFigures)
            let words = [subject, body].compactMap { $0 }.joined(separator: ". ")
                .split(whereSeparator: \.isWhitespace).prefix(Self.textWords)
            guard !words.isEmpty else { return nil }
            text = words.joined(separator: " ")
        }
    }

    /// Trimmed, with runs of white space as one space; nil when nothing is left.
    static func clean(_ text: String) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// Every run of digits (with the separators inside a figure) as "#": "Rs 1,250.00 on 12/03"
    /// reads "Rs # on #", so that two alerts of one kind are one document.
    static func withoutFigures(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var inFigure = false
        var pendingSeparator: Character?
        for character in text {
            if character.isNumber {
                if !inFigure { out.append("#"); inFigure = true }
                pendingSeparator = nil
            } else if inFigure, pendingSeparator == nil, ",./:-".contains(character) {
                pendingSeparator = character
            } else {
                if let separator = pendingSeparator { out.append(separator); pendingSeparator = nil }
                inFigure = false
                out.append(character)
            }
        }
        if let separator = pendingSeparator { out.append(separator) }
        return out
    }
}
