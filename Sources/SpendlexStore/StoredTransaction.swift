import Foundation
import SpendlexEngine
import SpendlexRules

/// One transaction as the ledger holds it: the parsed fields, its ledger id, and the
/// primary it duplicates, if any. Amounts are exact `Decimal`s, never floating point.
public struct StoredTransaction: Sendable, Equatable {
    /// A card or account, by its last digits.
    public struct Account: Sendable, Hashable {
        /// `card` or `account`.
        public var type: String
        /// The last 4 digits (5 for 15-digit cards).
        public var last4: String
        /// A card's kind, as the ledger knows it from any of the card's alerts (nil: not known,
        /// or an account).
        public var cardKind: CardKind?

        /// An account by type and last digits (and a card's kind).
        public init(type: String, last4: String, cardKind: CardKind? = nil) {
            self.type = type
            self.last4 = last4
            self.cardKind = type == "card" ? cardKind : nil
        }

        /// Whether its spending is owed rather than paid from money held: a credit card, or a
        /// card of no known kind (most card alerts are a credit card's).
        public var isLiability: Bool { type == "card" && (cardKind == nil || cardKind == .credit) }
    }

    /// The row id in the ledger's `transactions` table.
    public var id: Int64
    /// The id of the message this came from.
    public var messageID: String
    /// How that message arrived.
    public var messageChannel: MessageChannel
    /// The message's sender.
    public var sender: String?
    /// When the message arrived.
    public var receivedAt: Date?
    /// The input file of the message.
    public var file: String?
    /// The message's byte offset (or line number) in that file.
    public var offset: Int?
    /// The id of the parser that produced it.
    public var rule: String
    /// The id of its bank.
    public var bank: String
    /// Which way the money went.
    public var direction: Direction?
    /// What kind of transaction it is.
    public var kind: TransactionKind?
    /// The amount, exact; nil when the message gave none.
    public var amount: Decimal?
    /// The amount as written, scale kept ("30.00").
    public var amountText: String?
    /// ISO 4217 code.
    public var currency: String?
    /// The transaction's date.
    public var date: LocalDate?
    /// The transaction's local time, when known.
    public var time: LocalTime?
    /// The merchant or counterparty.
    public var merchant: String?
    /// The card or account.
    public var account: Account?
    /// Balance or available limit after the transaction, exact.
    public var balance: Decimal?
    /// The balance as written.
    public var balanceText: String?
    /// A transaction reference (UPI RRN, authorisation code).
    public var reference: String?
    /// The payment channel: card, upi, neft, ...
    public var channel: String?
    /// Spending category; nil until categorization assigns one ("Uncategorized").
    public var category: String?
    /// Spending subcategory.
    public var subcategory: String?
    /// How sure the parse is, 0...1 (a score, not money).
    public var confidence: Double
    /// ok, review or pending.
    public var status: Transaction.Status
    /// Stable across runs for the same message and parse.
    public var idempotencyKey: String
    /// The ledger id of the primary this one duplicates; nil for a primary.
    public var duplicateOf: Int64?
    /// Why it was linked to that primary.
    public var duplicateReason: String?
    /// Who set the category: `rules`, `user` (kept over the rules), or nil when none is set.
    public var categorySource: String? = nil
    /// The user's note on it.
    public var note: String? = nil
    /// The merchant as the parser captured it, before cleaning (card numbers masked); nil for a
    /// transaction stored before the ledger kept it.
    public var merchantRaw: String? = nil
    /// Who set the merchant: `user` (kept over the parser's) or nil.
    public var merchantSource: String? = nil
    /// Whether a person said it duplicates nothing: no run links it again.
    public var notDuplicate = false
    /// The learned category model's guess, for a transaction no decision-table row categorized
    /// (nil: not assessed), and its probability (0...1).
    public var learned: LearnedCategory? = nil
    /// Set when the model's guess became the category: its probability.
    public var categoryProbability: Double? = nil

    /// The learned model's guess for a transaction, and how sure it was.
    public struct LearnedCategory: Sendable, Equatable {
        public var label: CategoryModel.Label
        /// 0...1.
        public var probability: Double
    }

    /// The category to show: "Uncategorized" when none is assigned.
    public var categoryName: String { category ?? Self.uncategorized }
    /// The name given to transactions without a category.
    public static let uncategorized = "Uncategorized"

    /// The record as the parser writes it, for `TransactionWriter`; `duplicateOf` is left
    /// out (the ledger's link is a row id, which the caller writes as it needs).
    public var transaction: Transaction {
        Transaction(
            messageID: messageID, messageChannel: messageChannel, sender: sender, receivedAt: receivedAt, file: file,
            offset: offset, rule: rule, bank: bank, direction: direction, kind: kind, amount: amount,
            amountText: amountText, currency: currency, date: date, time: time, merchant: merchant,
            merchantRaw: merchantRaw, account: account.map { Transaction.AccountReference(accountType: $0.type, last4: $0.last4, cardKind: $0.cardKind) },
            balance: balanceText, reference: reference, channel: channel, category: category,
            subcategory: subcategory, confidence: confidence, status: status, idempotencyKey: idempotencyKey,
            duplicateOf: nil)
    }
}

extension LocalTime {
    /// Parses "HH:mm" or "HH:mm:ss"; nil for anything else.
    init?(iso text: String) {
        let parts = text.split(separator: ":").map { Int($0) }
        guard parts.count == 2 || parts.count == 3, let hour = parts[0], let minute = parts[1] else { return nil }
        if parts.count == 3 {
            guard let second = parts[2] else { return nil }
            self.init(hour: hour, minute: minute, second: second)
        } else {
            self.init(hour: hour, minute: minute)
        }
    }
}
