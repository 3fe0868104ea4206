import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexRules
import SpendlexMeaning
import SpendlexStore

/// One hit of `GET /search`: how well it matched, the words around the match, the message cited,
/// and its transaction when it made one.
struct SearchHitBody: Encodable, Sendable {
    /// Where the words are: the stored message.
    struct Citation: Encodable, Sendable {
        var messageID: String
        /// "FILE:OFFSET" when read from a file, else the message id.
        var cited: String
        var file: String?
        var offset: Int?
        var channel: String
        var sender: String?
        var receivedAt: String?
        var subject: String?
        var status: String

        enum CodingKeys: String, CodingKey {
            case cited, file, offset, channel, sender, subject, status
            case messageID = "message_id", receivedAt = "received_at"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(messageID, forKey: .messageID)
            try c.encode(cited, forKey: .cited)
            try c.encode(file, forKey: .file)
            try c.encode(offset, forKey: .offset)
            try c.encode(channel, forKey: .channel)
            try c.encode(sender, forKey: .sender)
            try c.encode(receivedAt, forKey: .receivedAt)
            try c.encode(subject, forKey: .subject)
            try c.encode(status, forKey: .status)
        }
    }

    /// bm25 when the words found it (lower is better); nil for a hit by meaning alone.
    var score: Double?
    /// Cosine similarity of its meaning to the query's, when the meaning ranking holds it.
    var similarity: Double?
    /// The words around the match, matched words between « and ».
    var snippet: String
    var citation: Citation
    var transaction: TransactionBody?

    init(_ hit: SearchHit) {
        score = hit.score
        similarity = hit.similarity
        snippet = hit.snippet
        let m = hit.message
        citation = Citation(messageID: m.id, cited: m.citation, file: m.file, offset: m.offset, channel: m.channel,
                            sender: m.sender, receivedAt: m.receivedAt.map(TransactionWriter.timestamp), subject: m.subject,
                            status: m.status)
        transaction = hit.transaction.map(TransactionBody.init)
    }

    enum CodingKeys: String, CodingKey { case score, similarity, snippet, citation, transaction }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(score, forKey: .score)
        try c.encode(similarity, forKey: .similarity)
        try c.encode(snippet, forKey: .snippet)
        try c.encode(citation, forKey: .citation)
        try c.encode(transaction, forKey: .transaction)
    }
}

/// A page of `GET /search`: the hits, the page's place, how they were ranked and, when the
/// embedding model is missing, the notice that the words alone ranked them.
struct SearchPageBody: Encodable, Sendable {
    var hits: [SearchHitBody]
    var total: Int
    var limit: Int
    var offset: Int
    var mode: SearchMode
    var notice: String?

    enum CodingKeys: String, CodingKey {
        case hits, total, limit, offset, mode, notice
        case nextOffset = "next_offset"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(hits, forKey: .hits)
        try c.encode(total, forKey: .total)
        try c.encode(limit, forKey: .limit)
        try c.encode(offset, forKey: .offset)
        try c.encode(offset + hits.count < total ? offset + hits.count : nil, forKey: .nextOffset)
        try c.encode(mode.rawValue, forKey: .mode)
        try c.encode(notice, forKey: .notice)
    }
}

extension SpendlexService {
    /// `GET /search?q=`: full-text search over the ledger's messages and transactions, ranked, each
    /// hit with its citation (`spendlex search` over HTTP).
    func addSearchRoutes(to table: RouteTable) {
        let modelFolder = configuration.embeddingModelFolder
        table.get("/search") { request, context in
            let ledger = try context.ledger()
            let reader = QueryReader(request)
            guard reader.has("q") else { throw APIError.invalidField("q is required: the words to find") }
            let text = reader.string("q") ?? ""
            // A q with no word (only signs or spaces) finds nothing: an empty page (`Ledger.search`), as for
            // words no message holds.
            let limit = try reader.int("limit", in: 1...100) ?? 20
            let offset = try reader.int("offset", in: 0...Int(Int32.max)) ?? 0
            let asked: SearchMode
            switch reader.string("mode") {
            case nil, "": asked = .hybrid
            case let name?:
                guard let mode = SearchMode(rawValue: name) else {
                    throw APIError.invalidField("mode must be hybrid, semantic or exact")
                }
                asked = mode
            }
            // By meaning only with the embedding model: hybrid falls back to words with a notice,
            // semantic cannot.
            var embedder: EmbeddingModel?
            var notice: String?
            if asked != .exact {
                switch EmbeddingModel.installed(folder: modelFolder) {
                case .success(let model): embedder = model
                case .failure(let error):
                    if asked == .semantic { throw APIError(.unprocessableContent, "model_not_installed", error.description) }
                    notice = "searched by words only: \(error.description)"
                }
            }
            let model = embedder
            let results = try await offloaded {
                try stored { try ledger.search(text, mode: asked, embedder: model, limit: limit, offset: offset) }
            }
            return try JSONResponse.make(SearchPageBody(hits: results.hits.map(SearchHitBody.init), total: results.total,
                                                        limit: limit, offset: offset, mode: results.mode, notice: notice))
        }
        let rules = rules
        // `GET /ask?q=`: a question about the ledger (`spendlex ask` over HTTP); `today` sets the day
        // periods count from. A question that cannot be read is a 422 `cannot_answer` with examples.
        table.get("/ask") { request, context in
            let ledger = try context.ledger()
            let reader = QueryReader(request)
            let text = reader.string("q") ?? ""
            let day = try reader.date("today") ?? today()
            let categories = CategoryList.of(rules.current.engine.rules.rules)
            let question: Question
            switch QuestionReader.read(text, today: day, categories: categories) {
            case .success(let read): question = read
            case .failure(let refusal): throw APIError(.unprocessableContent, "cannot_answer", refusal.description)
            }
            // A merchant phrase no merchant's name holds is read by meaning when the model is installed.
            let embedder = question.merchant == nil ? nil : try? EmbeddingModel.installed(folder: modelFolder).get()
            let answer = try await offloaded { try stored { try ledger.answer(question, embedder: embedder) } }
            return try JSONResponse.make(AnswerBody(answer))
        }
    }
}
