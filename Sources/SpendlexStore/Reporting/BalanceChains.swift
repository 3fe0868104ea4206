import Foundation
import SpendlexEngine
import SpendlexRules

/// A check that needs no labels: where a bank's messages state the balance after each
/// transaction, consecutive transactions of one account must chain — the previous balance,
/// less a debit or plus a credit, is the next balance. A break says a message is missing, or
/// that a field was read wrong (the amount, the balance, the direction, the account), and
/// where; the share that chains says how far a mailbox's results can be trusted.
///
/// Accounts are told apart by bank, account type, last digits and currency; transactions are
/// taken in time order (date, time, arrival, ledger id), duplicates left out. Card alerts state
/// either the available limit (down with a debit, like a balance) or the amount owed (up with
/// a debit): a pair chains under either, and the account's convention is the one most of its
/// pairs follow, so that a pair following the other one is a break.
public struct BalanceChains: Sendable, Equatable {
    /// One account's chain.
    public struct Account: Sendable, Equatable {
        /// "hdfc card 0000 INR", or the bank and currency alone when no account was named.
        public var name: String
        /// Transactions that state a balance.
        public var withBalance: Int
        /// Consecutive pairs of those.
        public var pairs: Int
        /// Pairs that chain.
        public var chained: Int
        /// Whether the balance goes down with a debit (a balance, an available limit), or up
        /// (an amount owed); nil when no pair decides.
        public var fallsWithDebits: Bool?
        /// The pairs that do not chain, in time order.
        public var breaks: [Break]
        /// The transactions that state a balance, in time order.
        public var transactions: [StoredTransaction] = []

        /// The share of pairs that chain, 0...1; nil without pairs.
        public var share: Double? { pairs == 0 ? nil : Double(chained) / Double(pairs) }
    }

    /// Two consecutive transactions whose balances do not chain.
    public struct Break: Sendable, Equatable {
        /// The earlier transaction.
        public var previous: StoredTransaction
        /// The later one.
        public var next: StoredTransaction
        /// What `next`'s balance would be if the two chained (under the account's convention).
        public var expected: Decimal
        /// `next`'s balance less `expected`: a fee, a missing message's amount, a misread.
        public var difference: Decimal
    }

    /// Every account with at least one transaction stating a balance, by name.
    public var accounts: [Account]

    /// Chains of `transactions` (primaries; duplicates are skipped).
    public init(transactions: [StoredTransaction]) {
        var groups: [String: [StoredTransaction]] = [:]
        var order: [String] = []
        for t in transactions where t.duplicateOf == nil && t.balance != nil && t.amount != nil && t.direction != nil {
            let name = Self.name(of: t)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(t)
        }
        accounts = order.sorted().map { name in Self.chain(name, groups[name]!.sorted(by: Self.earlier)) }
    }

    /// Pairs over all accounts, and those that chain.
    public var totals: (pairs: Int, chained: Int) {
        accounts.reduce((0, 0)) { ($0.0 + $1.pairs, $0.1 + $1.chained) }
    }

    static func name(of t: StoredTransaction) -> String {
        [t.bank, t.account.map { "\($0.type) \($0.last4)" }, t.currency].compactMap { $0 }.joined(separator: " ")
    }

    /// Time order: date, time (a transaction without one first in its day), arrival, ledger id.
    static func earlier(_ a: StoredTransaction, _ b: StoredTransaction) -> Bool {
        if a.date != b.date { return (a.date?.daysSinceEpoch ?? Int.min) < (b.date?.daysSinceEpoch ?? Int.min) }
        if a.time != b.time { return (a.time?.description ?? "") < (b.time?.description ?? "") }
        if a.receivedAt != b.receivedAt { return (a.receivedAt ?? .distantPast) < (b.receivedAt ?? .distantPast) }
        return a.id < b.id
    }

    static func chain(_ name: String, _ transactions: [StoredTransaction]) -> Account {
        // Each pair under both conventions: down with debits (a balance) or up (an amount owed).
        struct Pair {
            let previous: StoredTransaction
            let next: StoredTransaction
            let falling: Decimal
            let rising: Decimal
        }
        var pairs: [Pair] = []
        for (previous, next) in zip(transactions, transactions.dropFirst()) {
            let before = previous.balance!, amount = next.amount!
            let debit = next.direction == .debit
            pairs.append(Pair(previous: previous, next: next, falling: debit ? before - amount : before + amount,
                              rising: debit ? before + amount : before - amount))
        }
        let falls = pairs.filter { $0.next.balance == $0.falling }.count
        let rises = pairs.filter { $0.next.balance == $0.rising }.count
        let fallsWithDebits: Bool? = falls == 0 && rises == 0 ? nil : falls >= rises
        var account = Account(name: name, withBalance: transactions.count, pairs: pairs.count, chained: 0,
                              fallsWithDebits: fallsWithDebits, breaks: [], transactions: transactions)
        for pair in pairs {
            let expected = fallsWithDebits == false ? pair.rising : pair.falling
            if pair.next.balance == expected {
                account.chained += 1
            } else {
                account.breaks.append(Break(previous: pair.previous, next: pair.next, expected: expected,
                                            difference: pair.next.balance! - expected))
            }
        }
        return account
    }

    /// The text report: a line per account (the share that chains), then each break.
    public func text(limit: Int = 20) -> String {
        guard !accounts.isEmpty else { return "no transaction states a balance\n" }
        var out = ""
        for account in accounts {
            let share = account.share.map { String(format: " (%.0f%%)", $0 * 100) } ?? ""
            let convention = switch account.fallsWithDebits {
            case true?: ", the balance falls with debits"
            case false?: ", the amount owed rises with debits"
            case nil: ""
            }
            out += "\(account.name): \(account.chained) of \(account.pairs) consecutive balances chain\(share)"
                + ", \(account.withBalance) transactions with a balance\(convention)\n"
            for item in account.breaks.prefix(limit) {
                out += "  break: \(Self.describe(item.next)) after \(Self.describe(item.previous)):"
                    + " expected \(item.expected), off by \(item.difference)\n"
            }
            if account.breaks.count > limit { out += "  ... \(account.breaks.count - limit) more breaks\n" }
        }
        let totals = totals
        out += "\(totals.chained) of \(totals.pairs) pairs chain in \(accounts.count) \(accounts.count == 1 ? "account" : "accounts")\n"
        return out
    }

    /// "ledger id 15 (2026-05-02 22:26:01, debit 10290, balance 5000.00)".
    static func describe(_ t: StoredTransaction) -> String {
        let when = [t.date?.description, t.time?.description].compactMap { $0 }.joined(separator: " ")
        let amount = t.amountText ?? t.amount.map { "\($0)" } ?? "?"
        let balance = t.balanceText ?? t.balance.map { "\($0)" } ?? "?"
        return "ledger id \(t.id) (\(when.isEmpty ? "no date" : when), \(t.direction?.rawValue ?? "?") \(amount), balance \(balance))"
    }

    /// The JSON report: per account its counts, convention and breaks (ledger ids, balances as
    /// decimal strings).
    public func json() -> String {
        struct BreakBody: Encodable {
            let previous: Int64
            let next: Int64
            let expected: String
            let found: String
            let difference: String
        }
        struct AccountBody: Encodable {
            let account: String
            let with_balance: Int
            let pairs: Int
            let chained: Int
            let falls_with_debits: Bool?
            let breaks: [BreakBody]
        }
        struct Body: Encodable {
            let pairs: Int
            let chained: Int
            let accounts: [AccountBody]
        }
        let totals = totals
        let body = Body(pairs: totals.pairs, chained: totals.chained, accounts: accounts.map { account in
            AccountBody(account: account.name, with_balance: account.withBalance, pairs: account.pairs,
                        chained: account.chained, falls_with_debits: account.fallsWithDebits,
                        breaks: account.breaks.map {
                            BreakBody(previous: $0.previous.id, next: $0.next.id, expected: "\($0.expected)",
                                      found: $0.next.balanceText ?? "\($0.next.balance!)", difference: "\($0.difference)")
                        })
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
