import Foundation
import PCRE2
import SpendlexRules

/// A parsed transaction: the record Spendlex writes, one per transactional message.
public struct Transaction: Sendable, Equatable {
    /// Whether the record can be trusted as is.
    public enum Status: String, Sendable {
        /// Complete, confident.
        case ok
        /// Complete but low confidence: a person should look.
        case review
        /// A field the record needs (the amount) is missing.
        case pending
    }

    /// A card or account, by its last digits only: never a full number.
    public struct AccountReference: Sendable, Equatable {
        /// `card` or `account`.
        public var type: String
        /// The last 4 digits (5 for 15-digit cards).
        public var last4: String
        /// A card's kind, when the parser or the text says (a card of no known kind: nil; an
        /// account: always nil). Journals post a debit or prepaid card's spending from an asset,
        /// a credit card's (or a card of no known kind) to a liability.
        public var cardKind: CardKind? = nil
    }

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
    /// The amount, exact, as written (trailing zeros kept in `amountText`).
    public var amount: Decimal?
    /// The amount as a plain decimal string: "10290", "30.00".
    public var amountText: String?
    /// ISO 4217.
    public var currency: String?
    /// The transaction's date, as written or from the arrival time.
    public var date: LocalDate?
    /// The transaction's local time, when known.
    public var time: LocalTime?
    /// The merchant or counterparty, cleaned for display and grouping (spaces collapsed; surrounding
    /// quotes, padding and trailing noise words such as "on", "Avl Bal" removed); card numbers masked.
    public var merchant: String?
    /// The merchant as the parser captured it, before cleaning; card numbers masked. Kept beside
    /// `merchant` so that a rule author sees what the pattern took, and a user what the bank wrote.
    public var merchantRaw: String? = nil
    /// The card or account, by its last digits.
    public var account: AccountReference?
    /// Balance or available limit after the transaction, as a plain decimal string.
    public var balance: String?
    /// A transaction reference (UPI RRN, authorisation code); card numbers masked.
    public var reference: String?
    /// The payment channel: card, upi, neft, ...
    public var channel: String?
    /// Spending category, once categorization assigns one.
    public var category: String?
    /// Spending subcategory.
    public var subcategory: String?
    /// The id of the categorization row that decided the category (for the ledger's mapping statistics).
    public var categoryRow: String? = nil
    /// How sure the parse is, 0...1 with two decimals (a score, not money): `confidenceParts.score`.
    public var confidence: Double
    /// The doubts behind `confidence`, for `spendlex explain`.
    public var confidenceParts: Confidence
    /// ok, review or pending.
    public var status: Status
    /// Stable across runs for the same message and parse: re-running adds nothing twice.
    public var idempotencyKey: String
    /// The record this one duplicates, when known.
    public var duplicateOf: String?
}

/// What became of one message. Every message ends as exactly one of these.
public enum ParseOutcome: Sendable {
    /// A transaction.
    case transaction(Transaction)
    /// A non-transaction recognised by an ignore rule (or a bank's subject filter).
    case ignored(rule: String, bank: String)
    /// No parser matched. `banks` are the banks the message was routed to; `withoutAmount` the
    /// parsers that matched but found no amount (there is no transaction without one).
    case unmatched(banks: [String], routedBySender: Bool, withoutAmount: [String] = [])
    /// A parser matched but a field could not be normalized.
    case failed(rule: String, field: FieldName, error: FieldError)
    /// Matching hit a PCRE2 limit: a hostile rule or message.
    case matchLimit(rule: String, error: MatchError)

    /// The transaction, if any.
    public var transaction: Transaction? {
        if case .transaction(let transaction) = self { return transaction }
        return nil
    }

    /// A short reason for outcomes that are not transactions.
    public var reason: String {
        switch self {
        case .transaction(let transaction): "transaction by \(transaction.rule)"
        case .ignored(let rule, _): "ignored by \(rule)"
        case .unmatched(let banks, let routed, let withoutAmount):
            (banks.isEmpty ? "unmatched: no bank's sender or detect pattern fits"
                : "unmatched: no parser of \(banks.joined(separator: ", ")) matched\(routed ? "" : " (routed by text)")")
                + (withoutAmount.isEmpty ? "" : "; \(withoutAmount.joined(separator: ", ")) matched but found no amount")
        case .failed(let rule, let field, let error): "\(rule): invalid \(field.rawValue): \(error.message)"
        case .matchLimit(let rule, let error): "\(rule): match limit hit (\(error))"
        }
    }
}

extension Transaction {
    /// How many of the fields a message states were read: amount, currency, direction, date,
    /// time, merchant, account, balance, reference. Compares two readings of one message.
    var fieldCount: Int {
        [amount != nil, currency != nil, direction != nil, date != nil, time != nil, merchant != nil,
         account != nil, balance != nil, reference != nil].reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}
