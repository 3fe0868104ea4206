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

    private struct TransactionKey: Hashable {
        let merchant, category, subcategory, note, kind, direction: String?
        init(_ f: MeaningDocument.TransactionFields) {
            (merchant, category, subcategory, note, kind, direction) = (f.merchant, f.category, f.subcategory, f.note, f.kind, f.direction)
        }
    }

    static func pending(_ db: Database) throws -> Pending {
        let state = try Row.fetchOne(db, sql: "SELECT embedded_through, model FROM meaning_state")
        let mark: Int64 = state?["embedded_through"] ?? 0
        let last = try Int64.fetchOne(db, sql: "SELECT COALESCE(max(rowid), 0) FROM messages") ?? 0
        // Above the mark only messages with something to embed (an ignored one kept no text);
        // a changed one below it whatever it now holds, so that a vector it no longer has goes.
        // Columns by position: a hundred thousand rows read by name took most of a catch-up's time.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT m.rowid, t.id IS NOT NULL, t.merchant, t.category, t.subcategory, t.note, t.kind, t.direction,
                   m.subject, m.text
            FROM messages m LEFT JOIN transactions t ON t.message_id = m.id
            WHERE (m.rowid > ? AND m.rowid <= ? AND (t.id IS NOT NULL OR m.text IS NOT NULL))
               OR m.rowid IN (SELECT message_rowid FROM meaning_stale)
            """, arguments: [mark, last])
        var documents: [(rowid: Int64, document: String?)] = []
        // A merchant's transactions repeat the same fields: each distinct set is made into a document once.
        var made: [TransactionKey: String?] = [:]
        while let row = try rows.next() {
            let document: String?
            if row[1] {
                let fields = MeaningDocument.TransactionFields(merchant: row[2], category: row[3], subcategory: row[4],
                                                               note: row[5], kind: row[6], direction: row[7])
                let key = TransactionKey(fields)
                if let known = made[key] {
                    document = known
                } else {
                    document = MeaningDocument(transaction: fields, subject: nil, text: nil)?.text
                    made[key] = document
                }
            } else {
                document = MeaningDocument(transaction: nil, subject: row[8], text: row[9])?.text
            }
            documents.append((row[0], document))
        }
        return Pending(documents: documents, through: max(mark, last), model: state?["model"])
    }

    /// What tells whether the ledger was written since: the writer connection's count of changed
    /// rows (every write of this process goes through it) and SQLite's data version (which moves
    /// when another process commits).
    struct WriteStamp: Equatable {
        let changes: Int
        let dataVersion: Int
        init(_ db: Database) throws {
            changes = db.totalChangesCount
            dataVersion = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
    }

    /// The pending messages, read on the writer connection (outside a transaction) with its stamp.
    static func readPending(_ pool: DatabasePool) throws -> (Pending, WriteStamp) {
        try pool.writeWithoutTransaction { db in (try Self.pending(db), try WriteStamp(db)) }
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
        var (pending, stamp) = try Self.readPending(pool)
        if let model = pending.model, model != embedder.identity {
            try pool.write { db in
                try db.execute(sql: """
                    DELETE FROM message_meanings; DELETE FROM meaning_vectors; DELETE FROM meaning_stale;
                    UPDATE meaning_state SET embedded_through = 0, model = NULL;
                    """)
            }
            (pending, stamp) = try Self.readPending(pool)
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
            // Read again only if anything was written since (a message whose document changed
            // meanwhile stays pending, listed as changed); else what was read is what is here.
            let now = try WriteStamp(db) == stamp ? pending : try Self.pending(db)
            try SearchIndex.catchUp(db)
            let insertVector = try db.cachedStatement(sql: "INSERT OR IGNORE INTO meaning_vectors (document, vector) VALUES (?, ?)")
            for (document, vector) in made {
                try insertVector.execute(arguments: [document, vector.data])
            }
            let embedded = Dictionary(pending.documents.map { ($0.rowid, $0.document) }, uniquingKeysWith: { $1 })
            var vectorIDs: [String: Int64] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, document FROM meaning_vectors")
            while let row = try rows.next() { vectorIDs[row["document"]] = row["id"] }
            let link = try db.cachedStatement(sql: "INSERT OR REPLACE INTO message_meanings (message_rowid, vector_id) VALUES (?, ?)")
            let unlink = try db.cachedStatement(sql: "DELETE FROM message_meanings WHERE message_rowid = ?")
            var changed: [Int64] = []
            for (rowid, document) in now.documents {
                guard let before = embedded[rowid], before == document else {
                    changed.append(rowid)
                    continue
                }
                if let document, let id = vectorIDs[document] {
                    try link.execute(arguments: [rowid, id])
                } else {
                    try unlink.execute(arguments: [rowid])
                }
            }
            try db.execute(sql: "DELETE FROM meaning_stale")
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
/// merchant (its figures taken out), category, kind (unless a purchase), "received" for money in, and the person's note
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

    /// The fields of a transaction a document is made of.
    struct TransactionFields {
        var merchant, category, subcategory, note, kind, direction: String?
    }

    init?(transaction: TransactionFields?, subject: String?, text: String?) {
        if let transaction {
            var parts: [String] = []
            // A merchant's figures are a store's number, a terminal or an account ("a/c **9813"): without
            // them a hundred thousand SMS are 143 documents, not 1,326 (`spendlex-corpus sms`).
            if let merchant = transaction.merchant.flatMap(Self.clean) { parts.append(Self.withoutFigures(merchant)) }
            let category = [transaction.category, transaction.subcategory].compactMap { $0.flatMap(Self.clean) }
            if !category.isEmpty { parts.append(category.joined(separator: " / ")) }
            // The kind and direction only where they say something a category may not: a purchase
            // paid is what most transactions are, and the words only blur the merchant's meaning
            // (measured on the labelled queries' development part).
            var how: [String] = []
            if let kind = transaction.kind.flatMap(Self.clean), kind != "purchase" {
                how.append(kind.replacingOccurrences(of: "_", with: " "))
            }
            if transaction.direction == "credit" { how.append("received") }
            if !how.isEmpty { parts.append(how.joined(separator: ", ")) }
            if let note = transaction.note.flatMap(Self.clean) { parts.append(note) }
            guard !parts.isEmpty else { return nil }
            self.text = parts.joined(separator: ". ")
        } else {
            // Only the first words are needed: the text is cut before its figures are taken out.
            let start = text.map { String($0.prefix(Self.textWords * 12)) }
            let body = start.flatMap(Self.clean).map(Self.withoutFigures)
            let words = [subject.flatMap(Self.clean), body].compactMap { $0 }.joined(separator: ". ")
                .split(whereSeparator: \.isWhitespace).prefix(Self.textWords)
            guard !words.isEmpty else { return nil }
            self.text = words.joined(separator: " ")
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
        // Unicode scalars, not Characters: a digit of any script ("१२३") is a figure, and
        // grapheme breaking cost more than the rest of building a hundred thousand documents.
        var out = String.UnicodeScalarView()
        var inFigure = false
        var pendingSeparator: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType != nil {
                if !inFigure { out.append("#"); inFigure = true }
                pendingSeparator = nil
            } else if inFigure, pendingSeparator == nil, ",./:-".unicodeScalars.contains(scalar) {
                pendingSeparator = scalar
            } else {
                if let separator = pendingSeparator { out.append(separator); pendingSeparator = nil }
                inFigure = false
                out.append(scalar)
            }
        }
        if let separator = pendingSeparator { out.append(separator) }
        return String(out)
    }
}
