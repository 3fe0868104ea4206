import Foundation
import PCRE2
import SpendlexRules

/// Compiles a loaded `RuleSet` into a `CompiledRuleSet`: expands grammar references,
/// compiles every pattern with PCRE2 (JIT), checks captures against known fields, compiles
/// and checks the categories' decision tables, and reports every problem as a diagnostic
/// located in the rule file.
public enum RuleCompiler {
    /// Compiles the rule set. The result is nil only when no bank could be compiled at
    /// all; otherwise broken parsers are left out and reported.
    public static func compile(_ ruleSet: RuleSet) -> (CompiledRuleSet, [Diagnostic]) {
        var expander = GrammarExpander(fragments: ruleSet.fragments)
        expander.expandAllFragments()
        var diagnostics: [Diagnostic] = []
        for fragment in ruleSet.fragments {
            guard let expanded = expander.expandForCheck(fragment) else { continue }
            do { _ = try Pattern(expanded.text, options: .duplicateNames, jit: false) } catch {
                diagnostics.append(patternDiagnostic(error, text: fragment.pattern, expanded: expanded))
            }
        }
        var banks: [CompiledBank] = []
        for bank in ruleSet.banks {
            banks.append(compile(bank, expander: &expander, diagnostics: &diagnostics))
        }
        diagnostics += expander.diagnostics
        var categorizer: Categorizer?
        if !ruleSet.categoryTables.isEmpty {
            let compiled = Categorizer(ruleSet: ruleSet, diagnostics: &diagnostics)
            diagnostics += DecisionTableChecker.check(compiled)
            categorizer = compiled
        }
        diagnostics += CardRuleChecker.check(ruleSet, categories: .of(ruleSet))
        let router = SenderRouter(banks: ruleSet.banks)
        return (CompiledRuleSet(banks: banks, router: router, rules: ruleSet, categorizer: categorizer),
                deduplicated(diagnostics))
    }

    /// Loads and compiles rule files in one step; with `findingGrammars`, the `grammars`
    /// folder beside the rule files is loaded too when no path names it.
    public static func load(paths: [String], findingGrammars: Bool = false) -> (CompiledRuleSet, [Diagnostic]) {
        let (ruleSet, loadDiagnostics) = RuleLoader.load(paths: paths, findingGrammars: findingGrammars)
        let (compiled, compileDiagnostics) = compile(ruleSet)
        return (compiled, loadDiagnostics + compileDiagnostics)
    }

    private static func compile(_ bank: BankRules, expander: inout GrammarExpander,
                                diagnostics: inout [Diagnostic]) -> CompiledBank {
        let country = bank.country
        let defaults = BankDefaults(
            country: country,
            currency: bank.currency ?? country.flatMap { CurrencyNormalizer.defaultCode(forCountry: $0) },
            decimalMark: decimalMark(bank.decimalMark?.value) ?? .auto,
            dateOrder: bank.dateOrder.flatMap { DateOrder(rawValue: $0.value) } ?? DateOrder.forCountry(country),
            timeZone: bank.timeZone.flatMap { TimeZone(identifier: $0.value) } ?? TimeZone(identifier: "UTC")!
        )
        func compilePlain(_ text: PatternText) -> Pattern? {
            compilePattern(text, expander: &expander, diagnostics: &diagnostics)?.pattern
        }
        let subjects = bank.subjects.compactMap(compilePlain)
        let detect = bank.detect.compactMap(compilePlain)
        let personalSenders = bank.personalSenders.compactMap(compilePlain)
        let ignore = bank.ignore.compactMap { rule in compilePlain(rule.pattern).map { (rule.id, $0) } }
        var parsers: [CompiledParser] = []
        for parser in bank.parsers where parser.enabled {
            if let compiled = compile(parser, bank: bank, defaults: defaults, expander: &expander,
                                      diagnostics: &diagnostics) {
                parsers.append(compiled)
            }
        }
        return CompiledBank(id: bank.id.value, rules: bank, subjects: subjects, detect: detect,
                            personalSenders: personalSenders, ignore: ignore, parsers: parsers, defaults: defaults)
    }

    private static func compile(_ parser: ParserRule, bank: BankRules, defaults: BankDefaults,
                                expander: inout GrammarExpander, diagnostics: inout [Diagnostic]) -> CompiledParser? {
        let id = parser.id.value
        var matcher: FieldMatcher?
        if let pattern = parser.pattern {
            if let (compiled, _) = compilePattern(pattern, expander: &expander, diagnostics: &diagnostics) {
                var groups: [FieldName: [Int]] = [:]
                for (number, name) in compiled.groupNames.sorted(by: { $0.key < $1.key }) {
                    if let field = FieldName(rawValue: name) {
                        groups[field, default: []].append(number)
                    } else {
                        diagnostics.append(.unknownField(name, at: locateGroup(named: name, in: pattern)))
                    }
                }
                matcher = .single(compiled, groups: groups)
            }
        } else {
            var gate: Pattern?
            var ok = true
            if let when = parser.when {
                gate = compilePattern(when, expander: &expander, diagnostics: &diagnostics)?.pattern
                ok = gate != nil
            }
            var fields: [(FieldName, Pattern, Int)] = []
            for field in parser.fields {
                guard let text = field.pattern else { continue }
                guard let (compiled, _) = compilePattern(text, expander: &expander, diagnostics: &diagnostics) else {
                    ok = false
                    continue
                }
                let group = compiled.groupNumber(named: field.name.value.rawValue)
                    ?? (compiled.captureCount >= 1 ? 1 : 0)
                fields.append((field.name.value, compiled, group))
            }
            if ok { matcher = .perField(when: gate, fields: fields) }
        }
        guard let matcher else { return nil }

        if !matcher.captures(.amount) && parser.field(.amount)?.value == nil {
            diagnostics.append(.patternNoAmount(id, at: parser.pattern?.location ?? parser.id.location))
        }
        var constants: [FieldName: String] = [:]
        for field in parser.fields {
            if let value = field.value { constants[field.name.value] = value.value }
            if field.pattern == nil, field.value == nil, !matcher.captures(field.name.value) {
                diagnostics.append(.fieldNotCaptured(field.name.value.rawValue, at: field.name.location))
            }
        }
        if parser.examples.isEmpty {
            diagnostics.append(.parserNoExamples(id, at: parser.id.location))
        }

        let amountMark = decimalMark(parser.field(.amount)?.decimalMark?.value) ?? defaults.decimalMark
        let amount = AmountNormalizer(decimalMark: amountMark, country: defaults.country)
        let date: DateNormalizer
        do {
            date = try DateNormalizer(format: parser.field(.date)?.format?.value, order: defaults.dateOrder)
        } catch {
            let location = parser.field(.date)?.format?.location ?? parser.id.location
            diagnostics.append(Diagnostic(.ruleInvalidValue, .error, at: location, "invalid date format: \(error.message)"))
            return nil
        }
        return CompiledParser(id: id, bankID: bank.id.value, rule: parser, matcher: matcher,
                              amount: amount, date: date, constants: constants, isFallback: bank.isFallback)
    }

    /// Expands and compiles one pattern; a PCRE2 error is reported inside the written pattern.
    static func compilePattern(_ text: PatternText, expander: inout GrammarExpander,
                               diagnostics: inout [Diagnostic]) -> (pattern: Pattern, expanded: ExpandedPattern)? {
        guard let expanded = expander.expand(text) else { return nil }
        do {
            // Alternatives may capture the same field: `(?:spent %{MONEY:amount}|%{MONEY:amount} paid)`.
            return (try Pattern(expanded.text, options: .duplicateNames), expanded)
        } catch {
            diagnostics.append(patternDiagnostic(error, text: text, expanded: expanded))
            return nil
        }
    }

    /// PCRE2's compile error mapped back to the rule file. For a missing `)`, PCRE2
    /// stops at the end of the pattern; the unclosed `(` is the useful place to point at.
    static func patternDiagnostic(_ error: PatternError, text: PatternText, expanded: ExpandedPattern) -> Diagnostic {
        let missingClosingParenthesis: Int32 = 114
        if error.code == missingClosingParenthesis, let open = unclosedParenthesis(in: text.value) {
            return .patternSyntax("\(error.message): this '(' is never closed",
                                  at: text.location(ofUTF8Offset: open))
        }
        let (offset, fragment) = expanded.writtenOffset(ofExpanded: error.offset)
        var notes: [Diagnostic.Note] = []
        if let fragment {
            notes.append(Diagnostic.Note("in the expansion of grammar '\(fragment)'"))
        }
        return .patternSyntax(error.message, at: text.location(ofUTF8Offset: offset), notes: notes)
    }

    /// The UTF-8 offset of the last `(` that is never closed, skipping escapes and
    /// character classes.
    static func unclosedParenthesis(in pattern: String) -> Int? {
        let bytes = Array(pattern.utf8)
        var open: [Int] = []
        var index = 0
        var inClass = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if inClass {
                if byte == UInt8(ascii: "]") { inClass = false }
            } else if byte == UInt8(ascii: "[") {
                inClass = true
                // A `]` right after `[` or `[^` is a literal.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "^") { index += 1 }
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") { index += 1 }
            } else if byte == UInt8(ascii: "(") {
                open.append(index)
            } else if byte == UInt8(ascii: ")") {
                _ = open.popLast()
            }
            index += 1
        }
        return open.last
    }

    /// Where a named group `(?<name>`, `(?P<name>` or `(?'name'` is written.
    private static func locateGroup(named name: String, in pattern: PatternText) -> SourceLocation {
        for opener in ["(?<\(name)>", "(?P<\(name)>", "(?'\(name)'"] {
            if let range = pattern.value.range(of: opener) {
                let offset = pattern.value.utf8.distance(from: pattern.value.startIndex, to: range.lowerBound)
                return pattern.location(ofUTF8Offset: offset + opener.utf8.count - name.utf8.count - 1)
            }
        }
        return pattern.location
    }

    private static func decimalMark(_ text: String?) -> AmountNormalizer.DecimalMark? {
        switch text {
        case ".": .point
        case ",": .comma
        default: nil
        }
    }

    /// The same diagnostic reached twice (a broken fragment used by two parsers) is reported once.
    private static func deduplicated(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return diagnostics.filter { seen.insert($0).inserted }
    }
}
