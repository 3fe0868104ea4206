import PCRE2

/// Patterns that each name something (a payment channel, a transaction kind, a country), compiled
/// as one alternation with a group per name: one scan of a text finds what it names. A pattern
/// per name cost a scan each, for every message (seventeen channels cost more than the parse).
struct NamedAlternation<Name: Sendable>: Sendable {
    let pattern: Pattern
    /// Each name and its group, in the order the names were given.
    let groups: [(name: Name, group: Int)]

    /// The alternation of `entries` (expanded pattern texts); nil when there are none or PCRE2
    /// refuses the whole (each text has already compiled on its own).
    init?(_ entries: [(name: Name, text: String)]) {
        guard !entries.isEmpty else { return nil }
        let alternatives = entries.indices.map { "(?<spendlex_named_\($0)>(?:\(entries[$0].text)))" }
        guard let pattern = try? Pattern(alternatives.joined(separator: "|"), options: .duplicateNames, jit: .onFirstMatch) else { return nil }
        self.pattern = pattern
        groups = entries.indices.compactMap { index in
            pattern.groupNumber(named: "spendlex_named_\(index)").map { (entries[index].name, $0) }
        }
    }

    /// Of every name that `range` of `text` names, the one given first: a rail (UPI) before the
    /// card that carries it, a reversal before the refund it reverses. The text around `range` is
    /// seen as context (`^`, `\b`) but not searched.
    func firstInOrder(_ text: String, _ range: Range<Int>, scratch: MatchScratch) -> Name? {
        var best: Int?
        var offset = range.lowerBound
        while best != 0, offset <= range.upperBound,
              let whole = try? pattern.firstRange(in: text, from: offset, upTo: range.upperBound, scratch: scratch) {
            if let index = groups.firstIndex(where: { scratch.lastGroup($0.group) != nil }) { best = min(best ?? index, index) }
            offset = whole.upperBound > whole.lowerBound ? whole.upperBound : RuleEngine.Worker.boundary(in: text, after: whole.lowerBound)
        }
        return best.map { groups[$0].name }
    }

    /// The name of the first mention in `range` of `text`, whatever its order: the words nearest
    /// the start ("Debit Card XX1234 used ... Get a credit card!" is a debit card's alert).
    func firstInText(_ text: String, _ range: Range<Int>, scratch: MatchScratch) -> (name: Name, at: Int)? {
        guard let whole = try? pattern.firstRange(in: text, from: range.lowerBound, upTo: range.upperBound, scratch: scratch),
              let named = groups.first(where: { scratch.lastGroup($0.group) != nil }) else { return nil }
        return (named.name, whole.lowerBound)
    }
}
