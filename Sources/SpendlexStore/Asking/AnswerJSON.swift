import Foundation

/// An `Answer` as JSON (`spendlex ask --format json`, `GET /ask`): the question as read, the
/// answer in words, figures per currency (decimal strings), the count, the rows, the query run
/// and the cited ledger ids.
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
    let question: Read
    let answer: String
    let figures: [Figure]
    let count: Int?
    let rows: [Row]
    let query: String
    let citations: [Int64]

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
    }

    enum CodingKeys: String, CodingKey { case question, answer, figures, count, rows, query, citations }

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
