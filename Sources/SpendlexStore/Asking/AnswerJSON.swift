import Foundation

/// An `Answer` as JSON (`spendlex ask --format json`, `GET /ask`): the question as read, the
/// answer in words, figures per currency (decimal strings), the count, the rows, the query run,
/// the cited ledger ids and their merchants, and how a phrase was read by meaning (or why not).
public struct AnswerBody: Encodable, Sendable {
    struct Read: Encodable, Sendable {
        let intent: String
        let from: String?
        let to: String?
        let category: String?
        let merchant: String?
        let limit: Int?
    }
    struct Figure: Encodable, Sendable {
        let currency: String
        let amount: String
    }
    struct Row: Encodable, Sendable {
        let label: String
        let currency: String
        let values: [String]
    }
    struct Merchant: Encodable, Sendable {
        let name: String
        let transactions: Int
    }
    struct Neighbour: Encodable, Sendable {
        let merchant: String
        let category: String?
        let similarity: Double

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(merchant, forKey: .merchant)
            try c.encode(category, forKey: .category)
            try c.encode((similarity * 10_000).rounded() / 10_000, forKey: .similarity)
        }
        enum CodingKeys: String, CodingKey { case merchant, category, similarity }
    }
    struct Reading: Encodable, Sendable {
        let phrase: String
        let stoodOut: Bool
        let median: Double
        let category: String?
        let merchants: [String]
        let nearest: [Neighbour]

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(phrase, forKey: .phrase)
            try c.encode(stoodOut, forKey: .stoodOut)
            try c.encode((median * 10_000).rounded() / 10_000, forKey: .median)
            try c.encode(category, forKey: .category)
            try c.encode(merchants, forKey: .merchants)
            try c.encode(nearest, forKey: .nearest)
        }
        enum CodingKeys: String, CodingKey {
            case phrase, median, category, merchants, nearest
            case stoodOut = "stood_out"
        }
    }
    let question: Read
    let answer: String
    let figures: [Figure]
    let count: Int?
    let rows: [Row]
    let query: String
    let citations: [Int64]
    let merchants: [Merchant]
    let readByMeaning: Reading?
    let notice: String?

    public init(_ answer: Answer) {
        let q = answer.question
        question = Read(intent: q.intent.rawValue, from: q.from?.description, to: q.to?.description, category: q.category,
                        merchant: q.merchant, limit: q.intent == .biggest ? q.limit : nil)
        self.answer = answer.text
        figures = answer.figures.map { Figure(currency: $0.currency, amount: "\($0.amount)") }
        count = answer.count
        rows = answer.rows.map { Row(label: $0.label, currency: $0.currency, values: $0.values.map { "\($0)" }) }
        query = answer.query
        citations = answer.citations
        merchants = answer.merchants.map { Merchant(name: $0.name, transactions: $0.transactions) }
        readByMeaning = answer.reading.map { reading in
            Reading(phrase: reading.phrase, stoodOut: reading.stoodOut, median: reading.median, category: reading.category, merchants: reading.merchants,
                    nearest: reading.nearest.map { Neighbour(merchant: $0.merchant, category: $0.label, similarity: $0.similarity) })
        }
        notice = answer.notice
    }

    enum CodingKeys: String, CodingKey {
        case question, answer, figures, count, rows, query, citations, merchants, notice
        case readByMeaning = "read_by_meaning"
    }

    /// Every key, absent values as null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(question, forKey: .question)
        try c.encode(answer, forKey: .answer)
        try c.encode(figures, forKey: .figures)
        try c.encode(count, forKey: .count)
        try c.encode(rows, forKey: .rows)
        try c.encode(query, forKey: .query)
        try c.encode(citations, forKey: .citations)
        try c.encode(merchants, forKey: .merchants)
        try c.encode(readByMeaning, forKey: .readByMeaning)
        try c.encode(notice, forKey: .notice)
    }
}

extension Answer {
    /// `AnswerBody` as JSON text.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(AnswerBody(self))) ?? Data("{}".utf8), as: UTF8.self)
    }
}
