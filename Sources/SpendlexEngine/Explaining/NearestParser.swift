import Foundation
import PCRE2
import SpendlexRules

/// For a message none of a bank's parsers matched: the parser whose pattern got furthest, and
/// where in the pattern as written matching stopped (what a rule author fixes next).
public struct NearestParser: Sendable, Equatable {
    /// The parser's id.
    public let parser: String
    /// Its pattern as written (`%{…}` references unexpanded).
    public let pattern: String
    /// The UTF-8 offset in `pattern` where matching stopped: everything before it matched.
    public let stoppedAt: Int
    /// The reference matching stopped inside (`MONEY` of `%{MONEY:amount}`), if it stopped in one.
    public let fragment: String?
    /// The text the furthest attempt had matched.
    public let matchedText: String
    /// How far through the pattern matching got, from 0 to 1 (a share of the written pattern).
    public let progress: Double

    /// The pattern before the stop point.
    public var patternBefore: String { String(decoding: Array(pattern.utf8)[..<stoppedAt], as: UTF8.self) }
    /// The pattern from the stop point on.
    public var patternAfter: String { String(decoding: Array(pattern.utf8)[stoppedAt...], as: UTF8.self) }
}

extension RuleEngine {
    /// The parser of `bankID` (or, nil, of every bank) whose `pattern` got furthest through `text`,
    /// by PCRE2's auto callouts: each pattern is expanded as the compiler does and compiled again,
    /// without JIT, with a callout before every item, and run under the engine's match limit.
    /// Parsers with per-field patterns have no single pattern to follow and are left out.
    ///
    /// - Throws: ``MatchError`` when a pattern hits the match limit: a catastrophic pattern, which
    ///   a caller reports as such.
    public func nearestParser(to text: String, bank bankID: String?) throws(NearestParserError) -> NearestParser? {
        let ruleSet = rules.rules
        var fragments = ruleSet.fragments
        if !fragments.contains(where: { $0.name.value == RuleCompiler.worldCurrencyName }) {
            fragments.append(RuleCompiler.worldCurrencyFragment(profiles: ruleSet.countries))
        }
        if !fragments.contains(where: { $0.name.value == RuleCompiler.localCurrencyName }) {
            fragments.append(RuleCompiler.localCurrencyFragment(forms: []))
        }
        var expander = GrammarExpander(fragments: fragments)
        let scratch = MatchScratch(matchLimit: matchLimit)
        var best: NearestParser?
        for bank in rules.banks where bankID == nil || bank.id == bankID {
            for parser in bank.parsers {
                guard let written = parser.rule.pattern, let expanded = expander.expand(written),
                      let pattern = try? Pattern(expanded.text, options: [.duplicateNames, .autoCallout, .noStartOptimize],
                                                 jit: false) else { continue }
                let reach: PatternReach?
                do { reach = try pattern.furthestReach(in: text, scratch: scratch) } catch {
                    throw NearestParserError(parser: parser.id, error: error)
                }
                guard let reach else { continue }
                let (offset, fragment) = expanded.writtenOffset(ofExpanded: reach.patternOffset)
                let length = max(written.value.utf8.count, 1)
                let textBytes = Array(text.utf8)
                let matched = String(decoding: textBytes[min(reach.textStart, textBytes.count)..<min(reach.textEnd, textBytes.count)],
                                     as: UTF8.self)
                let candidate = NearestParser(parser: parser.id, pattern: written.value, stoppedAt: min(offset, written.value.utf8.count),
                                              fragment: fragment, matchedText: matched,
                                              progress: Double(min(offset, length)) / Double(length))
                if best == nil || candidate.progress > best!.progress
                    || (candidate.progress == best!.progress && candidate.matchedText.utf8.count > best!.matchedText.utf8.count) {
                    best = candidate
                }
            }
        }
        return best
    }
}

/// A pattern hit a limit while its progress was being traced: a catastrophic pattern.
public struct NearestParserError: Error, Sendable {
    /// The parser whose pattern hit it.
    public let parser: String
    /// PCRE2's error (the match limit, the depth limit).
    public let error: MatchError
}
