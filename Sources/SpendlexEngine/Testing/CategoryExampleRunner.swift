import Foundation
import PCRE2
import SpendlexRules

/// Runs the decision tables' row examples as tests: each example, given to its own table,
/// must be decided by its row (among the rows, under `collect`).
enum CategoryExampleRunner {
    /// The example as a categorizer input.
    static func input(for example: CategoryExample) -> CategoryInput {
        CategoryInput(merchant: example.merchant?.value, mcc: example.mcc, amount: example.amount,
                      direction: example.direction, kind: example.kind, bank: example.bank,
                      last4: example.last4, accountType: example.accountType)
    }

    /// Adds every table's examples to the report.
    static func run(_ categorizer: Categorizer, into report: inout RuleTestReport) {
        let scratch = MatchScratch()
        for table in categorizer.tables {
            var ran = false
            for (index, row) in table.rows.enumerated() {
                for (number, example) in row.rule.examples.enumerated() {
                    ran = true
                    report.categoryExamples += 1
                    let hit = table.evaluate(input(for: example), scratch: scratch)
                    let location = example.merchant?.location ?? example.location
                    let name = "\(row.id) example \(number + 1)"
                    if hit.indices.contains(index) {
                        report.record(RuleTestCase(suite: table.id, name: name, location: location, failures: []))
                        continue
                    }
                    let problem: String
                    if let other = hit.indices.first {
                        let row = table.rows[other]
                        let output = [row.category, row.subcategory].compactMap { $0 }.joined(separator: " > ")
                        problem = "decided by '\(row.id)' (\(output.isEmpty ? "no category" : output)) instead"
                    } else {
                        problem = "no row matched"
                    }
                    report.record(RuleTestCase(suite: table.id, name: name, location: location,
                                               failures: [.categoryExampleFailed(row.id, problem, at: location)]))
                }
            }
            if ran { report.tables += 1 }
        }
    }
}
