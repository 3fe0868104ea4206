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

    /// The whole journal; `leftOut` become comments at the end.
    func journal(_ entries: [JournalEntry], leftOut: [JournalEntry.LeftOut]) -> String {
        var out = ""
        switch dialect {
        case .beancount:
            out += "; Exported by spendlex from the ledger: one transaction per primary record.\n"
            out += "option \"title\" \"Spendlex ledger\"\n\n"
        case .ledger:
            out += "; Exported by spendlex from the ledger: one transaction per primary record.\n\n"
        }
        out += declarations(entries)
        for entry in entries {
            out += "\n" + transaction(entry)
        }
        if !leftOut.isEmpty {
            out += "\n; Left out: not a whole transaction.\n"
            for item in leftOut { out += "; \(JournalEntry.oneLine(item.description))\n" }
        }
        return out
    }

    /// `open` directives (beancount) or `account` and `commodity` declarations (ledger-cli).
    func declarations(_ entries: [JournalEntry]) -> String {
        var firstUse: [String: LocalDate] = [:]
        for entry in entries {
            for account in [entry.account, entry.counterAccount] {
                if let seen = firstUse[account], seen <= entry.date { continue }
                firstUse[account] = entry.date
            }
        }
        let currencies = Set(entries.map(\.currency)).sorted()
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
