import Foundation
import GRDB
import SpendlexEngine

/// A stored message as `spendlex show` cites it: where it came from and what it said.
public struct StoredMessage: Sendable, Equatable {
    /// Its id: the e-mail's Message-ID, the SMS's id, or a content hash ("sha:…").
    public var id: String
    /// The input file it was read from, when one.
    public var file: String?
    /// Its byte offset in that file (a line number for line-per-message inputs).
    public var offset: Int?
    /// email, sms, push, statement.
    public var channel: String
    /// The sender address or SMS sender id.
    public var sender: String?
    /// When it arrived.
    public var receivedAt: Date?
    /// The e-mail's subject.
    public var subject: String?
    /// The text the parsers read, card numbers masked; nil for a message stored before texts
    /// were kept, or an ignored one.
    public var text: String?
    /// transaction, ignored, unmatched or error.
    public var status: String
    /// The rule that decided, when one did.
    public var rule: String?
    /// Why, in words.
    public var reason: String?

    /// Where the message is: "FILE:OFFSET" when read from a file, else its id.
    public var citation: String {
        if let file { return offset.map { "\(file):\($0)" } ?? file }
        return id
    }
}

/// One hit of a full-text search: the message, its transaction if it made one, how well it
/// matched and where the words are.
public struct SearchHit: Sendable, Equatable {
    /// The message the words are in (or whose transaction's merchant, category or note holds them).
    public var message: StoredMessage
    /// The message's transaction, when it made one.
    public var transaction: StoredTransaction?
    /// SQLite's bm25 score with the index's column weights, when the words found it: lower is
    /// better (it is negative); nil for a hit by meaning alone.
    public var score: Double?
    /// The best few words around the hit, the matched words between `SearchQuery.highlight` marks
    /// (the start of the message when it was found by meaning alone).
    public var snippet: String
    /// The cosine similarity (−1 to 1) of its meaning to the query's, when the meaning ranking holds it.
    public var similarity: Double?

    public init(message: StoredMessage, transaction: StoredTransaction?, score: Double?, snippet: String,
                similarity: Double? = nil) {
        self.message = message
        self.transaction = transaction
        self.score = score
        self.snippet = snippet
        self.similarity = similarity
    }
}

/// What a person types into a search box, made safe for FTS5: words (all of them must be there,
/// in any column, each as the start of a word: "amazon" finds "AMAZONPAY", glued to its digits as
/// alerts write it), "quoted phrases" (exact words), and `-word` for a word that must not be there. FTS5's own syntax (AND, OR, NEAR, column filters, parentheses) is
/// taken as plain words: a merchant called "AND Co" or a reference with a hyphen never makes a
/// syntax error.
public struct SearchQuery: Sendable, Equatable {
    /// The marks put around a matched word in a snippet.
    public static let highlight = (open: "«", close: "»")

    /// The FTS5 MATCH expression; nil when the text holds no word.
    public let match: String?
    /// The words and phrases to find, as typed (without quotes, signs or `*`): what search by
    /// meaning embeds.
    public let words: [String]
    /// A MATCH expression for the words that must not be there (any of them); nil when none.
    public let exclusion: String?

    /// Reads `text`. With `prefixes` (the default) every word not in quotes is the start of a word
    /// ("netf" finds Netflix); without, a word is a whole word unless it ends in `*`.
    public init(_ text: String, prefixes: Bool = true) {
        var included: [String] = []
        var excluded: [String] = []
        var words: [String] = []
        // Control characters are spaces: a NUL in a term ends FTS5's string early ("unterminated
        // string"), and none is part of a word.
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        var rest = Substring(String(scalars))
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            var negated = false
            if rest.first == "-", rest.count > 1, !rest.dropFirst().first!.isWhitespace {
                negated = true
                rest = rest.dropFirst()
            }
            var term: String
            var prefix = false
            if rest.first == "\"" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: "\"") ?? body.endIndex
                term = String(body[..<end])
                rest = end < body.endIndex ? body[body.index(after: end)...] : body[end...]
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                term = String(rest[..<end])
                rest = rest[end...]
                if term.hasSuffix("*"), term.count > 1 {
                    prefix = true
                    term.removeLast()
                } else if prefixes {
                    prefix = true
                }
            }
            // A term with no letter or digit ("-", "*", "&") would match nothing: it is left out.
            guard term.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) else { continue }
            let quoted = "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? " *" : "")
            if negated { excluded.append(quoted) } else { included.append(quoted); words.append(term) }
        }
        self.words = words
        exclusion = excluded.isEmpty ? nil : excluded.joined(separator: " OR ")
        // FTS5 cannot answer a query that only excludes: with no word to find there is no query.
        guard !included.isEmpty else {
            match = nil
            return
        }
        match = included.joined(separator: " AND ") + excluded.map { " NOT " + $0 }.joined()
    }
}

extension Ledger {
    /// The stored message with this id; nil when there is none.
    public func message(id: String) throws -> StoredMessage? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, file, byte_offset, channel, sender, received_at, subject, text, status, rule, reason
                FROM messages WHERE id = ?
                """, arguments: [id]).map(Self.storedMessage)
        }
    }

    /// The transaction a stored message made, if it made one.
    public func transaction(forMessage id: String) throws -> StoredTransaction? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.transactionColumns) FROM transactions WHERE message_id = ?",
                             arguments: [id]).map(Self.storedTransaction)
        }
    }

    /// Full-text search over the stored messages and their transactions' merchant, category and
    /// note, best hits first (bm25 with `SearchIndex.weights`); duplicates are found like any
    /// transaction, and say what they duplicate.
    public func search(_ query: SearchQuery, limit: Int = 20, offset: Int = 0) throws -> [SearchHit] {
        guard let match = query.match else { return [] }
        try updateSearchIndex()
        let weights = SearchIndex.weights.map { String($0) }.joined(separator: ", ")
        let (open, close) = SearchQuery.highlight
        return try pool.read { db in
            // The page of hits first, from the index alone (ranked over its own rows); then each
            // hit's message and transaction by rowid.
            let hits = try Row.fetchAll(db, sql: """
                SELECT rowid, bm25(search_index, \(weights)) AS score,
                       snippet(search_index, -1, ?, ?, '…', 16) AS snippet
                FROM search_index WHERE search_index MATCH ?
                ORDER BY score LIMIT ? OFFSET ?
                """, arguments: [open, close, match, max(0, limit), max(0, offset)])
            return try hits.compactMap { hit -> SearchHit? in
                let rowid: Int64 = hit["rowid"]
                guard let messageRow = try Row.fetchOne(db, sql: """
                    SELECT id, file, byte_offset, channel, sender, received_at, subject, text, status, rule, reason
                    FROM messages WHERE rowid = ?
                    """, arguments: [rowid]) else { return nil }
                let message = Self.storedMessage(messageRow)
                let transaction = try Row.fetchOne(db, sql: """
                    SELECT \(Self.transactionColumns) FROM transactions WHERE message_id = ?
                    """, arguments: [message.id]).map(Self.storedTransaction)
                return SearchHit(message: message, transaction: transaction, score: hit["score"], snippet: hit["snippet"])
            }
        }
    }

    /// How many stored messages `query` finds.
    public func searchCount(_ query: SearchQuery) throws -> Int {
        guard let match = query.match else { return 0 }
        try updateSearchIndex()
        return try pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index WHERE search_index MATCH ?", arguments: [match]) ?? 0
        }
    }

    /// Whether the search index agrees with the tables it indexes (FTS5's integrity check, which
    /// compares it with every row of the view: the messages not yet indexed are indexed first).
    public func checkSearchIndex() throws {
        try pool.write { db in
            try SearchIndex.catchUp(db)
            try db.execute(sql: "INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)")
        }
    }

    static func storedMessage(_ row: Row) -> StoredMessage {
        StoredMessage(id: row["id"], file: row["file"], offset: row["byte_offset"], channel: row["channel"],
                      sender: row["sender"], receivedAt: (row["received_at"] as String?).flatMap(date(from:)),
                      subject: row["subject"], text: row["text"], status: row["status"], rule: row["rule"],
                      reason: row["reason"])
    }
}
