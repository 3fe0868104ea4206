import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Each static check on a small broken table: ids and line:column, not wording.
@Suite("Decision tables: static checks")
struct DecisionTableCheckTests {
    @Test func unknownCategoryAndSubcategory() throws {
        let (_, diagnostics) = try categorizer("""
            categories:
              Food & Dining: [Groceries]
              Uncategorized: []
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: a, merchant: [Tesco], category: Food & Dinning}
                  - {id: b, merchant: [Asda], category: Food & Dining, subcategory: Grocery}
                  - {id: other, category: Uncategorized}
            """)
        #expect(places(diagnostics) == ["category.unknown 8:46", "category.unknown 9:73"])
        #expect(diagnostics.sortedByLocation()[0].notes.first?.message == "did you mean 'Food & Dining'?")
        #expect(diagnostics.sortedByLocation()[1].notes.first?.message == "'Food & Dining' has: Groceries")
    }

    @Test func rowsWithoutACategoryOutsideCollectTables() throws {
        let (_, diagnostics) = try categorizer("""
            categories: {Uncategorized: []}
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: a, merchant: [Tesco], tags: [x]}
                  - {id: other, category: Uncategorized}
            """)
        #expect(places(diagnostics) == ["rule.missingKey 6:14"])
    }

    @Test func overlapUnderUniqueBySubsumedConditionsKeywordsAndExamples() throws {
        let (_, diagnostics) = try categorizer("""
            categories: {Food: [], Fuel: [], Uncategorized: []}
            tables:
              - id: codes
                hit_policy: unique
                rows:
                  - {id: grocery, mcc: [5411-5499], category: Food}
                  - {id: convenience, mcc: [5499], category: Food}
                  - {id: fuel, mcc: [5541], direction: debit, category: Fuel}
                  - {id: fuel-credit, mcc: [5541], direction: credit, category: Fuel}
                  - {id: codes.other, category: Uncategorized}
              - id: names
                hit_policy: unique
                rows:
                  - {id: uber, merchant: [Uber], category: Fuel}
                  - {id: eats, merchant: [Uber Eats], category: Food}
                  - {id: shell, merchant: {patterns: ['(?i)shell']}, category: Fuel}
                  - {id: oil, merchant: [Oil], category: Fuel, examples: [SHELL OIL]}
                  - {id: big, amount: {min: 1000}, category: Fuel}
                  - {id: names.other, category: Uncategorized}
            """)
        // convenience is inside grocery; eats' keyword is matched by uber; oil's example by shell;
        // big has no merchant condition, so any merchant row can match with it. fuel and
        // fuel-credit differ in direction: no overlap.
        #expect(places(diagnostics) == [
            "table.overlap 7:14",
            "table.overlap 15:14", "table.overlap 17:14",
            "table.overlap 18:14", "table.overlap 18:14", "table.overlap 18:14", "table.overlap 18:14",
        ])
        let evidence = diagnostics.sortedByLocation().map(\.message)
        #expect(evidence[1].hasSuffix("keyword 'Uber Eats' of 'eats' is matched by both"))
        #expect(evidence[2].hasSuffix(#"its example "SHELL OIL" matches both"#))
    }

    @Test func maskedUnderFirst() throws {
        let (_, diagnostics) = try categorizer("""
            categories: {Food: [], Taxi: [], Uncategorized: []}
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: uber, merchant: [Uber, Ola], category: Taxi}
                  - {id: eats, merchant: [Uber Eats], category: Food}
                  - {id: big, merchant: [Lyft, Ola], category: Taxi}
                  - {id: zomato, merchant: {patterns: ['(?i)zomato']}, category: Food}
                  - {id: zomato-too, merchant: [Zomato Ltd], category: Food, examples: [ZOMATO LTD]}
                  - {id: any, category: Uncategorized}
                  - {id: late, merchant: [Shell], category: Taxi}
            """)
        #expect(places(diagnostics) == [
            "table.noCatchAll 3:9",   // the last row has conditions
            "table.masked 7:14",      // eats: its keyword is matched by uber's
            "table.masked 8:36",      // big's keyword Ola only
            "table.masked 10:14",     // zomato-too: its example goes to zomato
            "table.masked 12:14",     // late: after the catch-all
        ])
        let noCatchAll = diagnostics.first { $0.id == .tableNoCatchAll }
        #expect(noCatchAll?.notes.first?.location?.line == 11)
    }

    @Test func maskedUnderPriorityNeedsAHigherOrEqualEarlierRow() throws {
        let (_, diagnostics) = try categorizer("""
            categories: {Food: [], Taxi: [], Uncategorized: []}
            tables:
              - id: t
                hit_policy: priority
                rows:
                  - {id: low, merchant: [Uber], category: Taxi}
                  - {id: high, merchant: [Uber Eats], priority: 5, category: Food}
                  - {id: same, merchant: [Uber], category: Taxi}
                  - {id: other, category: Uncategorized}
            """)
        #expect(places(diagnostics) == ["table.masked 8:14"])
    }

    @Test func collectTablesAreNotCheckedForOverlaps() throws {
        let (_, diagnostics) = try categorizer("""
            categories: {Uncategorized: []}
            tables:
              - id: tags
                hit_policy: collect
                rows:
                  - {id: a, merchant: [Netflix], tags: [subscription]}
                  - {id: b, merchant: [Netflix], tags: [streaming]}
                  - {id: other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test func aBadPatternIsLocatedInsideIt() throws {
        let (_, diagnostics) = try categorizer("""
            categories: {Food: [], Uncategorized: []}
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: a, merchant: {patterns: ['(?i)zom(ato']}, category: Food}
                  - {id: other, category: Uncategorized}
            """)
        #expect(places(diagnostics) == ["pattern.syntax 6:47"])
    }

    @Test func rowExamplesAreTestsInSpendlexTest() throws {
        let (engine, diagnostics) = compile(["c.yaml": """
            categories: {Food: [], Taxi: [], Uncategorized: []}
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: uber, merchant: [Uber], category: Taxi, examples: ["UBER *TRIP", "UBER *EATS"]}
                  - {id: eats, merchant: [Uber Eats], category: Food, examples: ["LYFT"]}
                  - {id: other, category: Uncategorized}
            """])
        #expect(places(diagnostics) == ["table.masked 7:14"])
        let report = RuleTestRunner.run(engine)
        #expect(report.categoryExamples == 3 && report.tables == 1)
        #expect(report.passed == 2 && report.failed == 1)
        #expect(places(report.failures) == ["test.failed 7:70"])
        #expect(report.coverage.hasSuffix("; 3 category examples from 1 decision table"))
    }
}
