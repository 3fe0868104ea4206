// Compiling rule sets: YAML text → RuleSet → CompiledRuleSet (grammar expansion, PCRE2 JIT).
// Generated sets of 10, 100 and 1,000 parsers, ten to a bank, on the bundled grammar fragments.
import Benchmark
import BenchmarkFixtures
import CorpusKit
import Foundation
import SpendlexEngine
import SpendlexRules

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .instructions, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(2),
        maxIterations: 200
    )

    guard let grammar = try? String(contentsOfFile: Repository.commonGrammar, encoding: .utf8) else {
        fatalError("cannot read \(Repository.commonGrammar)")
    }

    for parsers in [10, 100, 1_000] {
        let files = SyntheticRuleSet.bankFiles(parsers: parsers)

        /// The loading step alone: YAML parsing with locations, the rule model, validation.
        func load() -> RuleSet {
            var ruleSet = RuleSet()
            var diagnostics: [Diagnostic] = []
            RuleLoader.load(text: grammar, path: "grammars/common.yaml", into: &ruleSet, diagnostics: &diagnostics)
            for file in files {
                RuleLoader.load(text: file.text, path: file.name, into: &ruleSet, diagnostics: &diagnostics)
            }
            diagnostics += RuleLoader.validate(ruleSet)
            precondition(!diagnostics.containsErrors, "synthetic rules: \(diagnostics)")
            return ruleSet
        }

        // Checked once, outside any measurement: every parser compiles, with no error.
        let loaded = load()
        let (compiled, diagnostics) = RuleCompiler.compile(loaded)
        precondition(!diagnostics.containsErrors && compiled.parserCount == parsers,
                     "synthetic rules: \(compiled.parserCount) of \(parsers) parsers compiled: \(diagnostics)")

        Benchmark("compile \(parsers) parsers") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(RuleCompiler.compile(loaded))
            }
        }

        Benchmark("load + compile \(parsers) parsers") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(RuleCompiler.compile(load()))
            }
        }
    }

    // What `spendlex check` does with 1,000 bank files (10,000 parsers) in a folder beside the
    // bundled grammar files: read them from disk, compile them for checking (no JIT), lint every
    // example against its bank's other parsers. The whole command, process start included, is
    // timed with `farm-bench -- spendlex check DIR/rules DIR/grammars` (Benchmarks/README.md).
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-check-\(getpid())")
    let rules = folder.appendingPathComponent("rules")
    let grammars = folder.appendingPathComponent("grammars")
    Benchmark("check 1,000 bank files", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let (compiled, diagnostics) = RuleCompiler.load(paths: [rules.path, grammars.path], findingGrammars: true,
                                                            forChecking: true)
            precondition(!diagnostics.containsErrors && compiled.parserCount == 10_000, "synthetic rules: \(diagnostics.prefix(3))")
            blackHole(RuleTestRunner.lint(RuleEngine(rules: compiled)))
        }
    }, setup: {
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: grammars, withIntermediateDirectories: true)
        for file in SyntheticRuleSet.bankFiles(parsers: 10_000) {
            try Data(file.text.utf8).write(to: rules.appendingPathComponent(file.name))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: Repository.grammars) where name.hasSuffix(".yaml") {
            try FileManager.default.copyItem(atPath: Repository.grammars + "/" + name,
                                             toPath: grammars.appendingPathComponent(name).path)
        }
    }, teardown: {
        try? FileManager.default.removeItem(at: folder)
    })
}
