import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexMail
import SpendlexRules

extension SpendlexService {
    /// The path a draft rule file is known by in `POST /rules/try`'s diagnostics.
    static let draftPath = "draft.yaml"

    /// For rule authors: the loaded set (`GET /rules`) and a draft tried against samples
    /// (`POST /rules/try`, nothing saved).
    func addRuleRoutes(to table: RouteTable) {
        let rules = rules
        table.get("/rules", access: .shared(.read)) { _, context in
            // A person's set: the shared rules and their own files.
            let rules = context.caller?.tenant?.rules ?? rules
            struct Parser: Encodable {
                let id: String
                let enabled: Bool
                let examples: Int
                let counter_examples: Int
            }
            struct Bank: Encodable {
                let id: String
                let name: String?
                let country: String?
                let file: String
                let fallback: Bool
                let parsers: [Parser]

                enum CodingKeys: String, CodingKey { case id, name, country, file, fallback, parsers }

                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(id, forKey: .id)
                    try c.encode(name, forKey: .name)
                    try c.encode(country, forKey: .country)
                    try c.encode(file, forKey: .file)
                    try c.encode(fallback, forKey: .fallback)
                    try c.encode(parsers, forKey: .parsers)
                }
            }
            struct Body: Encodable {
                let banks: [Bank]
                let parsers: Int
                let examples: Int
                let counter_examples: Int
                let summary: RuleSetSummary
            }
            let snapshot = rules.current
            let banks = snapshot.engine.rules.banks.map { bank in
                Bank(id: bank.id, name: bank.rules.name, country: bank.rules.country, file: bank.rules.location.file,
                     fallback: bank.isFallback, parsers: bank.parsers.map {
                         Parser(id: $0.id, enabled: $0.rule.enabled, examples: $0.rule.examples.count,
                                counter_examples: $0.rule.counterExamples.count)
                     })
            }
            let parsers = banks.flatMap(\.parsers)
            return try JSONResponse.make(Body(
                banks: banks, parsers: parsers.count, examples: parsers.reduce(0) { $0 + $1.examples },
                counter_examples: parsers.reduce(0) { $0 + $1.counter_examples }, summary: RuleSetSummary(rules)))
        }
        table.post("/rules/try", access: .shared(.read)) { request, context in
            struct Sample: Decodable {
                let text: String
                let sender: String?
                let subject: String?

                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    text = try c.decode(String.self, forKey: .text)
                    sender = try c.decodeUnlessLeftOut(String.self, forKey: .sender)
                    subject = try c.decodeUnlessLeftOut(String.self, forKey: .subject)
                }
                enum CodingKeys: String, CodingKey { case text, sender, subject }
            }
            struct Input: Decodable {
                let yaml: String
                let samples: [Sample]?

                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    yaml = try c.decode(String.self, forKey: .yaml)
                    samples = try c.decodeUnlessLeftOut([Sample].self, forKey: .samples)
                }
                enum CodingKeys: String, CodingKey { case yaml, samples }
            }
            let input = try await request.decodeJSON(Input.self, context: context)
            let live = (context.caller?.tenant?.rules ?? rules).current
            let samples = (input.samples ?? []).map {
                Message(id: "", text: $0.text, sender: $0.sender, subject: $0.subject, channel: $0.subject == nil ? .sms : .email)
            }
            // Off the request threads: a draft's patterns run under the match limit, but a slow
            // one must not hold a thread other requests are answered on.
            return try JSONResponse.make(try await offloaded { Self.tryDraft(input.yaml, samples: samples, live: live) })
        }
    }

    /// What a draft rule file says and does: its diagnostics (`draft.yaml:line:col`), its own
    /// examples run, and what it makes of each sample. The draft is compiled with the live set's
    /// grammars, field layer, country profiles and categories, alone among banks; nothing is saved.
    static func tryDraft(_ yaml: String, samples: [Message], live: RuleSnapshot) -> DraftTrial {
        let liveRules = live.engine.rules.rules
        var ruleSet = RuleSet(fragments: liveRules.fragments, sources: liveRules.sources)
        ruleSet.categories = liveRules.categories
        ruleSet.categoryTables = liveRules.categoryTables
        // The field layer (balances, references) and the country profiles, as `spendlex test` has
        // them: without them a draft's examples that expect a balance failed here and passed there.
        ruleSet.fieldLayer = liveRules.fieldLayer
        ruleSet.countries = liveRules.countries
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: yaml, path: draftPath, into: &ruleSet, diagnostics: &diagnostics)
        diagnostics += RuleLoader.validate(ruleSet)
        let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
        // The live set's own warnings are GET /rules's business: only the draft's are shown.
        let own = (diagnostics + compileDiagnostics).filter { $0.location.file == draftPath }.sortedByLocation()
        var trial = DraftTrial(diagnostics: own.map(DiagnosticBody.init), banks: compiled.banks.map(\.id))
        guard !own.containsErrors else { return trial }
        let engine = RuleEngine(rules: compiled, policy: live.engine.policy, matchLimit: live.engine.matchLimit)
        // Parser by parser: a run of the whole engine would run the categories file's examples too.
        var passed = 0, failed = 0
        var failures: [Diagnostic] = []
        for parser in compiled.banks.flatMap(\.parsers) {
            let report = RuleTestRunner.run(engine, only: parser.id)
            passed += report.passed
            failed += report.failed
            failures += report.failures
        }
        trial.examples = DraftTrial.Examples(passed: passed, failed: failed, failures: failures.map(DiagnosticBody.init))
        let worker = engine.makeWorker()
        let liveWorker = live.engine.makeWorker()
        for (index, sample) in samples.enumerated() {
            var message = sample
            message.id = "sample-\(index + 1)"
            // Without a sender, the sample is read as the draft's (first) bank's.
            let outcome = message.sender == nil && compiled.banks.count >= 1
                ? worker.parse(message, asBank: compiled.banks[0].id) : worker.parse(message)
            var result = MessageIntake.result(of: outcome, messageID: message.id)
            result.transaction = outcome.transaction.map(TransactionBody.init)
            result.text = CardNumberMasker.mask(message.text)
            result.catastrophic = false
            result.confidenceParts = outcome.transaction?.confidenceParts.doubts.map {
                ConfidencePartBody(part: $0.part, weight: $0.weight, summary: $0.summary)
            } ?? []
            if case .matchLimit(let rule, _) = outcome {
                result.catastrophic = true
                result.reason = "\(rule) needed more than \(engine.matchLimit) backtracking steps on this message: "
                    + "catastrophic backtracking (nested or overlapping repeats such as (a+)+); the message was not read"
            } else if outcome.transaction == nil {
                do {
                    result.nearest = try engine.nearestParser(to: message.text, bank: nil).map(NearestBody.init)
                } catch {
                    result.catastrophic = true
                    result.status = "error"
                    result.rule = error.parser
                    result.reason = "\(error.parser) hit the backtracking limit on this message: catastrophic backtracking"
                }
            }
            let fallback = liveWorker.parse(message)
            let fallbackResult = MessageIntake.result(of: fallback, messageID: message.id)
            result.fallback = FallbackBody(status: fallbackResult.status, rule: fallbackResult.rule,
                                           transaction: fallback.transaction.map(TransactionBody.init))
            trial.results.append(result)
        }
        return trial
    }
}

/// `POST /rules/try`'s answer.
struct DraftTrial: Encodable {
    struct Examples: Encodable {
        let passed: Int
        let failed: Int
        let failures: [DiagnosticBody]
    }

    /// The draft's diagnostics; with an error, nothing else is run.
    var diagnostics: [DiagnosticBody]
    /// The ids of the banks it declares.
    var banks: [String]
    /// Its own examples and counter-examples, run; null when it has errors.
    var examples: Examples?
    /// What it makes of each sample, in order.
    var results: [MessageResult] = []

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(diagnostics, forKey: .diagnostics)
        try c.encode(banks, forKey: .banks)
        try c.encode(examples, forKey: .examples)
        try c.encode(results, forKey: .results)
    }

    enum CodingKeys: String, CodingKey { case diagnostics, banks, examples, results }
}
