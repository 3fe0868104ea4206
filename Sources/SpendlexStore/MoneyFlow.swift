import SpendlexRules

/// Where a transaction's money goes: what a journal posts it against and how a report
/// counts it. Shared by export and report so that the two always agree.
public enum MoneyFlow: String, Sendable, Hashable, CaseIterable {
    /// Spending: a debit (expenses up, the account down).
    case expense
    /// Spending given back: a refund or reversal credited (expenses down).
    case refund
    /// Money in that is not spending given back: salary, interest, a transfer received.
    case income
    /// Between the user's own accounts (a card bill paid from a bank account): neither
    /// income nor spending, posted to `Equity:Transfers` on both sides.
    case transfer
    /// No money moved: a declined payment. Kept in the ledger (the alert happened, and a run of
    /// declines says something), counted on its own, in no money total and no journal.
    case declined

    /// The flow of a transaction going `direction`, of `kind` (nil: unknown kind).
    public init(direction: Direction, kind: TransactionKind?) {
        if kind == .cardPayment {
            self = .transfer
            return
        }
        if kind == .declined {
            self = .declined
            return
        }
        switch direction {
        case .debit: self = .expense
        case .credit: self = kind == .refund || kind == .reversal ? .refund : .income
        }
    }
}
