import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Every example and counter-example in `rules/` is a test, as SwiftLint's rule examples are.
@Suite("Bundled rule files")
struct BundledRuleExamplesTests {
    static let loaded = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
    static var parserIDs: [String] { loaded.0.banks.flatMap { $0.parsers.map(\.id) } }

    @Test func compileWithoutErrorsOrWarnings() {
        let (compiled, diagnostics) = Self.loaded
        let lint = RuleTestRunner.lint(RuleEngine(rules: compiled))
        #expect((diagnostics + lint).isEmpty, "\(diagnostics + lint)")
    }

    @Test(arguments: parserIDs)
    func examplesPass(parserID: String) throws {
        let (compiled, _) = Self.loaded
        // Run the whole suite restricted to one parser's examples.
        let report = RuleTestRunner.run(RuleEngine(rules: compiled), only: parserID)
        #expect(report.failures.isEmpty, "\(report.failures.map(\.description))")
        #expect(report.passed > 0)
    }
}
