import Foundation
import SpendlexEngine
import SpendlexStore

/// A transaction as the service writes it: the record of ARCHITECTURE.md (amounts are
/// decimal strings, never floating point; absent fields are null), plus its ledger id, who
/// set its category, and the user's note.
struct TransactionBody: Encodable, Sendable {
    /// Where the transaction came from.
    struct Source: Encodable, Sendable {
        var id: String
        var kind: String
        var sender: String?
        var receivedAt: String?
    }

    /// A card or account, by its last digits only.
    struct Account: Encodable, Sendable {
        var type: String
        var last4: String
        /// A card's kind (null: not known); absent for an account.
        var cardKind: String?

        enum CodingKeys: String, CodingKey {
            case type, last4
            case cardKind = "card_kind"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(last4, forKey: .last4)
            if type == "card" { try container.encode(cardKind, forKey: .cardKind) }
        }
    }

    /// The ledger id; nil for a transaction parsed but not stored.
    var id: Int64?
    var source: Source
    var rule: String
    var bank: String
    var direction: String?
    var kind: String?
    /// The amount as a decimal string, scale kept ("30.00").
    var amount: String?
    var currency: String?
    var date: String?
    var time: String?
    var merchant: String?
    /// The merchant as captured, before cleaning.
    var merchantRaw: String?
    var account: Account?
    /// Balance or available limit after it, as a decimal string.
    var balance: String?
    var reference: String?
    var channel: String?
    var category: String?
    var subcategory: String?
    /// `rules` or `user` (a user's choice, kept over the rules); nil without a category.
    var categorySource: String?
    var note: String?
    /// 0...1, a score (not money).
    var confidence: Double
    var status: String
    var idempotencyKey: String
    /// The ledger id of the primary transaction this one duplicates.
    var duplicateOf: Int64?
    var duplicateReason: String?
    /// The learned category model's guess, for a stored transaction no table row categorized.
    var learned: Learned?
    /// Set when the model's guess became the category: how sure it was.
    var categoryProbability: Double?

    /// The model's guess and its probability (0...1).
    struct Learned: Encodable, Sendable {
        var category: String
        var subcategory: String?
        var probability: Double

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(category, forKey: .category)
            try c.encode(subcategory, forKey: .subcategory)
            try c.encode(probability, forKey: .probability)
        }

        enum CodingKeys: String, CodingKey { case category, subcategory, probability }
    }

    /// A parsed transaction, not stored.
    init(_ t: Transaction) {
        id = nil
        source = Source(id: t.messageID, kind: t.messageChannel.rawValue, sender: t.sender,
                        receivedAt: t.receivedAt.map(TransactionWriter.timestamp))
        rule = t.rule
        bank = t.bank
        direction = t.direction?.rawValue
        kind = t.kind?.rawValue
        amount = t.amountText
        currency = t.currency
        date = t.date?.description
        time = t.time?.description
        merchant = t.merchant
        merchantRaw = t.merchantRaw
        account = t.account.map { Account(type: $0.type, last4: $0.last4, cardKind: $0.cardKind?.rawValue) }
        balance = t.balance
        reference = t.reference
        channel = t.channel
        category = t.category
        subcategory = t.subcategory
        categorySource = t.category == nil ? nil : "rules"
        note = nil
        confidence = t.confidence
        status = t.status.rawValue
        idempotencyKey = t.idempotencyKey
        duplicateOf = nil
        duplicateReason = nil
    }

    /// A transaction from the ledger.
    init(_ stored: StoredTransaction) {
        self.init(stored.transaction)
        id = stored.id
        balance = stored.balanceText
        categorySource = stored.categorySource
        note = stored.note
        duplicateOf = stored.duplicateOf
        duplicateReason = stored.duplicateReason
        learned = stored.learned.map { Learned(category: $0.label.category, subcategory: $0.label.subcategory, probability: $0.probability) }
        categoryProbability = stored.categoryProbability
    }

    enum CodingKeys: String, CodingKey {
        case id, source, rule, bank, direction, kind, amount, currency, date, time, merchant, account, balance, reference,
             channel, category, subcategory, note, confidence, status
        case merchantRaw = "merchant_raw"
        case categorySource = "category_source", idempotencyKey = "idempotency_key", duplicateOf = "duplicate_of",
             duplicateReason = "duplicate_reason", learned, categoryProbability = "category_probability"
    }

    /// Every field, absent ones as null, so that clients see one shape.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(source, forKey: .source)
        try c.encode(rule, forKey: .rule)
        try c.encode(bank, forKey: .bank)
        try c.encode(direction, forKey: .direction)
        try c.encode(kind, forKey: .kind)
        try c.encode(amount, forKey: .amount)
        try c.encode(currency, forKey: .currency)
        try c.encode(date, forKey: .date)
        try c.encode(time, forKey: .time)
        try c.encode(merchant, forKey: .merchant)
        try c.encode(merchantRaw, forKey: .merchantRaw)
        try c.encode(account, forKey: .account)
        try c.encode(balance, forKey: .balance)
        try c.encode(reference, forKey: .reference)
        try c.encode(channel, forKey: .channel)
        try c.encode(category, forKey: .category)
        try c.encode(subcategory, forKey: .subcategory)
        try c.encode(categorySource, forKey: .categorySource)
        try c.encode(note, forKey: .note)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(status, forKey: .status)
        try c.encode(idempotencyKey, forKey: .idempotencyKey)
        try c.encode(duplicateOf, forKey: .duplicateOf)
        try c.encode(duplicateReason, forKey: .duplicateReason)
        try c.encode(learned, forKey: .learned)
        try c.encode(categoryProbability, forKey: .categoryProbability)
    }
}

extension TransactionBody.Source {
    enum CodingKeys: String, CodingKey {
        case id, kind, sender
        case receivedAt = "received_at"
    }

    func encode(to encoder: any Encoder) throws {
        // The id and sender come from the client or the message's headers: card numbers masked.
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(CardNumberMasker.mask(id), forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(sender.map(CardNumberMasker.mask), forKey: .sender)
        try c.encode(receivedAt, forKey: .receivedAt)
    }
}
