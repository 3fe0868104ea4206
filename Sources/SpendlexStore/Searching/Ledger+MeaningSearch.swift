import Foundation
import GRDB
import SpendlexMeaning

/// How a search ranks: by words and meaning together (the default), by meaning alone, or by
/// words alone (the full-text index, as before vectors).
public enum SearchMode: String, Sendable, CaseIterable {
    case hybrid, semantic, exact
}

/// A page of search hits, how many there are in all, and how they were ranked.
public struct SearchResults: Sendable {
    public var hits: [SearchHit]
    public var total: Int
    public var mode: SearchMode
}

/// The vectors a search scanned, with the version of the set they were read at
/// (`meaning_state.version`, moved by every change to the vectors).
struct MeaningMatrixCache: Sendable {
    struct Key: Equatable, Sendable {
        let version: Int64
        let dimension: Int
    }
    let key: Key
    let ids: [Int64]
    let matrix: MeaningMatrix
}

/// The ranking's constants, chosen on the development part of the labelled query set
/// (`Tests/Fixtures/search`) and reported on its sealed part; see `MeaningSearchEvaluationTests`.
public enum MeaningRanking {
    /// Reciprocal rank fusion's constant: a list's hit at rank r counts 1 / (k + r) (Cormack et al.
    /// 2009 found 60 good across collections; the ranks here are short, so it matters little).
    public static let fusionConstant = 60.0
    /// A meaning closer to the query than the best one's similarity minus this is a hit; e5's
    /// similarities crowd between 0.7 and 0.9, so only the distance from the best says anything.
    public static let similarityMargin: Float = 0.04
    /// At most this many distinct meanings (documents) are hits of a query.
    public static let meanings = 30
}

extension Ledger {
    /// Embeds what the ledger holds and has no vector for yet (see `MeaningIndex`); `progress` is
    /// told the messages done of those to do, after each slice. Returns how many documents were embedded.
    @discardableResult
    public func updateMeaningIndex(embedder: TextEmbedder,
                                   progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Int {
        try MeaningIndex.catchUp(pool, embedder: embedder, progress: progress)
    }

    /// How many messages have a vector, and how many distinct documents they share.
    public func meaningIndexSize() throws -> (messages: Int, documents: Int) {
        try pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM message_meanings") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM meaning_vectors") ?? 0)
        }
    }

    /// Throws away the full-text index (unless `fullText` is false) and the vectors and builds
    /// them again from the tables (`spendlex reindex`); without an embedder only the full-text index.
    public func rebuildSearchIndexes(embedder: TextEmbedder?, fullText: Bool = true,
                                     progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws {
        try pool.write { db in
            if fullText {
                try db.execute(sql: """
                    INSERT INTO search_index (search_index) VALUES ('rebuild');
                    UPDATE search_state SET indexed_through = (SELECT COALESCE(max(rowid), 0) FROM messages);
                    """)
            }
            try db.execute(sql: """
                DELETE FROM message_meanings; DELETE FROM meaning_vectors; DELETE FROM meaning_stale;
                UPDATE meaning_state SET embedded_through = 0, model = NULL, version = version + 1;
                """)
        }
        if let embedder { try updateMeaningIndex(embedder: embedder, progress: progress) }
    }

    /// Searches the ledger by `mode`. `text` is what the person typed; hybrid and semantic need
    /// `embedder` (without one, hybrid is exact; the caller says so). Hybrid ranks by reciprocal
    /// rank fusion of the full-text ranking (bm25, every word found) and the meaning ranking, after
    /// the hits whose merchant holds every word typed: a merchant's name typed exactly comes first.
    /// `words` is the full-text query when it is not `SearchQuery(text)` (the command line's
    /// phrases).
    public func search(_ text: String, words given: SearchQuery? = nil, mode: SearchMode, embedder: TextEmbedder?,
                       limit: Int = 20, offset: Int = 0) throws -> SearchResults {
        let query = given ?? SearchQuery(text)
        guard mode != .exact, let embedder else {
            return SearchResults(hits: try search(query, limit: limit, offset: offset), total: try searchCount(query),
                                 mode: .exact)
        }
        // No word to find (only signs, or only words that must not be there): nothing, as by words.
        guard query.match != nil else { return SearchResults(hits: [], total: 0, mode: mode) }
        try updateSearchIndex()
        try updateMeaningIndex(embedder: embedder)
        let excluded = try excludedMessages(query)
        let meaning = try meaningRanking(of: query.words.joined(separator: " "), embedder: embedder).map { group in
            (similarity: group.similarity, messages: group.messages.filter { !excluded.contains($0) })
        }
        let words = mode == .hybrid ? try wordRanking(query) : []
        // Candidates: every message either ranking holds, each with its rank in each (1-based;
        // a message's meaning rank is its document's: all of a merchant's orders share one).
        var wordRank: [Int64: Int] = [:]
        for (index, rowid) in words.enumerated() { wordRank[rowid] = index + 1 }
        var candidates = Set(words)
        for group in meaning { candidates.formUnion(group.messages) }
        var meaningRank: [Int64: (rank: Int, similarity: Float)] = [:]
        for (index, group) in meaning.enumerated() {
            for rowid in group.messages { meaningRank[rowid] = (index + 1, group.similarity) }
        }
        let exact = mode == .hybrid ? try merchantsHoldingEveryWord(of: query, found: words) : []
        let k = MeaningRanking.fusionConstant
        func fused(_ rowid: Int64) -> Double {
            (wordRank[rowid].map { 1 / (k + Double($0)) } ?? 0) + (meaningRank[rowid].map { 1 / (k + Double($0.rank)) } ?? 0)
        }
        let ordered = candidates.map { ($0, exact.contains($0), fused($0)) }.sorted { a, b in
            if a.1 != b.1 { return a.1 }
            if a.2 != b.2 { return a.2 > b.2 }
            return a.0 > b.0   // the most recently stored first
        }
        let page = ordered.dropFirst(max(0, offset)).prefix(max(0, limit)).map(\.0)
        let hits = try pool.read { db in
            try page.compactMap { rowid -> SearchHit? in
                guard var hit = try searchHit(rowid: rowid, match: wordRank[rowid] != nil ? query.match : nil, db) else { return nil }
                hit.similarity = meaningRank[rowid].map { Double($0.similarity) }
                return hit
            }
        }
        return SearchResults(hits: hits, total: ordered.count, mode: mode)
    }

    /// The meanings closest to `text`'s, best first (within `MeaningRanking`'s margin and count),
    /// each with the messages that have it, the most recently stored first.
    func meaningRanking(of text: String, embedder: TextEmbedder) throws -> [(similarity: Float, messages: [Int64])] {
        let nearest = try nearestMeanings(to: text, embedder: embedder, count: MeaningRanking.meanings).nearest
        let best = nearest.first?.similarity ?? 0
        let kept = nearest.filter { $0.similarity >= best - MeaningRanking.similarityMargin }
        return try pool.read { db in
            let messages = try db.cachedStatement(sql: """
                SELECT message_rowid FROM message_meanings WHERE vector_id = ? ORDER BY message_rowid DESC
                """)
            return try kept.map { ($0.similarity, try Int64.fetchAll(messages, arguments: [$0.id])) }
        }
    }

    /// The `count` stored meanings (`meaning_vectors` ids) closest to `text` read as a query, best
    /// first, and the median similarity of all of them (what "close" is against, for this query).
    func nearestMeanings(to text: String, embedder: TextEmbedder,
                         count: Int) throws -> (nearest: [(id: Int64, similarity: Float)], median: Float) {
        guard count > 0, let query = try embedder.embed([text], as: .query).first else { return ([], 0) }
        let cached = try pool.read { db in try meaningVectors(dimension: embedder.dimension, db) }
        let similarities = cached.matrix.similarities(to: query)
        // The best `count` in one pass (a short sorted list), not a sort of every similarity.
        var best: [Int] = []
        best.reserveCapacity(count + 1)
        for index in similarities.indices {
            if best.count == count, similarities[index] <= similarities[best[count - 1]] { continue }
            let at = best.firstIndex { similarities[$0] < similarities[index] } ?? best.count
            best.insert(index, at: at)
            if best.count > count { best.removeLast() }
        }
        let median = similarities.isEmpty ? 0 : similarities.sorted()[similarities.count / 2]
        return (best.map { (cached.ids[$0], similarities[$0]) }, median)
    }

    /// The messages holding a word that must not be there (`-word`): left out of the meaning ranking too.
    func excludedMessages(_ query: SearchQuery) throws -> Set<Int64> {
        guard let exclusion = query.exclusion else { return [] }
        return try pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM search_index WHERE search_index MATCH ?", arguments: [exclusion]))
        }
    }

    /// Every vector with its id: from the cache while the set is the one it holds, else read and kept.
    private func meaningVectors(dimension: Int, _ db: Database) throws -> MeaningMatrixCache {
        let version = try Int64.fetchOne(db, sql: "SELECT version FROM meaning_state") ?? 0
        let key = MeaningMatrixCache.Key(version: version, dimension: dimension)
        if let cached = meaningMatrix.withLock({ $0 }), cached.key == key { return cached }
        var ids: [Int64] = []
        var matrix = MeaningMatrix(dimension: dimension)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, vector FROM meaning_vectors")
        while let row = try rows.next() {
            if matrix.append(stored: row[1]) { ids.append(row[0]) }
        }
        let made = MeaningMatrixCache(key: key, ids: ids, matrix: matrix)
        meaningMatrix.withLock { $0 = made }
        return made
    }

    /// Every message the full-text query finds, best (bm25) first.
    func wordRanking(_ query: SearchQuery) throws -> [Int64] {
        guard let match = query.match else { return [] }
        let weights = SearchIndex.weights.map { String($0) }.joined(separator: ", ")
        return try pool.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY bm25(search_index, \(weights))
                """, arguments: [match])
        }
    }

    /// The messages whose transaction's merchant holds every word of the query (each as the start
    /// of one of its words, any case, accents ignored): the full-text index's own match, limited
    /// to the merchant column; none when the words found nothing at all (`found` empty).
    func merchantsHoldingEveryWord(of query: SearchQuery, found: [Int64]) throws -> Set<Int64> {
        guard let match = query.match, !found.isEmpty else { return [] }
        return try pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM search_index WHERE search_index MATCH ?",
                                   arguments: ["merchant : (\(match))"]))
        }
    }

    /// The hit for a stored message: with its words highlighted when `match` found it, else the
    /// start of what it says.
    private func searchHit(rowid: Int64, match: String?, _ db: Database) throws -> SearchHit? {
        guard let messageRow = try Row.fetchOne(db, sql: """
            SELECT id, file, byte_offset, channel, sender, received_at, subject, text, status, rule, reason
            FROM messages WHERE rowid = ?
            """, arguments: [rowid]) else { return nil }
        let message = Self.storedMessage(messageRow)
        let transaction = try Row.fetchOne(db, sql: "SELECT \(Self.transactionColumns) FROM transactions WHERE message_id = ?",
                                           arguments: [message.id]).map(Self.storedTransaction)
        let (open, close) = SearchQuery.highlight
        let weights = SearchIndex.weights.map { String($0) }.joined(separator: ", ")
        if let match, let row = try Row.fetchOne(db, sql: """
            SELECT bm25(search_index, \(weights)) AS score, snippet(search_index, -1, ?, ?, '…', 16) AS snippet
            FROM search_index WHERE search_index MATCH ? AND rowid = ?
            """, arguments: [open, close, match, rowid]) {
            return SearchHit(message: message, transaction: transaction, score: row["score"], snippet: row["snippet"])
        }
        let said = [message.subject, message.text].compactMap { $0 }.joined(separator: " — ")
        let words = said.split(whereSeparator: \.isWhitespace)
        let start = words.prefix(16).joined(separator: " ") + (words.count > 16 ? "…" : "")
        return SearchHit(message: message, transaction: transaction, score: nil, snippet: start)
    }
}
