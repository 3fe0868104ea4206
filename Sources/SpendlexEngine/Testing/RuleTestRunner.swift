import Foundation
import SpendlexRules

/// One example or counter-example run as a test: what a CI system shows as a test case
/// (`spendlex test --format junit|tap|json`).
public struct RuleTestCase: Sendable {
    /// What it belongs to: a bank's id, `country.xx` for a profile's examples, or a decision table's id.
    public var suite: String
    /// "hdfc.card.spend example 2", "hdfc.card.spend counter-example 1", "country.in example 3",
    /// "food.swiggy example 1" (a decision table row's).
    public var name: String
    /// Where the example's text is.
    public var location: SourceLocation
    /// Why it failed, one diagnostic per difference; empty when it passed.
    public var failures: [Diagnostic]

    /// Whether it behaved as written.
    public var passed: Bool { failures.isEmpty }
}

/// The outcome of running every example and counter-example of a rule set.
public struct RuleTestReport: Sendable {
    /// Examples and counter-examples that behaved as written.
    public var passed = 0
    /// Those that did not.
    public var failed = 0
    /// One diagnostic per failure (several for one example when several fields differ).
    public var failures: [Diagnostic] = []
    /// Examples run.
    public var examples = 0
    /// Counter-examples run.
    public var counterExamples = 0
    /// Banks (fallback files included) with at least one test run.
    public var banks = 0
    /// Distinct countries of those banks and profiles.
    public var countries = 0
    /// Country profiles with examples run.
    public var profiles = 0
    /// Decision table row examples run.
    public var categoryExamples = 0
    /// Decision tables with at least one example run.
    public var tables = 0
    /// Statement profiles with example rows run.
    public var statementProfiles = 0
    /// Every example and counter-example, in the order run (files in load order, then the
    /// country profiles, then the decision tables).
    public var cases: [RuleTestCase] = []

    /// Counts `test` as passed or failed and keeps it.
    mutating func record(_ test: RuleTestCase) {
        if test.passed { passed += 1 } else {
            failed += 1
            failures += test.failures
        }
        cases.append(test)
    }

    /// "212 examples and 64 counter-examples from 45 banks in 14 countries".
    public var coverage: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "\(count(examples, "example", "examples")) and \(count(counterExamples, "counter-example", "counter-examples"))"
            + " from \(count(banks, "bank", "banks"))"
            + (profiles == 0 ? "" : " and \(count(profiles, "country profile", "country profiles"))")
            + " in \(count(countries, "country", "countries"))"
            + (tables == 0 ? "" : "; \(count(categoryExamples, "category example", "category examples"))"
                + " from \(count(tables, "decision table", "decision tables"))")
            + (statementProfiles == 0 ? "" : "; example rows of \(count(statementProfiles, "statement profile", "statement profiles"))")
    }

    /// `N passed, N failed`, the closing line CI tools read.
    public var summary: String { "\(passed) passed, \(failed) failed" }
}

/// Runs rule files' examples as tests, as SwiftLint runs its rules' examples: each
/// example must produce a transaction from its own parser with the expected fields,
/// and each counter-example must produce none. Examples run against their own bank,
/// without sender routing, so they test the bank's ignore rules and parser order too.
public enum RuleTestRunner {
    /// Runs every example of every enabled parser, or only those of the parser `only`.
    public static func run(_ engine: RuleEngine, only: String? = nil) -> RuleTestReport {
        let worker = engine.makeWorker()
        var report = RuleTestReport()
        var countries: Set<String> = []
        for bank in engine.rules.banks {
            let parsers = bank.parsers.filter { only == nil || $0.id == only }
            if parsers.contains(where: { !$0.rule.examples.isEmpty || !$0.rule.counterExamples.isEmpty }) {
                report.banks += 1
                if let country = bank.rules.country { countries.insert(country.uppercased()) }
            }
            for parser in parsers {
                report.examples += parser.rule.examples.count
                report.counterExamples += parser.rule.counterExamples.count
                for (index, example) in parser.rule.examples.enumerated() {
                    report.record(RuleTestCase(suite: bank.id, name: "\(parser.id) example \(index + 1)",
                                               location: example.text.location,
                                               failures: check(example, index: index, of: parser, bank: bank.id, worker: worker)))
                }
                for (index, counter) in parser.rule.counterExamples.enumerated() {
                    let message = Message(id: "\(parser.id)#counter\(index + 1)", text: counter.text.value,
                                          sender: counter.sender, subject: counter.subject,
                                          channel: counter.subject == nil ? .unknown : .email)
                    let failures: [Diagnostic] = worker.parse(message, asBank: bank.id).transaction.map {
                        [.counterExampleMatched(parser.id, by: $0.rule, at: counter.text.location)]
                    } ?? []
                    report.record(RuleTestCase(suite: bank.id, name: "\(parser.id) counter-example \(index + 1)",
                                               location: counter.text.location, failures: failures))
                }
            }
        }
        // Country profiles' examples run through the whole engine, routing included: they test what
        // a message from the country's senders reads as, whoever parses it. Without a fallback
        // file loaded (`spendlex test rules/categories.yaml`), they have nothing to read them.
        if only == nil, !engine.rules.fallbacks.isEmpty {
            for profile in engine.rules.rules.countries where !profile.examples.isEmpty {
                countries.insert(profile.country.value)
                report.profiles += 1
                let id = "country.\(profile.country.value.lowercased())"
                for (index, example) in profile.examples.enumerated() {
                    report.examples += 1
                    report.record(RuleTestCase(suite: id, name: "\(id) example \(index + 1)", location: example.text.location,
                                               failures: check(example, index: index, profile: id, worker: worker)))
                }
            }
        }
        report.countries = countries.count
        if only == nil, let categorizer = engine.rules.categorizer {
            CategoryExampleRunner.run(categorizer, into: &report)
        }
        if only == nil {
            StatementExampleRunner.run(engine.rules.rules.statementProfiles, worker: worker, into: &report)
        }
        return report
    }

    /// Warnings about overlapping parsers: an example that an earlier parser of its bank
    /// takes first, or that a second parser also matches.
    public static func lint(_ engine: RuleEngine) -> [Diagnostic] {
        let worker = engine.makeWorker()
        var diagnostics: [Diagnostic] = []
        for bank in engine.rules.banks {
            let locations = Dictionary(bank.parsers.map { ($0.id, $0.rule.id.location) }, uniquingKeysWith: { a, _ in a })
            for parser in bank.parsers {
                for example in parser.rule.examples {
                    let matching = worker.matchingParsers(message(for: example, parser: parser.id, index: 0), bank: bank.id)
                    guard matching.contains(parser.id), let first = matching.first else { continue }
                    if first != parser.id {
                        diagnostics.append(.exampleShadowed(parser.id, by: first, at: example.text.location,
                                                            other: locations[first] ?? example.text.location))
                    } else if let other = matching.first(where: { $0 != parser.id }) {
                        diagnostics.append(.exampleAmbiguous(parser.id, also: other, at: example.text.location,
                                                             other: locations[other] ?? example.text.location))
                    }
                }
            }
        }
        return diagnostics
    }

    static func message(for example: RuleExample, parser: String, index: Int) -> Message {
        Message(id: "\(parser)#\(index + 1)", text: example.text.value, sender: example.sender,
                subject: example.subject, receivedAt: example.receivedAt.flatMap { parseTimestamp($0.value) },
                channel: example.subject == nil ? .unknown : .email)
    }

    private static func check(_ example: RuleExample, index: Int, of parser: CompiledParser, bank: String,
                              worker: RuleEngine.Worker) -> [Diagnostic] {
        let outcome = worker.parse(message(for: example, parser: parser.id, index: index), asBank: bank)
        let at = example.text.location
        guard let transaction = outcome.transaction else {
            let problem: String = switch outcome {
            case .unmatched: "its pattern did not match"
            default: outcome.reason
            }
            return [.testFailed(parser.id, problem, at: at)]
        }
        guard transaction.rule == parser.id else {
            return [.testFailed(parser.id, "matched by '\(transaction.rule)' instead", at: at)]
        }
        return mismatches(example, in: transaction, testing: parser.id)
    }

    private static func check(_ example: RuleExample, index: Int, profile: String,
                              worker: RuleEngine.Worker) -> [Diagnostic] {
        let outcome = worker.parse(message(for: example, parser: profile, index: index))
        guard let transaction = outcome.transaction else {
            return [.testFailed(profile, "no transaction: \(outcome.reason)", at: example.text.location)]
        }
        return mismatches(example, in: transaction, testing: profile)
    }

    /// One diagnostic per expected field the transaction does not have, for the rule `id`.
    private static func mismatches(_ example: RuleExample, in transaction: Transaction, testing id: String) -> [Diagnostic] {
        example.expect.compactMap { field, expected in
            let actual = value(of: field.value, in: transaction)
            guard !same(field.value, expected: expected.value, actual: actual) else { return nil }
            return .testFailed(id, "\(field.value.rawValue): expected \(quoted(expected.value)), got \(quoted(actual))",
                               at: expected.location)
        }
    }

    static func value(of field: ExpectedField, in t: Transaction) -> String? {
        switch field {
        case .amount: t.amountText
        case .currency: t.currency
        case .date: t.date?.description
        case .time: t.time?.description
        case .merchant: t.merchant
        case .last4: t.account?.last4
        case .balance: t.balance
        case .reference: t.reference
        case .channel: t.channel
        case .direction: t.direction?.rawValue
        case .kind: t.kind?.rawValue
        case .accountType: t.account?.type
        case .cardKind: t.account?.cardKind?.rawValue
        case .status: t.status.rawValue
        }
    }

    /// Amounts compare as numbers ("10290" == "10290.00"); everything else as text.
    static func same(_ field: ExpectedField, expected: String?, actual: String?) -> Bool {
        guard let expected else { return actual == nil }
        guard let actual else { return false }
        if field == .amount || field == .balance,
           let a = Decimal(string: expected.replacingOccurrences(of: ",", with: ""), locale: Locale(identifier: "en_US_POSIX")),
           let b = Decimal(string: actual, locale: Locale(identifier: "en_US_POSIX")) {
            return a == b
        }
        return expected == actual
    }

    static func quoted(_ text: String?) -> String {
        text.map { "\"\($0)\"" } ?? "nothing"
    }
}
