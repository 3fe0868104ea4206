import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where matching time goes, pattern by pattern: a developer's tool, on when the environment
/// variable `SPENDLEX_PATTERN_PROFILE` is set (`spendlex parse` then prints the costliest patterns
/// on standard error). Off, it costs one load of a flag per match. The counts are exact; the times
/// are a monotonic clock read around each match, so they include the clock's own cost and are best
/// compared with each other, on one job.
public enum PatternProfile {
    public struct Entry: Sendable {
        public let source: String
        public var calls = 0
        public var matched = 0
        public var bytes = 0
        public var nanoseconds: Int64 = 0
    }

    public static let isOn: Bool = {
        guard let value = getenv("SPENDLEX_PATTERN_PROFILE") else { return false }
        return value.pointee != 0
    }()

    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    static func record(_ pattern: Pattern, bytes: Int, matched: Bool, nanoseconds: Int64) {
        entries.withLock { entries in
            let key = ObjectIdentifier(pattern)
            var entry = entries[key] ?? Entry(source: pattern.source)
            entry.calls += 1
            entry.matched += matched ? 1 : 0
            entry.bytes += bytes
            entry.nanoseconds += nanoseconds
            entries[key] = entry
        }
    }

    /// Every pattern that was run, costliest first.
    public static func snapshot() -> [Entry] {
        entries.withLock { Array($0.values) }.sorted { $0.nanoseconds > $1.nanoseconds }
    }

    /// The `top` costliest patterns as lines of text: time, calls, matches, bytes searched, and
    /// the pattern's first 100 characters.
    public static func report(top: Int = 30) -> String {
        let all = snapshot()
        let total = all.reduce(Int64(0)) { $0 + $1.nanoseconds }
        var lines = ["pattern profile: \(all.count) patterns, \(all.reduce(0) { $0 + $1.calls }) matches run, "
            + "\(all.reduce(0) { $0 + $1.bytes }) bytes searched, \(total / 1_000_000) ms"]
        lines.append("      ms      calls    matched        bytes  pattern")
        for entry in all.prefix(top) {
            let ms = Double(entry.nanoseconds) / 1_000_000
            let text = String(entry.source.prefix(100)).replacingNewlines()
            lines.append(pad(String(Int(ms.rounded())), 8) + pad(String(entry.calls), 11) + pad(String(entry.matched), 11)
                + pad(String(entry.bytes), 13) + "  " + text)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

private extension String {
    func replacingNewlines() -> String { String(map { $0.isNewline ? " " : $0 }) }
}
