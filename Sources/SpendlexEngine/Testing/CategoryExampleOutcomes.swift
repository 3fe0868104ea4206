import Foundation
import SpendlexRules

extension RuleEngine {
    /// What the whole rule set decides for each decision-table row's examples, keyed by the row
    /// id and the example's number ("food.swiggy example 1" → "Food & Dining > Food Delivery"):
    /// a row added before the tables (a person's remembered merchant) must leave these as they were.
    public func categoryExampleOutcomes() -> [String: String] {
        let worker = makeWorker()
        var outcomes: [String: String] = [:]
        for table in rules.rules.categoryTables {
            for row in table.rows {
                for (number, example) in row.examples.enumerated() {
                    let decision = worker.categorize(CategoryExampleRunner.input(for: example))
                    outcomes["\(row.id.value) example \(number + 1)"] =
                        [decision?.category, decision?.subcategory].compactMap { $0 }.joined(separator: " > ")
                }
            }
        }
        return outcomes
    }
}
