import Foundation
import Testing
@testable import SpendlexRules

/// The budgets file: read with every problem located, as rule files are.
@Suite("Budgets file")
struct BudgetFileReaderTests {
    static let categories = CategoryList([.init(name: "Food & Dining", subcategories: ["Groceries", "Restaurants"]),
                                                   .init(name: "Transport", subcategories: ["Fuel"])])

    @Test("budgets with their categories, limits, currencies, periods and rollover")
    func reads() throws {
        let text = """
            budgets:
              - {category: "Food & Dining", limit: 15000, currency: INR, period: month, rollover: true}
              - {category: "Food & Dining/Restaurants", limit: "4000.50", currency: INR}
              - {category: Transport, limit: 300, currency: EUR, period: week, start: 2026-01-05}
            """
        let (budgets, diagnostics) = BudgetFileReader.read(text: text, path: "budgets.yaml", categories: Self.categories)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let list = try #require(budgets?.budgets)
        #expect(list.map(\.name) == ["Food & Dining", "Food & Dining / Restaurants", "Transport"])
        #expect(list.map(\.limit) == [15000, Decimal(string: "4000.50")!, 300])
        #expect(list.map(\.period) == [.month, .month, .week])
        #expect(list.map(\.rollover) == [true, false, false])
        #expect(list[2].start == "2026-01-05")
    }

    @Test("each problem is reported where it is written", arguments: [
        ("  - {category: Food, limit: 10, currency: INR}", "category.unknown", 2),
        ("  - {category: \"Food & Dining/Coffee\", limit: 10, currency: INR}", "category.unknown", 2),
        ("  - {category: Transport, limit: \"1,000\", currency: INR}", "rule.invalidValue", 2),
        ("  - {category: Transport, limit: -5, currency: INR}", "rule.invalidValue", 2),
        ("  - {category: Transport, limit: 10, currency: rupees}", "rule.invalidValue", 2),
        ("  - {category: Transport, limit: 10, currency: INR, period: fortnight}", "rule.invalidValue", 2),
        ("  - {category: Transport, limit: 10, currency: INR, start: 2026-02-30}", "rule.invalidValue", 2),
        ("  - {category: Transport, limit: 10, currency: INR, cap: 3}", "rule.unknownKey", 2),
        ("  - {category: Transport, currency: INR}", "rule.missingKey", 2),
    ])
    func problems(line: String, id: String, lineNumber: Int) {
        let (_, diagnostics) = BudgetFileReader.read(text: "budgets:\n" + line + "\n", path: "budgets.yaml", categories: Self.categories)
        let error = diagnostics.first { $0.severity == .error }
        #expect(error?.id.description == id, "\(diagnostics)")
        #expect(error?.location.line == lineNumber)
        #expect(error?.location.file == "budgets.yaml")
    }
}
