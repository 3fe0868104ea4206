import Foundation
import GRDB
import SpendlexEngine

/// A balance a bank statement states for an account at the end of a day: what the journal
/// exports assert (`balance` in beancount, `= AMOUNT` in ledger-cli).
public struct StatementBalanceRecord: Sendable, Equatable {
    /// Opening (before the statement's first entry) or closing (after its last).
    public enum Kind: String, Sendable {
        case opening, closing
    }

    /// The bank, as transactions name it.
    public var bank: String
    /// The account or card, when the statement names one.
    public var account: StoredTransaction.Account?
    /// ISO 4217 code.
    public var currency: String
    /// The day at whose end the balance holds.
    public var date: LocalDate
    /// The signed amount (negative: overdrawn, or owed on a card).
    public var amount: Decimal
    /// Opening or closing.
    public var kind: Kind
    /// The statement file.
    public var file: String?

    /// Creates a record.
    public init(bank: String, account: StoredTransaction.Account?, currency: String, date: LocalDate, amount: Decimal,
                kind: Kind, file: String?) {
        self.bank = bank
        self.account = account
        self.currency = currency
        self.date = date
        self.amount = amount
        self.kind = kind
        self.file = file
    }
}

extension Ledger {
    /// Keeps statements' balances; one already kept (same account, day and kind) stays as it is.
    public func record(_ balances: [StatementBalanceRecord]) throws {
        guard !balances.isEmpty else { return }
        try pool.write { db in
            for balance in balances {
                try db.execute(sql: """
                    INSERT INTO statement_balances (bank, account_type, account_last4, currency, date, amount, kind, file)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """, arguments: [balance.bank, balance.account?.type, balance.account?.last4, balance.currency,
                                     balance.date.description, "\(balance.amount)", balance.kind.rawValue,
                                     balance.file.map(CardNumberMasker.mask)])
            }
        }
    }

    /// Every statement balance kept, by account and day.
    public func statementBalances() throws -> [StatementBalanceRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT bank, account_type, account_last4, currency, date, amount, kind, file FROM statement_balances
                ORDER BY bank, account_type, account_last4, currency, date, kind DESC
                """).compactMap { row in
                guard let date = LocalDate(iso: row["date"]), let amount = Decimal(string: row["amount"], locale: Locale(identifier: "en_US_POSIX")),
                      let kind = StatementBalanceRecord.Kind(rawValue: row["kind"]) else { return nil }
                let type: String? = row["account_type"]
                let last4: String? = row["account_last4"]
                return StatementBalanceRecord(
                    bank: row["bank"], account: type.flatMap { type in last4.map { StoredTransaction.Account(type: type, last4: $0) } },
                    currency: row["currency"], date: date, amount: amount, kind: kind, file: row["file"])
            }
        }
    }
}
