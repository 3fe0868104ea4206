import SpendlexEngine
import SpendlexRules

extension FuzzTarget {
    /// The input as rule files: split at lines `#---` into `rules/0.yaml`, `rules/1.yaml`, …
    /// (so a grammar file and a bank file can come together), loaded, validated, compiled
    /// (grammar expansion, every pattern through PCRE2), then the examples run and the lint.
    static func rules(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        for (index, file) in text.split(separator: "\n#---\n", omittingEmptySubsequences: false).enumerated() {
            RuleLoader.load(text: String(file), path: "rules/\(index).yaml", into: &ruleSet, diagnostics: &diagnostics)
        }
        diagnostics += RuleLoader.validate(ruleSet)
        let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
        diagnostics += compileDiagnostics
        // Every diagnostic's location must be printable against its source (the caret line).
        _ = DiagnosticFormatter(sources: ruleSet.sources).format(diagnostics)
        let engine = RuleEngine(rules: compiled)
        _ = RuleTestRunner.run(engine)
        _ = RuleTestRunner.lint(engine)
    }
}
