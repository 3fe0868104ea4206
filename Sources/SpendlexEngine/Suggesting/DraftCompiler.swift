import SpendlexRules

/// Compiles a drafted bank file in process, with the loaded grammar fragments, exactly as
/// `spendlex test <file> grammars` would: load the YAML text, validate, compile.
struct DraftCompiler {
    /// The grammar fragments drafts may reference.
    let fragments: [GrammarFragment]
    /// The grammar files' texts, for diagnostics that point into them.
    let sources: [String: SourceText]
    /// The name the draft is compiled under.
    static let path = "suggested.yaml"

    /// The engine over the draft alone, and the errors (warnings are dropped).
    func compile(_ yaml: String) -> (engine: RuleEngine, errors: [Diagnostic]) {
        var ruleSet = RuleSet(fragments: fragments, sources: sources)
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: yaml, path: Self.path, into: &ruleSet, diagnostics: &diagnostics)
        diagnostics += RuleLoader.validate(ruleSet)
        let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
        let errors = (diagnostics + compileDiagnostics).filter { $0.severity == .error }
        return (RuleEngine(rules: compiled), errors)
    }

    /// Fills each example's `expect` from what the engine extracts, reading the examples back
    /// from the compiled file as the test runner does; examples that another parser takes, or
    /// that no parser reads, are dropped. Keeps at most `limit` examples per parser.
    static func fillExpectations(_ parsers: [DraftParser], engine: RuleEngine, bankID: String,
                                 limit: Int) -> [DraftParser] {
        let worker = engine.makeWorker()
        let written = engine.rules.bank(id: bankID)?.rules.parsers ?? []
        return parsers.map { parser in
            var parser = parser
            guard let rule = written.first(where: { $0.id.value == parser.id }),
                  rule.examples.count == parser.examples.count else {
                parser.examples = []
                return parser
            }
            var kept: [DraftExample] = []
            for (index, (example, read)) in zip(parser.examples, rule.examples).enumerated() where kept.count < limit {
                let message = RuleTestRunner.message(for: read, parser: parser.id, index: index)
                guard let transaction = worker.parse(message, asBank: bankID).transaction,
                      transaction.rule == parser.id else { continue }
                var filled = example
                filled.expect = expectedFields.compactMap { field in
                    RuleTestRunner.value(of: field, in: transaction).map { (field, $0) }
                }
                kept.append(filled)
            }
            parser.examples = kept
            return parser
        }
    }

    /// The fields an example's `expect` lists when the draft extracts them.
    static let expectedFields: [ExpectedField] = [
        .amount, .currency, .date, .time, .merchant, .last4, .balance, .reference, .direction,
    ]
}
