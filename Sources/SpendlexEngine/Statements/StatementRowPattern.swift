import PCRE2
import SpendlexRules

/// A statement profile's `row` pattern: for PDF statements whose columns do not line up, a row
/// is a line the pattern matches, and its named groups are the row's columns. The reader and
/// `spendlex test` read rows through it the same way: the groups' values as the cells of a
/// table whose header is the groups' column names (`StatementColumns`).
public struct StatementRowPattern: Sendable {
    /// The row pattern.
    public let pattern: Pattern
    /// What the lines below a row match when they continue it.
    public let continuation: Pattern?
    /// The columns the row pattern has groups for, in the cells' order, with each pattern's
    /// group number for it (nil: the continuation has none).
    let fields: [(column: StatementProfile.Column, row: Int, continuation: Int?)]

    /// The profile's row pattern; nil when it has none, or its patterns do not compile (which
    /// `spendlex check` reports).
    public init?(_ profile: StatementProfile) {
        guard let row = profile.row, let pattern = try? Pattern(row.value, options: [], jit: true) else { return nil }
        let continuation = profile.continuation.flatMap { try? Pattern($0.value, options: [], jit: true) }
        self.pattern = pattern
        self.continuation = continuation
        fields = StatementProfile.Column.allCases.compactMap { column in
            pattern.groupNumber(named: column.rawValue).map { (column, $0, continuation?.groupNumber(named: column.rawValue)) }
        }
    }

    /// The header of the table the rows make: the columns' names.
    public var header: [String] { fields.map(\.column.rawValue) }

    /// The profile as it reads that table: its columns the groups'.
    public func tableProfile(_ profile: StatementProfile) -> StatementProfile {
        var table = profile
        table.header = header.map { Located($0, at: profile.location) }
        table.columns = Dictionary(uniqueKeysWithValues: fields.map { ($0.column, Located($0.column.rawValue, at: profile.location)) })
        return table
    }

    /// A line's cells when it is a row; nil when the pattern does not match it.
    public func cells(_ line: String, scratch: MatchScratch) -> [String]? {
        guard let match = try? pattern.firstMatch(in: line, scratch: scratch) else { return nil }
        return fields.map { field in match[field.row].map { line.utf8Slice($0) } ?? "" }
    }

    /// `row` with a continuation line's groups added (text after a space; an empty cell filled);
    /// nil when the line is no continuation.
    public func continuing(_ row: [String], with line: String, scratch: MatchScratch) -> [String]? {
        guard let continuation, let match = try? continuation.firstMatch(in: line, scratch: scratch) else { return nil }
        var merged = row
        for (index, field) in fields.enumerated() {
            guard let group = field.continuation, let range = match[group] else { continue }
            let value = StatementColumns.trimmed(line.utf8Slice(range))
            if value.isEmpty { continue }
            merged[index] = merged[index].isEmpty ? value : merged[index] + " " + value
        }
        return merged
    }

    /// What is wrong with a profile's row pattern for `spendlex check`: no `date` group, or no
    /// `amount` (nor `debit` or `credit`) one; nil when nothing is.
    public static func problem(_ pattern: Pattern) -> String? {
        if pattern.groupNumber(named: "date") == nil { return "a row pattern needs a group named `date`" }
        if ["amount", "debit", "credit"].allSatisfy({ pattern.groupNumber(named: $0) == nil }) {
            return "a row pattern needs a group named `amount` (or `debit` and `credit`)"
        }
        return nil
    }
}
