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

/// The categories file in `rules/README.md` checks clean and passes its own examples.
@Suite("Rule authors' guide: categories")
struct RulesGuideCategoriesTests {
    @Test func theGuidesCategoriesFilePassesItsOwnExamples() throws {
        let guide = try String(contentsOfFile: repositoryRoot + "/rules/README.md", encoding: .utf8)
        let section = try #require(guide.range(of: "## Categories, by example"))
        let start = try #require(guide.range(of: "```yaml\n", range: section.upperBound..<guide.endIndex))
        let end = try #require(guide.range(of: "```", range: start.upperBound..<guide.endIndex))
        let (engine, diagnostics) = compile(["rules/README.md#categories.yaml": String(guide[start.upperBound..<end.lowerBound])])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let report = RuleTestRunner.run(engine)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.categoryExamples == 5 && report.passed == 5)
    }
}
