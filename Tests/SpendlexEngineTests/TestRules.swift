import Foundation
@testable import SpendlexEngine
import SpendlexRules

/// The repository's root, found from this file's path, so tests can read `rules/`.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Compiles YAML texts (bank and grammar files) into an engine; returns the diagnostics too.
func compile(_ files: [String: String]) -> (RuleEngine, [Diagnostic]) {
    var ruleSet = RuleSet()
    var diagnostics: [Diagnostic] = []
    for (path, text) in files.sorted(by: { $0.key < $1.key }) {
        RuleLoader.load(text: text, path: path, into: &ruleSet, diagnostics: &diagnostics)
    }
    diagnostics += RuleLoader.validate(ruleSet)
    let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
    return (RuleEngine(rules: compiled), diagnostics + compileDiagnostics)
}

/// The bundled grammar file's text.
let commonGrammar = try! String(contentsOfFile: repositoryRoot + "/grammars/common.yaml", encoding: .utf8)

/// `(id, line:column)` pairs, sorted.
func places(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.sortedByLocation().map { "\($0.id) \($0.location.line):\($0.location.column)" }
}
