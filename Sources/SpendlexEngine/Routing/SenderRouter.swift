import SpendlexRules

/// Routes a message's sender to the banks that may have sent it, before any body is
/// decoded or matched. Exact addresses, SMS ids and app package names are hash lookups; domains are looked
/// up for the sender's domain and each parent domain; wildcard patterns are tried last.
struct SenderRouter: Sendable {
    private var exact: [String: [Int]] = [:]
    private var domains: [String: [Int]] = [:]
    private var globs: [(pattern: [UInt8], bank: Int)] = []

    init(banks: [BankRules]) {
        for (index, bank) in banks.enumerated() where !bank.isFallback {
            for sender in bank.senders {
                let pattern = sender.value.lowercased()
                if pattern.contains("*") || pattern.contains("?") {
                    globs.append((Array(pattern.utf8), index))
                } else if pattern.hasPrefix("@") {
                    domains[String(pattern.dropFirst()), default: []].append(index)
                } else if !pattern.contains("@") && pattern.contains(".") {
                    // A bare dotted name is a mail domain ("hdfcbank.net") or an app's package
                    // name, the sender of its push notifications ("de.ingdiba.bankingapp"): both.
                    domains[pattern, default: []].append(index)
                    exact[pattern, default: []].append(index)
                } else {
                    exact[pattern, default: []].append(index)
                }
            }
        }
    }

    /// Indices of the banks whose sender patterns match, in bank order; empty when none does.
    func banks(forSender rawSender: String) -> [Int] {
        let sender = Self.normalize(rawSender)
        guard !sender.isEmpty else { return [] }
        var found: [Int] = exact[sender] ?? []
        if let at = sender.lastIndex(of: "@") {
            var domain = Substring(sender[sender.index(after: at)...])
            while !domain.isEmpty {
                found += domains[String(domain)] ?? []
                guard let dot = domain.firstIndex(of: ".") else { break }
                domain = domain[domain.index(after: dot)...]
            }
        }
        if !globs.isEmpty {
            let bytes = Array(sender.utf8)
            for glob in globs where Self.glob(glob.pattern, matches: bytes) {
                found.append(glob.bank)
            }
        }
        guard found.count > 1 else { return found }
        return Array(Set(found)).sorted()
    }

    /// `"HDFC Bank" <Alerts@HDFCBank.net>` → `alerts@hdfcbank.net`; SMS ids are lower-cased.
    /// Works on UTF-8 bytes: this runs for every message of a mailbox.
    static func normalize(_ sender: String) -> String {
        var bytes = Array(sender.utf8)
        var start = 0, end = bytes.count
        if let open = bytes.lastIndex(of: UInt8(ascii: "<")),
           let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) {
            start = open + 1
            end = close
        }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        for index in start..<end where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") {
            bytes[index] += 32
        }
        let ascii = bytes[start..<end].allSatisfy { $0 < 0x80 }
        // Non-ASCII senders keep Unicode lower-casing.
        return ascii ? String(decoding: bytes[start..<end], as: UTF8.self)
            : String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Glob matching with `*` (any run) and `?` (one byte), iterative with backtracking
    /// to the last star, so it is linear for the patterns senders use.
    static func glob(_ pattern: [UInt8], matches text: [UInt8]) -> Bool {
        var p = 0, t = 0
        var star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
