import PCRE2
import SpendlexRules

/// Every merchant condition of one decision table, compiled into one PCRE2 pattern.
///
/// The keywords of all rows form a prefix tree written as one case-insensitive alternation
/// (`s(?:wiggy…|tarbucks…)`), so a position is rejected after a character or two rather than
/// after trying every keyword. Each keyword ends with a `(*MARK:n)` naming it and the whole
/// ends with a callout: one `visitCallouts` run reports every (row, keyword) that matches
/// anywhere in the merchant. (Marks, not empty capture groups: matching resets every group at
/// every start position, which cost more than the whole trie with a thousand keywords.) The
/// rows' patterns are combined the same way into a second pattern, kept apart so that the
/// keywords' whole-word checks are written once; patterns with capture groups of their own
/// (back references would see other numbers) are matched one by one.
final class MerchantMatcher: Sendable {
    /// What a marker group stands for.
    struct Hit: Sendable, Equatable {
        /// Row index in the table.
        let row: Int
        /// Keyword index (`isPattern == false`) or pattern index in the row's merchant condition.
        let index: Int
        /// Whether the hit is a pattern.
        let isPattern: Bool
    }

    /// The combined patterns, each with its markers (mark number → what it stands for). One pattern unless PCRE2 found it too large (its compiled form is
    /// limited to 64 KiB), then the keywords are split until each part compiles.
    let combined: [(pattern: Pattern, markers: [Hit?])]
    /// Patterns matched on their own: they have capture groups, or the combination failed.
    let separate: [(hit: Hit, pattern: Pattern)]

    /// A letter or digit must not touch a keyword on either side.
    static let wordStart = #"(?<![\p{L}\p{N}])"#
    static let wordEnd = #"(?![\p{L}\p{N}])"#
    /// What a separator in a keyword (space, `-`, `.`, `_`, `*`, `/`) matches: any run of them, or none.
    static let separator = #"[\s._*/\-]*"#

    /// Compiles the merchant conditions of `rows`; a pattern PCRE2 refuses is reported and left out.
    init(rows: [CategoryRow], diagnostics: inout [Diagnostic]) {
        var keywords: [(hit: Hit, atoms: [KeywordTrie.Atom])] = []
        var standalone: [(hit: Hit, text: String, pattern: Pattern)] = []
        for (rowIndex, row) in rows.enumerated() {
            guard let merchant = row.conditions.merchant else { continue }
            for (index, keyword) in merchant.keywords.enumerated() {
                keywords.append((Hit(row: rowIndex, index: index, isPattern: false), Self.atoms(of: keyword.value)))
            }
            for (index, text) in merchant.patterns.enumerated() {
                do {
                    let pattern = try Pattern(text.value, options: [])
                    standalone.append((Hit(row: rowIndex, index: index, isPattern: true), text.value, pattern))
                } catch {
                    // For a missing `)`, PCRE2 stops at the end; the unclosed `(` is the useful place.
                    let missingClosingParenthesis: Int32 = 114
                    let open = error.code == missingClosingParenthesis ? RuleCompiler.unclosedParenthesis(in: text.value) : nil
                    diagnostics.append(.patternSyntax(open == nil ? error.message : "\(error.message): this '(' is never closed",
                                                      at: text.location(ofUTF8Offset: open ?? error.offset)))
                }
            }
        }
        var separate = standalone.filter { $0.pattern.captureCount > 0 }.map { ($0.hit, $0.pattern) }
        var inline = standalone.filter { $0.pattern.captureCount == 0 }

        func build(_ keywords: ArraySlice<(hit: Hit, atoms: [KeywordTrie.Atom])>,
                   _ inline: [(hit: Hit, text: String, pattern: Pattern)]) -> (pattern: Pattern, markers: [Hit?])? {
            var markers: [Hit?] = []
            var branches: [String] = []
            if !keywords.isEmpty {
                var trie = KeywordTrie()
                for keyword in keywords { trie.insert(keyword.atoms, hit: keyword.hit) }
                branches.append(Self.wordStart + "(?i:" + trie.regex(markers: &markers) + ")" + Self.wordEnd)
            }
            for entry in inline {
                branches.append("(?:" + entry.text + ")(*MARK:\(markers.count))")
                markers.append(entry.hit)
            }
            guard !branches.isEmpty else { return nil }
            let source = "(?:" + branches.joined(separator: "|") + ")(?C1)"
            guard let pattern = try? Pattern(source, options: []), pattern.captureCount == 0 else {
                return nil
            }
            return (pattern, markers)
        }
        var combined: [(pattern: Pattern, markers: [Hit?])] = []
        if !inline.isEmpty {
            // The patterns together; one that does not combine (a `(*VERB)`, an `(?x)` comment) is matched alone.
            if let part = build([], inline) { combined.append(part) } else { separate += inline.map { ($0.hit, $0.pattern) } }
            inline = []
        }
        var pending = [keywords[...]]
        while let part = pending.popLast() {
            guard !part.isEmpty else { continue }
            if let compiled = build(part, []) {
                combined.append(compiled)
            } else if part.count > 1 {
                let middle = part.startIndex + part.count / 2
                pending += [part[middle...], part[..<middle]]
            }
        }
        self.combined = combined
        self.separate = separate
    }

    /// Whether any row has a merchant condition.
    var isEmpty: Bool { combined.isEmpty && separate.isEmpty }

    /// Calls `found` for every keyword or pattern that matches in `merchant`, with the UTF-8
    /// range it matched (the same row may be reported several times).
    func visitHits(in merchant: String, scratch: MatchScratch,
                   _ found: (Hit, Range<Int>) -> Void) throws(MatchError) {
        for (pattern, markers) in combined {
            try pattern.visitCallouts(in: merchant, scratch: scratch) { point in
                if let mark = point.markNumber, mark < markers.count, let hit = markers[mark] {
                    found(hit, point.start..<point.end)
                }
            }
        }
        for (hit, pattern) in separate {
            if let match = try pattern.firstMatch(in: merchant, scratch: scratch) { found(hit, match.range) }
        }
    }

    /// A keyword as trie atoms: lower-cased characters, separators and optional apostrophes.
    static func atoms(of keyword: String) -> [KeywordTrie.Atom] {
        var atoms: [KeywordTrie.Atom] = []
        for character in keyword.lowercased() {
            switch character {
            case " ", "-", ".", "_", "*", "/", "\t":
                if !atoms.isEmpty, atoms.last != .separator { atoms.append(.separator) }
            case "'", "’":
                if atoms.last != .apostrophe { atoms.append(.apostrophe) }
            default:
                atoms.append(.character(character))
            }
        }
        while atoms.last == .separator { atoms.removeLast() }
        return atoms
    }
}

/// Keywords written out as a regex alternation shaped as a prefix tree (`RegexTrie`), each
/// keyword's end marked with the index of what it stands for.
struct KeywordTrie {
    /// One step of a keyword.
    enum Atom: Hashable {
        case character(Character)
        case separator
        case apostrophe

        var regex: String {
            switch self {
            case .separator: MerchantMatcher.separator
            case .apostrophe: "['’]?"
            case .character(let character):
                character.unicodeScalars.map { scalar in
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar.value > 0x7F
                        ? String(scalar) : "\\" + String(scalar)
                }.joined()
            }
        }
    }

    private var keywords: [(atoms: [Atom], hit: MerchantMatcher.Hit)] = []

    var isEmpty: Bool { keywords.isEmpty }

    mutating func insert(_ atoms: [Atom], hit: MerchantMatcher.Hit) {
        keywords.append((atoms, hit))
    }

    /// The alternation; appends one marker per keyword to `markers`, named by its index.
    func regex(markers: inout [MerchantMatcher.Hit?]) -> String {
        let trie = RegexTrie()
        for keyword in keywords {
            trie.insert(keyword.atoms.map(\.regex), end: "(*MARK:\(markers.count))")
            markers.append(keyword.hit)
        }
        return trie.regex()
    }
}
