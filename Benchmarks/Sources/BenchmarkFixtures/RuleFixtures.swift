import Foundation
import SpendlexEngine
import SpendlexRules

/// Compiled rule sets for benchmarks. A rule file with an error stops the benchmark run: a
/// figure measured on half a rule set would be a wrong figure.
public enum RuleFixtures {
    /// Loads and compiles rule files and folders; exits on any error diagnostic.
    public static func engine(paths: [String]) -> RuleEngine {
        let (compiled, diagnostics) = RuleCompiler.load(paths: paths)
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            FileHandle.standardError.write(Data("benchmark fixtures: rule errors in \(paths):\n\(errors.map { "\($0)" }.joined(separator: "\n"))\n".utf8))
            exit(70)
        }
        return RuleEngine(rules: compiled)
    }

    /// The bundled rules (`rules/` and `grammars/`).
    public static func bundled() -> RuleEngine {
        engine(paths: [Repository.rules, Repository.grammars])
    }

    /// The reference corpus's rules (`Benchmarks/rules/` and `grammars/`).
    public static func referenceCorpus() -> RuleEngine {
        engine(paths: [Repository.benchmarkRules, Repository.grammars])
    }
}
