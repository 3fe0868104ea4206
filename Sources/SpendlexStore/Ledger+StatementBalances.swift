import Foundation
import GRDB
import SpendlexEngine

extension Ledger {
    /// Keeps statements' balances; one already kept (same account, day and kind) stays as it is.
    public func record(_ balances: [StatedBalance]) throws {
        guard !balances.isEmpty else { return }
        try pool.write { db in
            for balance in balances {
                try db.execute(sql: """
                    INSERT INTO statement_balances (bank, account_type, account_last4, currency, date, amount, kind, file)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """, arguments: [balance.bank, balance.account?.type, balance.account?.last4, balance.currency,
                                     balance.date.description, "\(balance.amount)", balance.opening ? "opening" : "closing",
                                     balance.file.map(CardNumberMasker.mask)])
            }
        }
    }

    /// Every statement balance kept, by account and day.
    public func statementBalances() throws -> [StatedBalance] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT bank, account_type, account_last4, currency, date, amount, kind, file FROM statement_balances
                ORDER BY bank, account_type, account_last4, currency, date, kind DESC
                """).compactMap { row in
                guard let date = LocalDate(iso: row["date"]),
                      let amount = Decimal(string: row["amount"], locale: Locale(identifier: "en_US_POSIX")) else { return nil }
                let type: String? = row["account_type"]
                let last4: String? = row["account_last4"]
                return StatedBalance(
                    bank: row["bank"], account: type.flatMap { type in last4.map { .init(accountType: type, last4: $0) } },
                    currency: row["currency"], date: date, amount: amount, opening: row["kind"] == "opening", file: row["file"])
            }
        }
    }
}
