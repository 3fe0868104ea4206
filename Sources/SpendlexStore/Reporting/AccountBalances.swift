import Foundation
import SpendlexEngine

/// What the ledger knows of each account's balance: the latest one an alert stated ("Avl bal Rs
/// 5,000" after a payment) or a statement closed on, when, and the gaps between two stated
/// balances that the transactions between them do not explain (a missed alert, with the amount
/// missing). The alerts' balances are snapshots kept with their transactions; `BalanceChains`
/// tells an account's convention (a balance or an available limit falls with a debit, an amount
/// owed rises) and where the chain breaks.
public struct AccountBalances: Sendable {
    /// One account.
    public struct Entry: Sendable {
        /// "hdfc account 0000 INR".
        public var name: String
        /// The transaction that stated the latest balance.
        public var latest: StoredTransaction
        /// What the stated figure is: "balance", "available limit" (a card's, falling with its
        /// debits), "amount owed", or "stated balance" when no pair of alerts tells.
        public var meaning: String
        /// Where the transactions between two stated balances do not explain the change.
        public var gaps: [BalanceChains.Break]
        /// The latest statement balance of the account, when a statement was imported.
        public var statement: StatedBalance?
    }

    /// Accounts by name.
    public var entries: [Entry]

    /// From the ledger's transactions (primaries) and the statement balances it keeps.
    public init(transactions: [StoredTransaction], statementBalances: [StatedBalance] = []) {
        let chains = BalanceChains(transactions: transactions)
        entries = chains.accounts.compactMap { account in
            guard let latest = account.transactions.last else { return nil }
            let owed = latest.account?.isLiability == true
            let meaning = switch account.fallsWithDebits {
            case true?: owed ? "available limit" : "balance"
            case false?: "amount owed"
            case nil: "stated balance"
            }
            let statement = statementBalances.filter {
                $0.bank == latest.bank && $0.account?.last4 == latest.account?.last4 && $0.currency == latest.currency && !$0.opening
            }.max { $0.date < $1.date }
            return Entry(name: account.name, latest: latest, meaning: meaning, gaps: account.breaks, statement: statement)
        }
    }

    /// A line per account (its latest balance, what it is, when, from which transaction), and its gaps.
    public func text() -> String {
        guard !entries.isEmpty else { return "no alert states a balance\n" }
        var out = ""
        for entry in entries {
            let t = entry.latest
            let when = [t.date?.description, t.time?.description].compactMap { $0 }.joined(separator: " ")
            out += "\(entry.name): \(entry.meaning) \(t.balanceText ?? t.balance.map { "\($0)" } ?? "?") \(t.currency ?? "")"
                + " on \(when.isEmpty ? "an unknown day" : when) (ledger id \(t.id))\n"
            if let statement = entry.statement {
                out += "  statement: closing balance \(statement.amount) \(statement.currency) on \(statement.date)\n"
            }
            for gap in entry.gaps {
                out += "  gap: \(Self.describe(gap))\n"
            }
        }
        let gaps = entries.reduce(0) { $0 + $1.gaps.count }
        out += "\(entries.count) \(entries.count == 1 ? "account" : "accounts") with a stated balance, "
            + "\(gaps) \(gaps == 1 ? "gap" : "gaps")\n"
        return out
    }

    /// "between ledger id 3 (2026-07-03) and 4 (2026-07-05): 30.00 INR less than the transactions
    /// between them explain (money out with no alert, or a fee)".
    static func describe(_ gap: BalanceChains.Break) -> String {
        let first = gap.previous, second = gap.next
        let missing = gap.difference < 0 ? -gap.difference : gap.difference
        let currency = second.currency.map { " " + $0 } ?? ""
        let side = gap.difference < 0 ? "less" : "more"
        return "between ledger id \(first.id) (\(first.date?.description ?? "no date")) and \(second.id) "
            + "(\(second.date?.description ?? "no date")): \(missing)\(currency) \(side) than their transactions explain"
            + " (expected \(gap.expected), stated \(second.balanceText ?? "\(second.balance!)"))"
    }

    /// The JSON form: per account the latest stated balance, its meaning, its transaction, the
    /// latest statement balance, and the gaps with the amount each leaves unexplained.
    public func json() -> String {
        struct GapBody: Encodable {
            let previous: Int64
            let next: Int64
            let expected: String
            let stated: String
            let unexplained: String
        }
        struct StatementBody: Encodable {
            let date: String
            let amount: String
        }
        struct EntryBody: Encodable {
            let account: String
            let meaning: String
            let balance: String
            let currency: String?
            let date: String?
            let time: String?
            let ledger_id: Int64
            let statement: StatementBody?
            let gaps: [GapBody]
        }
        let body = entries.map { entry in
            let t = entry.latest
            return EntryBody(account: entry.name, meaning: entry.meaning, balance: t.balanceText ?? "\(t.balance!)",
                             currency: t.currency, date: t.date?.description, time: t.time?.description, ledger_id: t.id,
                             statement: entry.statement.map { StatementBody(date: $0.date.description, amount: "\($0.amount)") },
                             gaps: entry.gaps.map {
                                 GapBody(previous: $0.previous.id, next: $0.next.id, expected: "\($0.expected)",
                                         stated: $0.next.balanceText ?? "\($0.next.balance!)", unexplained: "\($0.difference)")
                             })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(["accounts": body])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The end-of-day balances alerts state, as journal assertions: for a bank account (not a card,
    /// whose alerts state an available limit, not what is owed) whose chain of balances mostly holds
    /// (at least half of its pairs: the figures are that account's balance in that currency), on
    /// each day whose last transaction (in time order, among all of the account's) states one.
    /// Accounts with statement balances are left to those. The journal pads where its postings do
    /// not reach a balance (the first one; after a gap), and says so.
    static func journalAssertions(_ transactions: [StoredTransaction], statementBalances: [StatedBalance])
        -> [JournalWriter.Assertion]
    {
        let chains = BalanceChains(transactions: transactions)
        let vouched = Set(chains.accounts.filter { account in
            account.fallsWithDebits == true && account.pairs > 0 && account.chained * 2 >= account.pairs
                && account.transactions.first?.account?.type == "account"
        }.map(\.name))
        let withStatements = Set(statementBalances.map { "\($0.bank) \($0.account?.last4 ?? "") \($0.currency)" })
        var lastOfDay: [String: [LocalDate: StoredTransaction]] = [:]
        for t in transactions where t.duplicateOf == nil {
            let name = BalanceChains.name(of: t)
            guard vouched.contains(name), let date = t.date,
                  !withStatements.contains("\(t.bank) \(t.account?.last4 ?? "") \(t.currency ?? "")") else { continue }
            if let seen = lastOfDay[name]?[date], BalanceChains.earlier(t, seen) { continue }
            lastOfDay[name, default: [:]][date] = t
        }
        var assertions: [JournalWriter.Assertion] = []
        for (_, days) in lastOfDay {
            for (date, t) in days {
                guard let balance = t.balance, let currency = t.currency, JournalEntry.isCommodity(currency) else { continue }
                assertions.append(JournalWriter.Assertion(
                    account: JournalAccountName.account(bank: t.bank, account: t.account), currency: currency, date: date,
                    amount: balance, opening: false, stated: true))
            }
        }
        return assertions
    }
}
