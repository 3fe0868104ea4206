import Foundation

/// How values are written into IMAP commands.
public enum IMAPSyntax {
    /// A quoted string (`"INBOX"`, `"a\"b"`); nil when the text holds a line break or NUL,
    /// which no quoted string may (a literal is needed then).
    public static func quoted(_ text: String) -> String? {
        guard !text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { return nil }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A mailbox name in IMAP's modified UTF-7 (RFC 3501 section 5.1.3): ASCII as it is, `&`
    /// as `&-`, other characters as UTF-16 in base64 with `,` for `/`, between `&` and `-`.
    /// `Entrées` → `Entr&AOk-es`.
    public static func mailboxName(_ name: String) -> String {
        var out = ""
        var pending: [UInt16] = []
        func flush() {
            guard !pending.isEmpty else { return }
            var bytes: [UInt8] = []
            for unit in pending { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            let base64 = Data(bytes).base64EncodedString().replacingOccurrences(of: "/", with: ",")
                .replacingOccurrences(of: "=", with: "")
            out += "&" + base64 + "-"
            pending = []
        }
        for scalar in name.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value <= 0x7E {
                flush()
                out += scalar == "&" ? "&-" : String(scalar)
            } else {
                pending += Array(String(scalar).utf16)
            }
        }
        flush()
        return out
    }

    /// UIDs as a sequence set, runs collapsed: `[1, 2, 3, 7, 9, 10]` → `1:3,7,9:10`.
    public static func sequenceSet(_ uids: [UInt32]) -> String {
        var parts: [String] = []
        var index = 0
        let sorted = uids.sorted()
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count && sorted[end + 1] <= sorted[end] + 1 { end += 1 }
            parts.append(sorted[index] == sorted[end] ? "\(sorted[index])" : "\(sorted[index]):\(sorted[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }

    /// A date as SEARCH takes it: `1-Feb-2026`.
    public static func searchDate(_ date: DateComponents) -> String? {
        guard let year = date.year, let month = date.month, let day = date.day, (1...12).contains(month) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(day)-\(months[month - 1])-\(year)"
    }
}

/// The searches that find a mailbox's bank mail: `FROM` terms for the rule files' sender
/// addresses and domains, joined with `OR`, a few dozen to a command.
///
/// IMAP's `FROM x` matches when `x` occurs anywhere in the From header (case-insensitive), so a
/// domain `@hdfcbank.net` finds every address at it, and an address whose domain is already a
/// term adds nothing: such terms are dropped. The server's answer is a superset of what the
/// rules route by sender (`@dbs.com` also finds `x@dbs.com.sg`); the parser decides the rest.
public struct IMAPSenderSearch: Sendable, Equatable {
    /// The `FROM` terms, lower-cased, none containing another.
    public let terms: [String]
    /// Terms per command: Gmail and others limit a command's length.
    public let termsPerCommand: Int

    /// Terms from the rule files' `senders`: email addresses and `@domain` entries; SMS sender
    /// ids and app package names (no `@`) are not mail. A wildcard pattern gives the longest
    /// literal run after its `@` that names a domain (`*@*.kotak.com` → `kotak.com`), else nothing.
    public init(senders: [String], termsPerCommand: Int = 40) {
        var found = Set<String>()
        for sender in senders {
            let lowered = sender.lowercased().trimmingCharacters(in: .whitespaces)
            guard let at = lowered.lastIndex(of: "@") else { continue }
            if lowered.contains("*") || lowered.contains("?") {
                // The longest literal run after the @ that holds a dot: a domain or its tail.
                let domain = lowered[lowered.index(after: at)...]
                let runs = domain.split(whereSeparator: { $0 == "*" || $0 == "?" })
                if let run = runs.max(by: { $0.count < $1.count }), run.contains("."),
                   run.trimmingCharacters(in: CharacterSet(charactersIn: ".")).contains(".") {
                    found.insert(run.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
                }
                continue
            }
            guard lowered.count > 1, lowered[lowered.index(after: at)...].contains(".") else { continue }
            found.insert(lowered)
        }
        // Shortest first: a term that contains a kept one adds nothing.
        var kept: [String] = []
        for term in found.sorted(by: { ($0.count, $0) < ($1.count, $1) }) where !kept.contains(where: term.contains) {
            kept.append(term)
        }
        terms = kept.sorted()
        self.termsPerCommand = max(1, termsPerCommand)
    }

    /// The search keys of each command, for messages with UID `from` or above (and arrived
    /// on or after `since`): `UID 120:* SINCE 1-Feb-2026 OR FROM "a" FROM "b"`.
    public func criteria(fromUID from: UInt32, since: String? = nil) -> [String] {
        var prefix = "UID \(max(from, 1)):*"
        if let since { prefix += " SINCE \(since)" }
        guard !terms.isEmpty else { return [] }
        return stride(from: 0, to: terms.count, by: termsPerCommand).map { start in
            let group = terms[start..<min(start + termsPerCommand, terms.count)].map { "FROM " + (IMAPSyntax.quoted($0) ?? "\"\"") }
            // OR takes two keys: OR a OR b c.
            var keys = group.last!
            for key in group.dropLast().reversed() { keys = "OR \(key) \(keys)" }
            return prefix + " " + keys
        }
    }

    /// Every message from `from` on (`--all-senders`).
    public static func everything(fromUID from: UInt32, since: String? = nil) -> [String] {
        var keys = "UID \(max(from, 1)):*"
        if let since { keys += " SINCE \(since)" }
        return [keys]
    }
}
