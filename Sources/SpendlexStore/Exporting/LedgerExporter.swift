import Foundation
import SpendlexEngine

/// Writes stored transactions in one export format.
///
/// CSV and JSON Lines reuse `TransactionWriter`, so an export reads like `spendlex parse`
/// output; JSON Lines adds the ledger's ids. Journals hold one balanced transaction per
/// record; a record without amount, currency, date or direction is left out, named in a
/// comment at the end and in `Export.leftOut`.
public struct LedgerExporter: Sendable {
    /// The format.
    public let format: ExportFormat

    /// An exporter in `format`.
    public init(format: ExportFormat) {
        self.format = format
    }

    /// What an export produced.
    public struct Export: Sendable {
        /// The whole output, UTF-8 text.
        public var text: String
        /// The transactions written.
        public var written: Int
        /// Transactions a journal could not hold, each as "ledger id N (message ID): reason".
        public var leftOut: [String]
    }

    /// `transactions` (as `Ledger.transactions` returns them: ordered) in this format; a journal
    /// asserts the statement `balances` of the accounts its transactions use (beancount's
    /// `balance`, after a `pad` from `Equity:Opening-Balances` where the journal's own postings
    /// do not reach a statement's opening balance; ledger-cli's `= AMOUNT`), and the end-of-day
    /// balances the alerts of a bank account stated (`AccountBalances.journalAssertions`).
    public func export(_ transactions: [StoredTransaction], balances: [StatedBalance] = []) -> Export {
        switch format {
        case .csv, .jsonl:
            return Export(text: header + rows(transactions), written: transactions.count, leftOut: [])
        case .beancount, .ledger:
            let own = OwnTransfers.pairs(transactions)
            let accounts = JournalAccounts(transactions)
            var entries: [JournalEntry] = []
            var leftOut: [JournalEntry.LeftOut] = []
            for t in transactions {
                switch JournalEntry.make(t, account: accounts.name(of: t), ownTransfer: own[t.id] != nil) {
                case .success(let entry): entries.append(entry)
                case .failure(let reason): leftOut.append(reason)
                }
            }
            let writer = JournalWriter(dialect: format == .beancount ? .beancount : .ledger)
            let used = Set(entries.map(\.account))
            let fromStatements = balances.compactMap { balance -> JournalWriter.Assertion? in
                let account = JournalAccountName.account(
                    bank: balance.bank, account: balance.account.map { StoredTransaction.Account(type: $0.type, last4: $0.last4) })
                guard used.contains(account), JournalEntry.isCommodity(balance.currency) else { return nil }
                return JournalWriter.Assertion(account: account, currency: balance.currency, date: balance.date,
                                               amount: balance.amount, opening: balance.opening)
            }
            // The balances alerts stated, where their account's chain vouches for them.
            let fromAlerts = AccountBalances.journalAssertions(transactions, statementBalances: balances)
                .filter { used.contains($0.account) && !accounts.drawnOnByCards.contains($0.account) }
            let assertions = fromStatements + fromAlerts
            return Export(text: writer.journal(entries, leftOut: leftOut, assertions: assertions), written: entries.count,
                          leftOut: leftOut.map(\.description))
        }
    }

    /// What a csv export starts with (its header line); nothing for the other formats.
    public var header: String {
        format == .csv ? TransactionWriter(format: .csv).header : ""
    }

    /// The rows of a csv or jsonl export without its header, so that an export can be written a
    /// page of transactions at a time: `header`, then `rows` of each page. Empty for journals,
    /// which are written whole by `export`.
    public func rows(_ transactions: [StoredTransaction]) -> String {
        switch format {
        case .csv:
            let writer = TransactionWriter(format: .csv)
            var text = ""
            for t in transactions { text += writer.csvLine(t.transaction) }
            return text
        case .jsonl:
            var text = ""
            for t in transactions { text += Self.jsonLine(t) }
            return text
        case .beancount, .ledger:
            return ""
        }
    }

    /// The `spendlex parse` record with the ledger's ids: `duplicate_of` holds the primary's
    /// ledger id (a number, or null for a primary) and `ledger_id` follows it.
    static func jsonLine(_ t: StoredTransaction) -> String {
        var line = TransactionWriter(format: .jsonl).jsonLine(t.transaction)
        // The record ends with `"duplicate_of":null}` (the writer's last field, left empty by
        // `StoredTransaction.transaction`); a test keeps that true.
        let tail = "\"duplicate_of\":null}\n"
        precondition(line.hasSuffix(tail), "TransactionWriter's record no longer ends with duplicate_of")
        line.removeLast(tail.utf8.count)
        return line + "\"duplicate_of\":\(t.duplicateOf.map(String.init) ?? "null"),\"ledger_id\":\(t.id)}\n"
    }
}
