import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexRules
import SpendlexStore

/// What became of one posted message: a stored transaction, a duplicate of which one, or
/// why it is no transaction (ignored by which rule, unmatched, an error with its reason).
struct MessageResult: Encodable, Sendable {
    /// `stored` (a new transaction), `duplicate`, `transaction` (parsed, not stored: `/parse`),
    /// `ignored`, `unmatched` or `error`.
    var status: String
    /// The message's id in the ledger: the client's, or one derived from the message.
    var messageID: String
    /// The transaction, stored or parsed.
    var transaction: TransactionBody?
    /// For `duplicate`: the ledger id of the transaction this message repeats.
    var duplicateOf: Int64?
    /// The rule that decided: the parser, or the ignore rule.
    var rule: String?
    /// Why, in words.
    var reason: String?
    /// The text that was parsed, card numbers masked (`/parse` only, for rule authors).
    var text: String?
    /// `/rules/try` only: for a message the draft did not read, the parser that came closest.
    var nearest: NearestBody?
    /// `/rules/try` only: what the rules serving now make of the message.
    var fallback: FallbackBody?
    /// `/rules/try` only: whether a pattern hit the backtracking limit on the message.
    var catastrophic: Bool?
    /// `/rules/try` only: what took the transaction's confidence below 1, as `explain` lists it.
    var confidenceParts: [ConfidencePartBody] = []

    enum CodingKeys: String, CodingKey {
        case status, transaction, rule, reason, text, nearest, fallback, catastrophic
        case confidenceParts = "confidence_parts"
        case messageID = "message_id", duplicateOf = "duplicate_of"
    }

    /// Every field, absent ones as null.
    func encode(to encoder: any Encoder) throws {
        // Ids and reasons can hold what a client sent (an email's Message-ID): card numbers masked.
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(CardNumberMasker.mask(messageID), forKey: .messageID)
        try c.encode(transaction, forKey: .transaction)
        try c.encode(duplicateOf, forKey: .duplicateOf)
        try c.encode(rule, forKey: .rule)
        try c.encode(reason.map(CardNumberMasker.mask), forKey: .reason)
        if let text { try c.encode(CardNumberMasker.mask(text), forKey: .text) }
        if let catastrophic {
            try c.encode(nearest, forKey: .nearest)
            try c.encode(fallback, forKey: .fallback)
            try c.encode(catastrophic, forKey: .catastrophic)
            try c.encode(confidenceParts, forKey: .confidenceParts)
        }
    }
}

/// The parser that came closest to reading a message, and where its pattern stopped.
struct NearestBody: Encodable, Sendable {
    let parser: String
    let patternBefore: String
    let patternAfter: String
    let fragment: String?
    let matchedText: String
    let progress: Double

    init(_ nearest: NearestParser) {
        parser = nearest.parser
        patternBefore = nearest.patternBefore
        patternAfter = nearest.patternAfter
        fragment = nearest.fragment
        matchedText = CardNumberMasker.mask(nearest.matchedText)
        progress = (nearest.progress * 1000).rounded() / 1000
    }

    enum CodingKeys: String, CodingKey {
        case parser, fragment, progress
        case patternBefore = "pattern_before", patternAfter = "pattern_after", matchedText = "matched_text"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(parser, forKey: .parser)
        try c.encode(patternBefore, forKey: .patternBefore)
        try c.encode(patternAfter, forKey: .patternAfter)
        try c.encode(fragment, forKey: .fragment)
        try c.encode(matchedText, forKey: .matchedText)
        try c.encode(progress, forKey: .progress)
    }
}

/// One doubt that lowered a transaction's confidence: its part of the score, what it takes off, why.
struct ConfidencePartBody: Encodable, Sendable {
    let part: String
    let weight: Double
    let summary: String
}

/// What the rules serving now make of a message tried against a draft.
struct FallbackBody: Encodable, Sendable {
    let status: String
    let rule: String?
    let transaction: TransactionBody?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(rule, forKey: .rule)
        try c.encode(transaction, forKey: .transaction)
    }

    enum CodingKeys: String, CodingKey { case status, rule, transaction }
}

/// Parses posted messages with the live rules and, for `/messages`, stores them in the
/// ledger with duplicate linking. The logic of `POST /messages` and `/parse`, without HTTP.
struct MessageIntake: Sendable {
    let rules: LiveRules
    let ledger: Ledger
    let mappings: CategoryMappingCache
    private(set) var webhooks: WebhookNotifier?
    /// How deep a posted e-mail's multiparts may nest before the rest is skipped.
    let maxMIMEDepth: Int

    init(rules: LiveRules, ledger: Ledger, mappings: CategoryMappingCache, webhooks: WebhookNotifier? = nil,
         maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth) {
        self.rules = rules
        self.ledger = ledger
        self.mappings = mappings
        self.webhooks = webhooks
        self.maxMIMEDepth = maxMIMEDepth
    }

    /// The same intake, telling `webhooks` of each new transaction.
    func with(webhooks: WebhookNotifier?) -> MessageIntake {
        var copy = self
        copy.webhooks = webhooks
        return copy
    }

    /// Parses and categorizes a message; nothing is stored.
    func parse(_ input: MessageInput) throws(APIError) -> MessageResult {
        let (message, outcome) = try read(input)
        var result = Self.result(of: outcome, messageID: message.id)
        if let transaction = outcome.transaction {
            result.status = "transaction"
            result.transaction = TransactionBody(transaction)
        }
        result.text = CardNumberMasker.mask(message.text)
        return result
    }

    /// Parses, categorizes and stores a message; a message already stored comes back as a
    /// duplicate of the transaction it gave, and an alert about money already stored from
    /// another alert (SMS and email of one purchase) as a duplicate of that transaction.
    func ingest(_ input: MessageInput) throws(APIError) -> MessageResult {
        let (message, outcome) = try read(input)
        let stored: MessageStoreOutcome
        do { stored = try ledger.store(MessageRecord(message, outcome: outcome)) } catch { throw APIError.storeFailed(error) }
        var result = Self.result(of: outcome, messageID: message.id)
        switch stored {
        case .transaction(let id):
            guard let transaction = try fetch(id) else {
                throw APIError.storeFailed("transaction \(id) was stored but cannot be read back")
            }
            result.transaction = TransactionBody(transaction)
            if let primary = transaction.duplicateOf {
                result.status = "duplicate"
                result.duplicateOf = primary
                result.reason = transaction.duplicateReason
            } else {
                result.status = "stored"
                // Richer than an alert stored before about the same money, it became the primary.
                let linked: [Int64]
                do { linked = try ledger.duplicates(of: id) } catch { throw APIError.storeFailed(error) }
                if !linked.isEmpty {
                    result.reason = "stored as the primary of earlier alerts about the same money: transaction "
                        + linked.map(String.init).joined(separator: ", ")
                }
                webhooks?.notify(TransactionBody(transaction))
            }
        case .alreadyStored(let status, let transactionID):
            result.status = "duplicate"
            result.rule = nil
            if let transactionID, let transaction = try fetch(transactionID) {
                result.transaction = TransactionBody(transaction)
                result.duplicateOf = transaction.id
                result.rule = transaction.rule
                result.reason = "the same message is stored already, as transaction \(transaction.id)"
            } else {
                result.reason = "the same message is stored already (\(status.rawValue))"
            }
        case .recorded:
            break
        }
        return result
    }

    private func fetch(_ id: Int64) throws(APIError) -> StoredTransaction? {
        do { return try ledger.transaction(id: id) } catch { throw APIError.storeFailed(error) }
    }

    /// The message of an input and what the live rules and the user's mappings make of it.
    func read(_ input: MessageInput) throws(APIError) -> (Message, ParseOutcome) {
        let (message, outcome) = try parsed(input)
        do { return (message, try mappings.apply(to: outcome)) } catch { throw APIError.storeFailed(error) }
    }

    private func parsed(_ input: MessageInput) throws(APIError) -> (Message, ParseOutcome) {
        do {
            return try PostedMessage.read(input, worker: rules.current.engine.makeWorker(), maxMIMEDepth: maxMIMEDepth)
        } catch {
            switch error {
            case .invalidMessage(let reason): throw APIError(.unprocessableContent, "invalid_message", reason)
            case .invalidEmail(let reason): throw APIError(.unprocessableContent, "invalid_email", reason)
            }
        }
    }

    static func result(of outcome: ParseOutcome, messageID: String) -> MessageResult {
        switch outcome {
        case .transaction(let t):
            return MessageResult(status: "transaction", messageID: messageID, rule: t.rule)
        case .ignored(let rule, _):
            return MessageResult(status: "ignored", messageID: messageID, rule: rule, reason: outcome.reason)
        case .unmatched:
            return MessageResult(status: "unmatched", messageID: messageID, reason: outcome.reason)
        case .failed(let rule, _, _), .matchLimit(let rule, _):
            return MessageResult(status: "error", messageID: messageID, rule: rule,
                                 reason: CardNumberMasker.mask(outcome.reason))
        }
    }
}
