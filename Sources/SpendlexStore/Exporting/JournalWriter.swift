import Foundation
import SpendlexEngine

/// Writes journal entries as beancount or ledger-cli text: account declarations first (each
/// dated by its first use), then one transaction per entry, each in its own currency (no
/// conversion), with the message id, ledger id and time as metadata.
struct JournalWriter: Sendable {
    /// The two dialects.
    enum Dialect: Sendable {
        case beancount, ledger
    }

    let dialect: Dialect

    /// A balance a statement states for an account at the end of a day.
    struct Assertion: Sendable, Equatable {
        let account: String
        let currency: String
        /// The day at whose end it holds.
        let date: LocalDate
        let amount: Decimal
        /// An opening balance: the journal's own postings before it may not reach it (the
        /// account's history before the ledger began), so it is padded to.
        let opening: Bool
        /// A balance an alert stated (not a statement): padded to where the postings do not reach
        /// it (the account's first, or one after an alert that never came), with a comment saying
        /// how much the postings left unexplained.
        var stated = false
    }

    /// The equity account opening balances are padded from.
    static let openingBalances = "Equity:Opening-Balances"
    /// The account a gap between two balances alerts stated is padded from.
    static let unexplained = "Equity:Unexplained"

    /// The whole journal; `leftOut` become comments at the end; `assertions` are written after
    /// the transactions of their day.
    func journal(_ entries: [JournalEntry], leftOut: [JournalEntry.LeftOut], assertions: [Assertion] = []) -> String {
        var out = ""
        switch dialect {
        case .beancount:
            out += "; Exported by spendlex from the ledger: one transaction per primary record.\n"
            out += "option \"title\" \"Spendlex ledger\"\n\n"
        case .ledger:
            out += "; Exported by spendlex from the ledger: one transaction per primary record.\n\n"
        }
        out += declarations(entries, assertions: assertions)
        // Assertions in day order, each after its day's transactions: ledger-cli checks them in
        // the order it reads them. The running sums say where an opening balance needs padding.
        var pending = assertions.sorted { ($0.date, $0.account, $0.opening ? 0 : 1) < ($1.date, $1.account, $1.opening ? 0 : 1) }[...]
        var sums: [String: Decimal] = [:]
        var asserted: Set<String> = []
        func flush(through date: LocalDate?) {
            while let next = pending.first, date.map({ next.date < $0 }) ?? true {
                pending.removeFirst()
                let key = "\(next.account) \(next.currency)"
                out += "\n" + assertion(next, sum: sums[key, default: 0], first: asserted.insert(key).inserted)
                // After a pad or an assignment, the account holds what the statement says.
                sums["\(next.account) \(next.currency)"] = next.amount
            }
        }
        for entry in entries {
            flush(through: entry.date)
            out += "\n" + transaction(entry)
            if let amount = Decimal(string: entry.magnitude, locale: Locale(identifier: "en_US_POSIX")) {
                sums["\(entry.account) \(entry.currency)", default: 0] += entry.moneyOut ? -amount : amount
            }
        }
        flush(through: nil)
        if !leftOut.isEmpty {
            out += "\n; Left out: not a whole transaction.\n"
            for item in leftOut { out += "; \(JournalEntry.oneLine(item.description))\n" }
        }
        return out
    }

    /// `open` directives (beancount) or `account` and `commodity` declarations (ledger-cli).
    func declarations(_ entries: [JournalEntry], assertions: [Assertion] = []) -> String {
        var firstUse: [String: LocalDate] = [:]
        func use(_ account: String, on date: LocalDate) {
            if let seen = firstUse[account], seen <= date { return }
            firstUse[account] = date
        }
        for entry in entries {
            for account in [entry.account, entry.counterAccount] { use(account, on: entry.date) }
        }
        for assertion in assertions where assertion.opening {
            use(assertion.account, on: assertion.date)
            use(Self.openingBalances, on: assertion.date)
        }
        // A stated balance may pad from either account (its first, or after a gap).
        for assertion in assertions where assertion.stated {
            use(assertion.account, on: assertion.date)
            use(Self.openingBalances, on: assertion.date)
            use(Self.unexplained, on: assertion.date)
        }
        let currencies = Set(entries.map(\.currency) + assertions.map(\.currency)).sorted()
        var out = ""
        switch dialect {
        case .beancount:
            if let first = firstUse.values.min() {
                for currency in currencies { out += "\(first) commodity \(currency)\n" }
            }
            for (account, date) in firstUse.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
                out += "\(date) open \(account)\n"
            }
        case .ledger:
            for currency in currencies { out += "commodity \(currency)\n" }
            for account in firstUse.keys.sorted() { out += "account \(account)\n" }
            // Declared, so that `ledger --pedantic` accepts the metadata too.
            for tag in Self.metadataKeys { out += "tag \(tag)\n" }
        }
        return out
    }

    /// An assertion of a statement balance, `sum` being what the journal's postings give the
    /// account by then. beancount: a `pad` (only where `sum` falls short of an opening balance:
    /// an unused pad is an error) and a `balance` the next day (it holds at the start of its day).
    /// ledger-cli: an opening balance assigned from the equity account, a closing one asserted
    /// on a posting of nothing.
    func assertion(_ a: Assertion, sum: Decimal, first: Bool = true) -> String {
        let amount = "\(a.amount) \(a.currency)"
        if a.stated { return statedAssertion(a, sum: sum, first: first) }
        switch dialect {
        case .beancount:
            let next = LocalDate(daysSinceEpoch: a.date.daysSinceEpoch + 1) ?? a.date
            var text = ""
            if a.opening, sum != a.amount { text += "\(a.date) pad \(a.account) \(Self.openingBalances)\n" }
            text += "\(next) balance \(a.account)  \(amount)\n"
            return text
        case .ledger:
            if a.opening {
                return "\(a.date) * Opening balance (statement)\n    \(a.account)  = \(amount)\n    \(Self.openingBalances)\n"
            }
            return "\(a.date) * Closing balance (statement)\n    \(a.account)  0 \(a.currency) = \(amount)\n"
        }
    }

    /// An alert's balance at the end of its day: asserted where the postings reach it; else padded
    /// to (beancount's `pad`, ledger-cli's assignment) from the opening balances for the account's
    /// first, from `Equity:Unexplained` for a later one (an alert that never came, a fee), with a
    /// comment giving the difference.
    func statedAssertion(_ a: Assertion, sum: Decimal, first: Bool) -> String {
        let amount = "\(a.amount) \(a.currency)"
        let gap = a.amount - sum
        let source = first ? Self.openingBalances : Self.unexplained
        let comment = gap == 0 ? "" : first
            ? "; the first balance an alert stated for the account; the postings before it leave \(gap) \(a.currency) (its history before the ledger)\n"
            : "; a gap: the postings since the last balance an alert stated leave \(gap) \(a.currency) unexplained (an alert that never came, a fee)\n"
        switch dialect {
        case .beancount:
            let next = LocalDate(daysSinceEpoch: a.date.daysSinceEpoch + 1) ?? a.date
            var text = comment
            if gap != 0 { text += "\(a.date) pad \(a.account) \(source)\n" }
            return text + "\(next) balance \(a.account)  \(amount)\n"
        case .ledger:
            if gap != 0 {
                return comment + "\(a.date) * Balance stated by an alert\n    \(a.account)  = \(amount)\n    \(source)\n"
            }
            return "\(a.date) * Balance stated by an alert\n    \(a.account)  0 \(a.currency) = \(amount)\n"
        }
    }

    /// The metadata keys a transaction may carry.
    static let metadataKeys = ["message", "ledger-id", "time", "reference"]

    func transaction(_ e: JournalEntry) -> String {
        let flag = e.cleared ? "*" : "!"
        let t = e.source
        var metadata: [(String, String)] = [("message", t.messageID), ("ledger-id", String(t.id))]
        if let time = t.time { metadata.append(("time", time.description)) }
        if let reference = t.reference { metadata.append(("reference", reference)) }
        // Money out: the counter account (an expense) goes up, the card or account down; money
        // in the other way round. The counter account first, the usual reading order.
        let postings = [(e.counterAccount, e.moneyOut ? e.magnitude : "-" + e.magnitude),
                        (e.account, e.moneyOut ? "-" + e.magnitude : e.magnitude)]
        var text: String
        switch dialect {
        case .beancount:
            text = "\(e.date) \(flag) \(Self.quoted(e.payee)) \(Self.quoted(e.narration))\n"
            for (key, value) in metadata { text += "  \(key): \(Self.quoted(value))\n" }
        case .ledger:
            text = "\(e.date) \(flag) \(Self.ledgerPayee(e.payee))\n"
            text += "    ; \(JournalEntry.oneLine(e.narration))\n"
            for (key, value) in metadata { text += "    ; \(key): \(JournalEntry.oneLine(value))\n" }
        }
        let indent = dialect == .beancount ? "  " : "    "
        for (account, amount) in postings {
            let padding = String(repeating: " ", count: max(2, 46 - account.count - amount.count))
            text += "\(indent)\(account)\(padding)\(amount) \(e.currency)\n"
        }
        return text
    }

    /// A beancount string literal: backslashes and quotes escaped, on one line.
    static func quoted(_ text: String) -> String {
        "\"" + JournalEntry.oneLine(text).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A ledger-cli payee: one line, and not opening with `(`, which ledger-cli reads as a code.
    static func ledgerPayee(_ text: String) -> String {
        let line = JournalEntry.oneLine(text)
        return line.hasPrefix("(") ? "[" + line.dropFirst() : line
    }
}
