import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// The bank file in `rules/README.md` is a test too: a guide whose example fails teaches
/// the wrong thing.
@Suite("Rule authors' guide")
struct RulesGuideTests {
    @Test func theGuidesBankFilePassesItsOwnExamples() throws {
        let guide = try String(contentsOfFile: repositoryRoot + "/rules/README.md", encoding: .utf8)
        let section = try #require(guide.range(of: "## A bank file, by example"))
        let start = try #require(guide.range(of: "```yaml\n", range: section.upperBound..<guide.endIndex))
        let end = try #require(guide.range(of: "```", range: start.upperBound..<guide.endIndex))
        let (engine, diagnostics) = compile([
            "common.yaml": commonGrammar,
            "generic.yaml": try String(contentsOfFile: repositoryRoot + "/grammars/generic.yaml", encoding: .utf8),
            "rules/README.md#mybank.yaml": String(guide[start.upperBound..<end.lowerBound]),
        ])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let report = RuleTestRunner.run(engine)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.examples == 4 && report.counterExamples == 2 && report.passed == 6)
    }
}
