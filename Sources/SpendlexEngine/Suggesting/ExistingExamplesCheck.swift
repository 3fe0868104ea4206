import Foundation
import SpendlexRules

/// Checks that a drafted bank file, loaded together with the rules already loaded, changes no
/// existing example's result: every example and counter-example that passed without the draft
/// still passes with it (the country profiles' examples run through routing, where a draft
/// could take a message another bank or the fallback reads).
struct ExistingExamplesCheck {
    /// The loaded rules.
    let engine: RuleEngine
    /// Their own test run.
    let baseline: RuleTestReport

    /// The parsers that change no result alone, and for each one dropped the first case it
    /// breaks; `broken` is the case the whole draft breaks.
    func parsersKeepingResults(_ parsers: [DraftParser], bank: DraftBank, broken: String)
        -> (kept: [DraftParser], dropped: [(String, String)]) {
        var kept: [DraftParser] = []
        var dropped: [(String, String)] = []
        for parser in parsers {
            if let brokenCase = firstBroken(DraftWriter.write(bank, parsers: [parser])) {
                dropped.append((parser.id, brokenCase))
            } else {
                kept.append(parser)
            }
        }
        // Parsers harmless alone but not together (one's examples need another): drop the last.
        if dropped.isEmpty, let last = parsers.last {
            return (Array(parsers.dropLast()), [(last.id, broken)])
        }
        return (kept, dropped)
    }

    /// `bank` with a `detect` pattern that its drafts' messages all match and with which the
    /// draft changes no existing result, or nil. A bank without `detect` is a candidate for
    /// every message of an unknown sender, so a draft can take another bank's example; tried:
    /// the bank's name, when every message names it, then the currency as the messages write
    /// it (`€`, `Rs.`, `INR`), when they all write it alike.
    func narrowed(_ bank: DraftBank, parsers: [DraftParser], amounts: [String]) -> DraftBank? {
        let texts = parsers.flatMap(\.members).map(\.text)
        guard !texts.isEmpty, bank.detect.isEmpty else { return nil }
        var candidates: [String] = []
        let name = bank.name.lowercased()
        if name.count >= 3, texts.allSatisfy({ $0.lowercased().contains(name) }) {
            candidates.append("(?i)\\b" + PatternLiteral.escaped(bank.name) + "\\b")
        }
        let marks = Set(amounts.map(Self.currencyMark))
        if marks.count == 1, let mark = marks.first, !mark.isEmpty {
            candidates.append(PatternLiteral.escaped(mark))
        }
        for candidate in candidates {
            var narrowed = bank
            narrowed.detect = [candidate]
            if firstBroken(DraftWriter.write(narrowed, parsers: parsers)) == nil { return narrowed }
        }
        return nil
    }

    /// An amount's text without its number (the first to the last digit) and spaces:
    /// `€12.50` → `€`, `Rs. 1,250.00` → `Rs.`, `12,50 €` → `€`.
    static func currencyMark(_ amount: String) -> String {
        let scalars = Array(amount.unicodeScalars)
        let isDigit: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        guard let first = scalars.firstIndex(where: isDigit), let last = scalars.lastIndex(where: isDigit) else {
            return amount.trimmingCharacters(in: .whitespaces)
        }
        var mark = String.UnicodeScalarView()
        mark.append(contentsOf: scalars[..<first])
        mark.append(contentsOf: scalars[(last + 1)...])
        return String(mark).trimmingCharacters(in: .whitespaces)
    }

    /// The name of the first case that passed without the draft and does not with it, or nil.
    /// A draft that does not load beside the rules (a clash) breaks "loading".
    func firstBroken(_ yaml: String) -> String? {
        guard !baseline.cases.isEmpty else { return nil }
        var ruleSet = engine.rules.rules
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: yaml, path: DraftCompiler.path, into: &ruleSet, diagnostics: &diagnostics)
        diagnostics += RuleLoader.validate(ruleSet)
        let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
        if let error = (diagnostics + compileDiagnostics).first(where: { $0.severity == .error }) {
            return "loading beside the rules (\(error.message))"
        }
        let combined = RuleEngine(rules: compiled, policy: engine.policy, matchLimit: engine.matchLimit)
        var after: [String: Bool] = [:]
        for test in RuleTestRunner.run(combined).cases { after[test.suite + "\u{0}" + test.name] = test.passed }
        for test in baseline.cases where test.passed && after[test.suite + "\u{0}" + test.name] != true {
            return "\(test.name) (\(test.suite))"
        }
        return nil
    }
}
