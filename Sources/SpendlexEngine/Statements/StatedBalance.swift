import Foundation

/// A balance of an account at the end of a day, as a bank statement states it (or its running
/// balances give it): what `spendlex import` keeps in the ledger and the journal exports assert.
public struct StatedBalance: Sendable, Equatable {
    /// The bank, as transactions name it.
    public var bank: String
    /// `account` or `card`, and the last digits, when the statement names the account.
    public var account: Transaction.AccountReference?
    /// ISO 4217 code.
    public var currency: String
    /// The day at whose end it holds.
    public var date: LocalDate
    /// Signed: negative when overdrawn or owed.
    public var amount: Decimal
    /// Whether it opens the statement (else it closes it).
    public var opening: Bool
    /// The statement file.
    public var file: String?

    /// Creates a balance.
    public init(bank: String, account: Transaction.AccountReference?, currency: String, date: LocalDate, amount: Decimal,
                opening: Bool, file: String?) {
        self.bank = bank
        self.account = account
        self.currency = currency
        self.date = date
        self.amount = amount
        self.opening = opening
        self.file = file
    }
}
