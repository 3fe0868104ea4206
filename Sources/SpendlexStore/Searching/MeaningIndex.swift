import Foundation
import GRDB
import SpendlexMeaning

/// The ledger's vectors for search by meaning: one per stored transaction, of its *meaning
/// document* (`MeaningDocument`), beside the full-text index.
///
/// Documents repeat (every SWIGGY order reads the same), so a vector is kept once per distinct
/// document (`meaning_vectors`) and each transaction's message points at its own
/// (`message_meanings`): 100,000 SMS of a phone's history are 71 documents, the reference corpus's
/// 69,887 transactions 67.
///
/// Messages without a transaction get no vector: they are found by their words. Their texts are
/// each their own document (a promotion, a failed parse, a personal mail): the reference corpus's
/// 5,063 unmatched mails took two minutes to embed at the end of a `parse --store` that otherwise
/// takes eight seconds.
///
/// Kept in step as the full-text index is (`SearchIndex`): messages above a mark
/// (`meaning_state.embedded_through`) have no vector yet and get one at the next `catchUp` (a
/// search, the end of a batch run, `spendlex reindex`); a message at or below it whose document
/// changes is listed in `meaning_stale`, by triggers on updates and deletions of transactions, and
/// by `Ledger.write` when a transaction is added to it (no insert trigger: a trigger's sub-query on
/// every inserted transaction made storing a million rows much slower, see `LedgerSchema` v9;
/// `Ledger.write` asks both marks in the one look-up it made for the full-text index). The two
/// indexes catch up apart: words at the next search (a second per 100,000 e-mails), vectors also
/// at the end of a batch run.
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
        -- version: moved by every change to meaning_vectors, so that a search's scanned copy
        -- (MeaningMatrixCache) is known stale without reading the vectors
        CREATE TABLE meaning_state (embedded_through INTEGER NOT NULL, model TEXT, version INTEGER NOT NULL DEFAULT 0);
        INSERT INTO meaning_state (embedded_through, model) VALUES (0, NULL);
        CREATE TRIGGER meaning_transaction_changed AFTER UPDATE OF merchant, category, subcategory, note, kind, direction ON transactions
            WHEN (SELECT rowid FROM messages WHERE id = new.message_id) <= (SELECT embedded_through FROM meaning_state)
            BEGIN INSERT OR IGNORE INTO meaning_stale (message_rowid) SELECT rowid FROM messages WHERE id = new.message_id; END;
        CREATE TRIGGER meaning_transaction_removed AFTER DELETE ON transactions
            WHEN (SELECT rowid FROM messages WHERE id = old.message_id) <= (SELECT embedded_through FROM meaning_state)
            BEGIN INSERT OR IGNORE INTO meaning_stale (message_rowid) SELECT rowid FROM messages WHERE id = old.message_id; END;
        """

    /// Lists a message that has a vector (`SearchIndex.isIndexed` said so) and is gaining a
    /// transaction as changed.
    static func markChanged(messageID: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO meaning_stale (message_rowid) SELECT rowid FROM messages WHERE id = ?
            """).execute(arguments: [messageID])
    }

    /// The messages waiting for a vector, up to `span` rowids above the mark (so that a million
    /// imported rows are taken a slice at a time, in bounded memory), and those listed as changed,
    /// with their documents now (nil for one that has no transaction any more).
    struct Pending {
        var documents: [(rowid: Int64, document: String?)]
        /// The mark once these are done.
        var through: Int64
        /// The last message's rowid: done when `through` reaches it.
        var last: Int64
        /// The mark before.
        var mark: Int64
        var model: String?
    }

    static func pending(_ db: Database, span: Int64) throws -> Pending {
        let state = try Row.fetchOne(db, sql: "SELECT embedded_through, model FROM meaning_state")
        let mark: Int64 = state?["embedded_through"] ?? 0
        let last = try Int64.fetchOne(db, sql: "SELECT COALESCE(max(rowid), 0) FROM messages") ?? 0
        let through = min(last, mark + span)
        // Above the mark only messages with a transaction; a changed one below it whatever it
        // now holds, so that a vector it no longer has goes. Columns by position: a hundred
        // thousand rows read by name took most of a catch-up's time.
        // Two statements: with an OR between the rowid range and the list, SQLite scanned every
        // message for each slice (a million imported rows: 20 slices, 20 scans).
        let columns = "m.rowid, t.id IS NOT NULL, t.merchant, t.category, t.subcategory, t.note, t.kind, t.direction"
        let join = "FROM messages m LEFT JOIN transactions t ON t.message_id = m.id"
        var documents: [(rowid: Int64, document: String?)] = []
        // A merchant's transactions repeat the same fields: each distinct set is made into a document once.
        var made: [MeaningDocument.TransactionFields: String?] = [:]
        func read(_ rows: RowCursor) throws {
            while let row = try rows.next() {
                let document: String?
                if row[1] {
                    let fields = MeaningDocument.TransactionFields(merchant: row[2], category: row[3], subcategory: row[4],
                                                                   note: row[5], kind: row[6], direction: row[7])
                    if let known = made[fields] {
                        document = known
                    } else {
                        document = MeaningDocument(fields)?.text
                        made[fields] = document
                    }
                } else {
                    document = nil
                }
                documents.append((row[0], document))
            }
        }
        try read(Row.fetchCursor(db, sql: """
            SELECT \(columns) \(join) WHERE m.rowid IN (SELECT message_rowid FROM meaning_stale) AND m.rowid <= ?
            """, arguments: [mark]))
        try read(Row.fetchCursor(db, sql: """
            SELECT \(columns) \(join) WHERE m.rowid > ? AND m.rowid <= ? AND t.id IS NOT NULL
            """, arguments: [mark, through]))
        return Pending(documents: documents, through: max(mark, through), last: last, mark: mark, model: state?["model"])
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

    /// The pending messages of the next slice, read on the writer connection (outside a
    /// transaction) with its stamp.
    static func readPending(_ pool: DatabasePool, span: Int64) throws -> (Pending, WriteStamp) {
        try pool.writeWithoutTransaction { db in (try Self.pending(db, span: span), try WriteStamp(db)) }
    }

    /// Vectors for every pending message, a slice of `span` messages at a time: each distinct
    /// document not yet embedded is embedded (`batch` at a time, outside any write transaction),
    /// then the slice's messages are pointed at them and the mark moved, in one write transaction.
    /// A message whose document changed meanwhile stays pending. A ledger whose vectors another model made is embedded again whole.
    /// `progress` is told the messages done of those to do. Returns how many documents were embedded.
    @discardableResult
    static func catchUp(_ pool: DatabasePool, embedder: TextEmbedder, batch: Int = 64, span: Int64 = 50_000,
                        progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Int {
        let model = try pool.read { db in try String.fetchOne(db, sql: "SELECT model FROM meaning_state") }
        if let model, model != embedder.identity {
            try pool.write { db in
                try db.execute(sql: """
                    DELETE FROM message_meanings; DELETE FROM meaning_vectors; DELETE FROM meaning_stale;
                    UPDATE meaning_state SET embedded_through = 0, model = NULL, version = version + 1;
                    """)
            }
        }
        var embedded = 0
        var first = true
        var start: Int64?
        while true {
            let (pending, stamp) = try Self.readPending(pool, span: span)
            let origin = start ?? pending.mark
            start = origin
            progress?(Int(pending.mark - origin), Int(pending.last - origin))
            guard first || pending.through > pending.mark else { break }
            embedded += try catchUp(pending, stamp: stamp, pool: pool, embedder: embedder, batch: batch)
            first = false
            if pending.through >= pending.last {
                progress?(Int(pending.last - origin), Int(pending.last - origin))
                break
            }
        }
        return embedded
    }

    /// One slice of `catchUp`.
    private static func catchUp(_ pending: Pending, stamp: WriteStamp, pool: DatabasePool, embedder: TextEmbedder,
                                batch: Int) throws -> Int {
        let wanted = Set(pending.documents.compactMap(\.document))
        // Only the slice's own documents are looked up: reading every stored document cost a
        // search over 100,000 distinct ones 40 ms even with nothing to embed.
        let known = try pool.read { db in
            let find = try db.cachedStatement(sql: "SELECT 1 FROM meaning_vectors WHERE document = ?")
            return try Set(wanted.filter { try Bool.fetchOne(find, arguments: [$0]) ?? false })
        }
        let missing = wanted.subtracting(known).sorted()
        var made: [(document: String, vector: MeaningVector)] = []
        made.reserveCapacity(missing.count)
        var start = 0
        while start < missing.count {
            let slice = Array(missing[start..<min(missing.count, start + batch)])
            let vectors = try embedder.embed(slice, as: .passage)
            for (document, vector) in zip(slice, vectors) { made.append((document, MeaningVector(vector))) }
            start += slice.count
        }
        guard !pending.documents.isEmpty || !made.isEmpty || pending.model == nil || pending.through > pending.mark else {
            return 0
        }
        try pool.write { db in
            // Read again only if anything was written since (a message whose document changed
            // meanwhile stays pending, listed as changed); else what was read is what is here.
            let unchanged = try WriteStamp(db) == stamp
            let now = unchanged ? pending : try Self.pending(db, span: pending.through - pending.mark)
            let insertVector = try db.cachedStatement(sql: "INSERT OR IGNORE INTO meaning_vectors (document, vector) VALUES (?, ?)")
            for (document, vector) in made {
                try insertVector.execute(arguments: [document, vector.data])
            }
            let read = unchanged ? [:] : Dictionary(pending.documents.map { ($0.rowid, $0.document) }, uniquingKeysWith: { $1 })
            var vectorIDs: [String: Int64] = [:]
            let find = try db.cachedStatement(sql: "SELECT id FROM meaning_vectors WHERE document = ?")
            for document in Set(now.documents.compactMap(\.document)) {
                vectorIDs[document] = try Int64.fetchOne(find, arguments: [document])
            }
            let link = try db.cachedStatement(sql: "INSERT OR REPLACE INTO message_meanings (message_rowid, vector_id) VALUES (?, ?)")
            let unlink = try db.cachedStatement(sql: "DELETE FROM message_meanings WHERE message_rowid = ?")
            var changed: [Int64] = []
            // Whether a message that had a vector was given another or none: only then can a
            // document be left that no message reads.
            var relinked = false
            for (rowid, document) in now.documents {
                if !unchanged {
                    guard let before = read[rowid], before == document else {
                        changed.append(rowid)
                        continue
                    }
                }
                if rowid <= now.mark { relinked = true }
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
            if relinked {
                try db.execute(sql: "DELETE FROM meaning_vectors WHERE id NOT IN (SELECT vector_id FROM message_meanings)")
            }
            if relinked || !made.isEmpty { try db.execute(sql: "UPDATE meaning_state SET version = version + 1") }
        }
        return made.count
    }
}

/// What a transaction means, in the few words the embedding model reads: its merchant (figures
/// taken out), category, kind (unless a purchase), "received" for money in, and the person's note
/// ("SWIGGY. Food & Dining / Food Delivery", "ACME LTD. Income / Salary. salary, received").
/// Amounts, dates, accounts and references are left to the full-text index: they carry no meaning
/// to compare, and leaving them out is what makes a merchant's transactions one document.
struct MeaningDocument: Equatable {
    /// The words embedded.
    let text: String

    /// The fields of a transaction a document is made of.
    struct TransactionFields: Hashable {
        var merchant, category, subcategory, note, kind, direction: String?
    }

    init?(_ transaction: TransactionFields) {
        var parts: [String] = []
        // A merchant's figures are a store's number, a terminal or an account ("a/c **9813"): without
        // them the transactions of a hundred thousand SMS are 71 documents, not 1,254 (`spendlex-corpus sms`).
        if let merchant = transaction.merchant.map(Self.withoutFigures), !merchant.isEmpty { parts.append(merchant) }
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
        text = parts.joined(separator: ". ")
    }

    /// Trimmed, with runs of white space as one space; nil when nothing is left.
    static func clean(_ text: String) -> String? {
        let cleaned = words(of: text, maskingFigures: false)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// Every run of digits (with the separators inside a figure) as "#": "Rs 1,250.00 on 12/03"
    /// reads "Rs # on #", so that two alerts of one kind are one document.
    static func withoutFigures(_ text: String) -> String {
        words(of: text, maskingFigures: true)
    }

    /// One pass over the text's Unicode scalars (a digit of any script, "१२३", is a figure; ASCII
    /// decided without a property look-up): white space collapsed and trimmed, figures masked when
    /// asked. Character by character, with `split` and `isWhitespace`, this took most of a
    /// catch-up's time on a million imported rows, each merchant different.
    private static func words(of text: String, maskingFigures: Bool) -> String {
        var out = String.UnicodeScalarView()
        var space = false
        var inFigure = false
        var pendingSeparator: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isSpace = value < 0x80 ? (value == 0x20 || (0x09...0x0D).contains(value)) : scalar.properties.isWhitespace
            if isSpace {
                if inFigure, let separator = pendingSeparator { out.append(separator) }
                inFigure = false
                pendingSeparator = nil
                space = !out.isEmpty
                continue
            }
            let isDigit = value < 0x80 ? (0x30...0x39).contains(value) : scalar.properties.numericType != nil
            if space {
                out.append(" ")
                space = false
            }
            if maskingFigures, isDigit {
                if !inFigure { out.append("#"); inFigure = true }
                pendingSeparator = nil
            } else if maskingFigures, inFigure, pendingSeparator == nil, value < 0x80, ",./:-".unicodeScalars.contains(scalar) {
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
