/// Which way money moved, seen from the account holder.
public enum Direction: String, Sendable, Hashable, CaseIterable {
    case debit, credit
}

/// What kind of transaction a parser recognises.
public enum TransactionKind: String, Sendable, Hashable, CaseIterable {
    case purchase, refund, reversal, transfer, withdrawal, deposit
    case billPayment = "bill_payment"
    case cardPayment = "card_payment"
    case interest, fee, declined, cashback, emi, salary, dividend, mandate, other
}

/// What kind of card a card is: whose money it spends. A credit card's spending is owed to the
/// bank (a liability), a debit card's leaves the bank account it draws on (an asset), a prepaid
/// card's leaves its own loaded balance (an asset).
public enum CardKind: String, Sendable, Hashable, CaseIterable {
    case credit, debit, prepaid
}

/// The fields a parser may capture (`(?<amount>…)`, `%{AMOUNT:amount}`) or an example may expect.
public enum FieldName: String, Sendable, Hashable, CaseIterable {
    /// The transaction amount; required for a complete transaction.
    case amount
    /// A currency symbol or code written in the message.
    case currency
    /// The transaction date.
    case date
    /// The transaction time.
    case time
    /// The merchant or counterparty.
    case merchant
    /// A bank account reference (mask or number); normalized to its last digits.
    case account
    /// A card reference (mask or number); normalized to its last digits.
    case card
    /// Last digits of the account or card, whichever the parser's `account_type` says.
    case last4
    /// The balance or available limit after the transaction.
    case balance
    /// A transaction reference: UPI RRN, cheque number, authorisation code.
    case reference
    /// The payment channel: card, upi, neft, imps, rtgs, atm, ach, wire, ...
    case channel
    /// A word saying which way the money went ("debited", "credited"), for parsers that serve both.
    case direction

    /// Fields whose normalization failing makes the message an error rather than a partial transaction.
    public var isStrict: Bool {
        switch self {
        case .amount, .date, .time: true
        default: false
        }
    }
}

/// The keys an example's `expect` mapping may name: the transaction's output fields.
public enum ExpectedField: String, Sendable, Hashable, CaseIterable {
    case amount, currency, date, time, merchant, last4, balance, reference, channel, direction, kind
    case accountType = "account_type"
    case cardKind = "card_kind"
    case status
}
