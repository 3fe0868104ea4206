import Foundation
import PCRE2
import SpendlexRules

/// A pattern after `%{NAME}` references were replaced by their fragments, with a map
/// from positions in the expanded text back to positions in the written pattern.
struct ExpandedPattern: Sendable {
    /// Where a run of the expanded text came from.
    enum Origin: Sendable {
        /// Written in the pattern, starting at this UTF-8 offset of the pattern.
        case written(offset: Int)
        /// Produced by the reference `%{…}` at this UTF-8 offset of the pattern.
        case reference(offset: Int, fragment: String)
    }

    /// A run of expanded text and its origin.
    struct Segment: Sendable {
        let expanded: Range<Int>
        let origin: Origin
    }

    let text: String
    let segments: [Segment]
    /// Fields captured through `%{NAME:field}`, in order.
    let referencedCaptures: [(field: String, offset: Int)]

    /// The UTF-8 offset in the written pattern that produced the expanded offset, and
    /// the fragment it came through, if any.
    func writtenOffset(ofExpanded offset: Int) -> (offset: Int, fragment: String?) {
        guard let segment = segments.last(where: { $0.expanded.lowerBound <= offset }) else { return (0, nil) }
        switch segment.origin {
        case .written(let start): return (start + (offset - segment.expanded.lowerBound), nil)
        case .reference(let start, let fragment): return (start, fragment)
        }
    }
}

/// Expands grammar references in patterns: `%{NAME}` becomes `(?:…)`, `%{NAME:field}`
/// becomes `(?<field>…)`. Fragments may reference fragments; cycles and unknown names
/// are diagnostics. Fragment expansions are memoized.
struct GrammarExpander {
    private var fragments: [String: GrammarFragment]
    private var expanded: [String: String] = [:]
    private var failed: Set<String> = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Patterns already compiled, by expanded text: the fallback files are compiled once more per
    /// country profile with the same patterns, and PCRE2's JIT compile of the large currency
    /// alternation is the costliest part of loading rules. Kept here because the expander is
    /// what every compile step already carries.
    var compiled: [ExpandedText: Pattern] = [:]

    /// An expanded pattern's text as a dictionary key, hashed and compared byte by byte. A
    /// `String` key hashes its text in normalization form C, scalar by scalar once it holds
    /// anything beyond ASCII, and the currency alternation in most patterns does: that hashing
    /// was a quarter of loading the bundled rules. Equal bytes are what the cache needs (the
    /// same pattern text compiles the same).
    struct ExpandedText: Hashable {
        let text: String
        init(_ text: String) { self.text = text }

        func hash(into hasher: inout Hasher) {
            text.withUTF8Bytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        static func == (a: Self, b: Self) -> Bool {
            a.text.withUTF8Bytes { x in
                b.text.withUTF8Bytes { y in
                    x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
                }
            }
        }
    }

    /// Compiling to check the rules (`spendlex check`), not to parse with them: patterns are not
    /// JIT-compiled (the interpreter runs the few examples a check matches; JIT compiling 10,000
    /// parsers was a third of checking them) and banks get no literal screens.
    var forChecking = false

    /// What the fragments require, for the literal screens of patterns as written. The
    /// fragments `replace` swaps (a country's local currency forms) stand for anything there.
    private(set) var literals: FragmentLiterals

    init(fragments: [GrammarFragment], varying: Set<String> = []) {
        var byName: [String: GrammarFragment] = [:]
        for fragment in fragments where byName[fragment.name.value] == nil {
            byName[fragment.name.value] = fragment
        }
        self.fragments = byName
        literals = FragmentLiterals(fragments: byName.mapValues(\.pattern.value), opaque: varying)
    }

    /// A copy for compiling on another thread: the same fragments, expansions, compiled patterns and
    /// diagnostics so far, and a copy of the literal facts read so far (`FragmentLiterals` is a cache
    /// that reading a pattern fills, not safe to share between threads).
    func forAnotherThread() -> GrammarExpander {
        var copy = self
        copy.literals = literals.copy()
        return copy
    }

    /// Takes in the diagnostics another thread's copy (`forAnotherThread`) found after it was made,
    /// `since` being how many this one held then.
    mutating func takeDiagnostics(of copy: GrammarExpander, since: Int) {
        diagnostics += copy.diagnostics.dropFirst(since)
    }

    /// Puts `fragment` in place of the fragment of its name (a country's local currency forms while
    /// that country's parsers compile) and returns the one it replaced. Memoized expansions are
    /// forgotten, since any of them may hold the replaced one.
    @discardableResult
    mutating func replace(_ fragment: GrammarFragment) -> GrammarFragment? {
        let previous = fragments[fragment.name.value]
        fragments[fragment.name.value] = fragment
        expanded.removeAll(keepingCapacity: true)
        failed.removeAll()
        return previous
    }

    /// Expands every fragment once, so that problems inside grammar files are reported
    /// even when no parser uses the fragment.
    mutating func expandAllFragments() {
        for name in fragments.keys.sorted() {
            _ = expandFragment(name, stack: [])
        }
    }

    /// The fully expanded body of a fragment, or nil if it (or one it uses) is broken.
    mutating func expandFragment(_ name: String, stack: [String]) -> String? {
        if let done = expanded[name] { return done }
        if failed.contains(name) { return nil }
        guard let fragment = fragments[name] else { return nil }
        if let loopStart = stack.firstIndex(of: name) {
            let cycle = Array(stack[loopStart...]) + [name]
            diagnostics.append(.grammarCycle(cycle, at: fragment.name.location))
            failed.insert(name)
            return nil
        }
        guard let result = expand(fragment.pattern, allowCaptures: false, stack: stack + [name]) else {
            failed.insert(name)
            return nil
        }
        expanded[name] = result.text
        return result.text
    }

    /// Expands a fragment's own pattern, to compile it alone and report its regex errors
    /// in the grammar file. nil when the fragment's references are broken.
    mutating func expandForCheck(_ fragment: GrammarFragment) -> ExpandedPattern? {
        guard expandFragment(fragment.name.value, stack: []) != nil else { return nil }
        return expand(fragment.pattern, allowCaptures: false, stack: [fragment.name.value])
    }

    /// Expands a parser's pattern. Returns nil (with diagnostics) when a reference is broken.
    mutating func expand(_ pattern: PatternText) -> ExpandedPattern? {
        expand(pattern, allowCaptures: true, stack: [])
    }

    private mutating func expand(_ pattern: PatternText, allowCaptures: Bool, stack: [String]) -> ExpandedPattern? {
        let bytes = Array(pattern.value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var segments: [ExpandedPattern.Segment] = []
        var captures: [(String, Int)] = []
        var ok = true
        var index = 0
        var runStart = 0

        func flushWritten(upTo end: Int) {
            guard end > runStart else { return }
            let from = out.count
            out += bytes[runStart..<end]
            segments.append(.init(expanded: from..<out.count, origin: .written(offset: runStart)))
        }

        while index < bytes.count {
            // A backslash escapes the next byte: `\%{` is a literal.
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            guard bytes[index] == UInt8(ascii: "%"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{"),
                  let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                index += 1
                continue
            }
            flushWritten(upTo: index)
            let inner = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
            let parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let field = parts.count > 1 ? String(parts[1]) : nil
            // Where the reference is written, for a diagnostic only: finding a line and column was
            // a twentieth of checking 1,000 bank files when done for every reference.
            var location: SourceLocation { pattern.location(ofUTF8Offset: index) }
            var body: String?
            if fragments[name] == nil {
                diagnostics.append(.unknownGrammar(name, known: fragments.keys.sorted(), at: location))
            } else {
                body = expandFragment(name, stack: stack)
            }
            if let field {
                if !allowCaptures {
                    diagnostics.append(.captureInFragment("%{\(inner)}", at: location))
                    body = nil
                } else if FieldName(rawValue: field) == nil {
                    diagnostics.append(.unknownField(field, at: pattern.location(ofUTF8Offset: index + 2 + name.utf8.count + 1)))
                    body = nil
                }
            }
            if let body {
                let from = out.count
                out += Array((field.map { "(?<\($0)>" } ?? "(?:").utf8)
                out += Array(body.utf8)
                out.append(UInt8(ascii: ")"))
                segments.append(.init(expanded: from..<out.count, origin: .reference(offset: index, fragment: name)))
                if let field { captures.append((field, index)) }
            } else {
                ok = false
            }
            index = close + 1
            runStart = index
        }
        flushWritten(upTo: bytes.count)
        guard ok else { return nil }
        return ExpandedPattern(text: String(decoding: out, as: UTF8.self), segments: segments,
                               referencedCaptures: captures)
    }
}
