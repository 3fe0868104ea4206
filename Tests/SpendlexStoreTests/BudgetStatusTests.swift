import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// Budgets on a day: spent as the report counts expenses, left, pace, rollover.
@Suite("Budget status")
struct BudgetStatusTests {
    static func budgets(_ yaml: String) throws -> Budgets {
        let (budgets, diagnostics) = BudgetFileReader.read(text: yaml, path: "budgets.yaml", categories: CategoryList.standard)
        try #require(!diagnostics.containsErrors, "\(diagnostics)")
        return try #require(budgets)
    }

    func spend(_ id: Int64, _ amount: Decimal, _ date: String, category: String = "Food & Dining", subcategory: String? = "Restaurants",
               direction: Direction = .debit, kind: TransactionKind? = .purchase, currency: String = "INR") -> StoredTransaction {
        var t = StoredTransaction.sample(id: id, merchant: "M\(id)", amount: amount, date: LocalDate(iso: date)!, currency: currency)
        t.category = category
        t.subcategory = subcategory
        t.direction = direction
        t.kind = kind
        return t
    }

    @Test("spent is debits less refunds in the category, currency and period; left and pace follow; over gets a warning")
    func spentAndLeft() throws {
        let budgets = try Self.budgets("""
            budgets:
              - {category: "Food & Dining", limit: 1000, currency: INR}
              - {category: "Food & Dining/Groceries", limit: 380, currency: INR}
            """)
        var duplicate = spend(6, 999, "2026-03-05")
        duplicate.duplicateOf = 1
        let rows = [
            spend(1, 400, "2026-03-02"), spend(2, 300, "2026-03-09", subcategory: "Groceries"),
            spend(3, 100, "2026-03-10", direction: .credit, kind: .refund),             // a refund takes it back
            spend(4, 700, "2026-02-27"),                                                 // last month
            spend(5, 50, "2026-03-03", currency: "EUR"),                                 // another currency
            duplicate,                                                                   // counted once, as its primary
            spend(7, 200, "2026-03-04", kind: .declined),                                // no money moved
            spend(8, 250, "2026-03-12", category: "Transport", subcategory: "Fuel"),
        ]
        let status = BudgetStatus(budgets: budgets, transactions: rows, day: LocalDate(iso: "2026-03-20")!)
        let food = status.entries[0]
        #expect(food.label == "2026-03")
        #expect(food.spent == 600)
        #expect(food.left == 400)
        #expect(food.transactions == [1, 2, 3])
        #expect(abs(food.elapsed - 20.0 / 31) < 1e-9)
        #expect(food.state == "on track")
        let groceries = status.entries[1]
        #expect(groceries.spent == 300)
        #expect(groceries.state == "ahead of pace")  // 79% used, 65% gone

        let over = BudgetStatus(budgets: budgets, transactions: rows + [spend(9, 900, "2026-03-14")], day: LocalDate(iso: "2026-03-15")!)
        #expect(over.entries[0].left == -500)
        #expect(over.entries[0].state == "over")
        #expect(over.text().contains("warning: Food & Dining is over budget by ₹500.00"))
    }

    @Test("rollover carries what each earlier period left, or overspent, into this one")
    func rollover() throws {
        let budgets = try Self.budgets("""
            budgets:
              - {category: "Food & Dining", limit: 1000, currency: INR, rollover: true, start: 2026-01-01}
            """)
        // January spends 800 (200 left), February 1,300 (300 over): March starts 100 down.
        let rows = [spend(1, 800, "2026-01-10"), spend(2, 1300, "2026-02-10"), spend(3, 250, "2026-03-02")]
        let entry = BudgetStatus(budgets: budgets, transactions: rows, day: LocalDate(iso: "2026-03-10")!).entries[0]
        #expect(entry.carried == -100)
        #expect(entry.spent == 250)
        #expect(entry.left == 650)
    }
}
