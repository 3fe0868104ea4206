import Foundation
import Testing
@testable import SpendlexRules

@Suite("Categories files")
struct CategoryLoaderTests {
    static let text = """
        categories:
          Food & Dining: [Groceries, Food Delivery]
          Uncategorized: []
        tables:
          - id: merchants
            hit_policy: first
            rows:
              - id: food.delivery
                merchant:
                  keywords: [Swiggy, Uber Eats]
                  patterns: ['(?i)^zomato']
                mcc: [5812, 3000-3350]
                amount: {min: 10, max: "500.50"}
                account: {last4: ["1234"], type: card}
                direction: debit
                kind: [purchase, refund]
                bank: hdfc
                category: Food & Dining
                subcategory: Food Delivery
                tags: [delivery]
                priority: 3
                examples:
                  - SWIGGY BANGALORE
                  - {merchant: UBER EATS, amount: "12.50", direction: debit, mcc: 5812}
              - id: other
                category: Uncategorized
        """

    @Test func loadsEveryKeyWithLocations() throws {
        let (ruleSet, diagnostics) = loadText(Self.text, path: "categories.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(ruleSet.categories.map(\.name.value) == ["Food & Dining", "Uncategorized"])
        #expect(ruleSet.categories[0].subcategories.map(\.value) == ["Groceries", "Food Delivery"])
        let table = try #require(ruleSet.categoryTables.first)
        #expect(table.id.value == "merchants" && table.hitPolicy.value == .first)
        #expect((table.id.location.line, table.id.location.column) == (5, 9))
        #expect(table.rows.map(\.id.value) == ["food.delivery", "other"])
        let row = table.rows[0]
        #expect((row.id.location.line, row.id.location.column) == (8, 13))
        let merchant = try #require(row.conditions.merchant)
        #expect(merchant.keywords.map(\.value) == ["Swiggy", "Uber Eats"])
        #expect((merchant.keywords[1].location.line, merchant.keywords[1].location.column) == (10, 30))
        #expect(merchant.patterns.map(\.value) == ["(?i)^zomato"])
        #expect(row.conditions.mcc.map(\.value) == [5812...5812, 3000...3350])
        #expect(row.conditions.amount?.min?.value == 10 && row.conditions.amount?.max?.value == Decimal(string: "500.50"))
        #expect(row.conditions.account?.last4.map(\.value) == ["1234"] && row.conditions.account?.type?.value == "card")
        #expect(row.conditions.direction?.value == .debit)
        #expect(row.conditions.kinds.map(\.value) == [.purchase, .refund])
        #expect(row.conditions.banks.map(\.value) == ["hdfc"])
        #expect(row.category?.value == "Food & Dining" && row.subcategory?.value == "Food Delivery")
        #expect((row.subcategory?.location.line, row.subcategory?.location.column) == (19, 22))
        #expect(row.tags.map(\.value) == ["delivery"] && row.priority?.value == 3)
        #expect(row.examples.map { $0.merchant?.value } == ["SWIGGY BANGALORE", "UBER EATS"])
        #expect(row.examples[1].amount == Decimal(string: "12.50") && row.examples[1].mcc == 5812)
        #expect(!row.isCatchAll && table.rows[1].isCatchAll)
    }

    @Test func aListOfMerchantsIsKeywords() throws {
        let (ruleSet, diagnostics) = loadText("""
            tables:
              - id: t
                hit_policy: unique
                rows:
                  - {id: a, merchant: [Tesco, Asda], category: X}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(ruleSet.categoryTables.first?.rows.first?.conditions.merchant?.keywords.map(\.value) == ["Tesco", "Asda"])
    }

    @Test func unknownKeysAndBadValuesAreLocatedErrors() {
        let (_, diagnostics) = loadText("""
            categories: {Food: []}
            tables:
              - id: t
                hit_policy: sometimes
                rows: []
              - id: u
                hit_policy: first
                rows:
                  - id: a
                    merchnt: [x]
                    mcc: [54, 5999-5000]
                    amount: {min: 10, max: 5}
                    direction: sideways
                    category: Food
                  - id: a
                    category: Food
                    examples: [{merchant: x, colour: red}]
              - id: v
                rows: []
            """)
        #expect(places(diagnostics) == [
            "rule.invalidValue 4:17",   // hit_policy sometimes
            "rule.unknownKey 10:9",     // merchnt
            "rule.invalidValue 11:15",  // 54
            "rule.invalidValue 11:19",  // 5999-5000
            "rule.invalidValue 12:32",  // max below min
            "rule.invalidValue 13:20",  // sideways
            "rule.duplicateID 15:13",   // row a twice
            "rule.unknownKey 17:34",    // colour
            "rule.missingKey 18:9",     // no hit_policy
        ])
    }

    @Test func fileKindIsRecognisedByItsKeys() {
        let (ruleSet, diagnostics) = loadText("categories: {Food: [Groceries]}\n")
        #expect(diagnostics.isEmpty)
        #expect(ruleSet.categories.count == 1)
    }
}
