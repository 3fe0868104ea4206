import Foundation
import PCRE2
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// `rules/categories.yaml`: checks clean, its row examples pass, real merchants land right.
@Suite("Bundled categories")
struct BundledCategoriesTests {
    static let loaded = RuleCompiler.load(paths: [repositoryRoot + "/rules/categories.yaml"])

    @Test func checksWithoutErrorsOrWarnings() throws {
        let (compiled, diagnostics) = Self.loaded
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let categorizer = try #require(compiled.categorizer)
        #expect(categorizer.tables.map(\.id) == ["kinds", "merchants", "mcc"])
        #expect(categorizer.tables.allSatisfy { $0.rows.last?.isCatchAll == true })
        let keywords = categorizer.tables[1].rule.rows.reduce(0) { $0 + ($1.conditions.merchant?.keywords.count ?? 0) }
        #expect(keywords > 800)
    }

    @Test func rowExamplesPass() {
        let report = RuleTestRunner.run(RuleEngine(rules: Self.loaded.0))
        #expect(report.failures.isEmpty, "\(report.failures.map(\.description))")
        #expect(report.categoryExamples > 250 && report.passed == report.categoryExamples)
    }

    @Test(arguments: [
        ("SWIGGY BANGALORE", "Food & Dining", "Food Delivery"),
        ("WHOLEFDS MKT #10234", "Food & Dining", "Groceries"),
        ("AMZN Mktp US*2K4", "Shopping", "Online"),
        ("TESCO STORES 3321", "Food & Dining", "Groceries"),
        ("UBER *TRIP", "Transport", "Taxi & Rideshare"),
        ("UBER *EATS", "Food & Dining", "Food Delivery"),
        ("Zomato Ltd", "Food & Dining", "Food Delivery"),
        ("BLINKIT GURGAON", "Food & Dining", "Groceries"),
        ("COSTCO WHSE #0123", "Shopping", "Warehouse Clubs"),
        ("WAL-MART #1234", "Shopping", "Superstores"),
        ("SHELL OIL 57442123", "Transport", "Fuel"),
        ("STARBUCKS STORE 09812", "Food & Dining", "Coffee"),
        ("NETFLIX.COM", "Entertainment", "Streaming"),
        ("APPLE.COM/BILL", "Entertainment", "Apps & Games"),
        ("APPLE STORE R123", "Shopping", "Electronics"),
        ("TFL TRAVEL CH", "Transport", "Public Transport"),
        ("IRCTC WEB", "Transport", "Public Transport"),
        ("BESCOM BANGALORE", "Bills & Utilities", "Electricity"),
        ("VZWRLSS*APOCC VISE", "Bills & Utilities", "Mobile & Internet"),
        ("APOLLO PHARMACY", "Health", "Pharmacy"),
        ("DELTA AIR 0062345678901", "Travel", "Airlines"),
        ("MARRIOTT HOTEL NYC", "Travel", "Hotels"),
        ("INDOMARET JKT", "Food & Dining", "Groceries"),
        ("GRAB*A-2BCD", "Transport", "Taxi & Rideshare"),
        ("OXXO TLALPAN", "Food & Dining", "Groceries"),
        ("TIM HORTONS #2231", "Food & Dining", "Coffee"),
        ("EAZYDINE0000000", "Uncategorized", nil),
    ] as [(String, String, String?)])
    func realMerchants(merchant: String, category: String, subcategory: String?) throws {
        let categorizer = try #require(Self.loaded.0.categorizer)
        let decision = categorizer.categorize(CategoryInput(merchant: merchant, direction: .debit, kind: .purchase),
                                              scratch: MatchScratch())
        #expect(decision.category == category && decision.subcategory == subcategory,
                "\(merchant): \(decision.rows) \(decision.reasons)")
    }

    @Test func kindsComeBeforeMerchantsAndCodesAfter() throws {
        let categorizer = try #require(Self.loaded.0.categorizer)
        let scratch = MatchScratch()
        let refund = categorizer.categorize(CategoryInput(merchant: "AMAZON", direction: .credit, kind: .refund), scratch: scratch)
        #expect(refund.category == "Income" && refund.subcategory == "Refunds" && refund.table == "kinds")
        let byCode = categorizer.categorize(CategoryInput(merchant: "SQ *JOES DINER", mcc: 5812), scratch: scratch)
        #expect(byCode.subcategory == "Restaurants" && byCode.table == "mcc")
        let atm = categorizer.categorize(CategoryInput(merchant: "ATM WDL 0123 MG ROAD", direction: .debit), scratch: scratch)
        #expect(atm.category == "Cash" && atm.subcategory == "ATM")
    }

    /// Parsed transactions get their category; the engine without categories leaves it empty.
    @Test func parsedTransactionsAreCategorized() throws {
        let (compiled, diagnostics) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        #expect(!diagnostics.containsErrors)
        let message = Message(id: "m", text: "Spent Rs.349 On HDFC Bank Card 0000 At SWIGGY BANGALORE On 2026-05-02:22:26:01.Not You?",
                              sender: "VM-HDFCBK")
        let worker = RuleEngine(rules: compiled).makeWorker()
        let transaction = try #require(worker.parse(message).transaction)
        #expect(transaction.category == "Food & Dining" && transaction.subcategory == "Food Delivery")
        let explanation = worker.explain(message).render()
        #expect(explanation.contains("category Food & Dining > Food Delivery by table merchants, row food.delivery\n"))
        #expect(explanation.contains(#"food.delivery: merchant keyword 'Swiggy' matched "SWIGGY""#))
    }
}

/// How long one categorization takes on the bundled tables. Off by default: `SPENDLEX_BENCH=1`
/// turns it on (`SPENDLEX_BENCH=1 swift test -c release --filter CategorizeBenchmark`).
@Suite("Categorize benchmark", .enabled(if: ProcessInfo.processInfo.environment["SPENDLEX_BENCH"] == "1"))
struct CategorizeBenchmark {
    @Test func perCategorization() throws {
        let categorizer = try #require(BundledCategoriesTests.loaded.0.categorizer)
        let scratch = MatchScratch()
        let merchants = ["SWIGGY BANGALORE", "WHOLEFDS MKT #10234", "AMZN Mktp US*2K4", "TESCO STORES 3321", "UBER *TRIP",
                         "EAZYDINE0000000", "RAZ*SampleFood", "SampleMerchant Store", "Pune Metro", "REWE Markt GmbH",
                         "SHELL OIL 57442123", "VZWRLSS*APOCC VISE", "JOHN DOE", "PAYTM*MERCHANT 1234 NOIDA"]
        let inputs = merchants.map { CategoryInput(merchant: $0, amount: 100, direction: .debit, kind: .purchase, bank: "hdfc") }
        let rounds = 20_000
        var sink = 0
        let clock = ContinuousClock()
        let output = clock.measure {
            for round in 0..<rounds {
                let (category, _, _) = categorizer.categoryOutput(inputs[round % inputs.count], scratch: scratch)
                sink &+= category?.utf8.count ?? 0
            }
        }
        let full = clock.measure {
            for round in 0..<rounds {
                sink &+= categorizer.categorize(inputs[round % inputs.count], scratch: scratch).reasons.count
            }
        }
        var merchantOnly = 0
        let matcher = clock.measure {
            for round in 0..<rounds {
                try? categorizer.tables[1].merchant.visitHits(in: merchants[round % merchants.count], scratch: scratch) { _, _ in
                    merchantOnly &+= 1
                }
            }
        }
        // The naive way, for comparison: one PCRE2 pattern per keyword, each matched in turn.
        let keywordPatterns = categorizer.tables[1].rule.rows.flatMap { $0.conditions.merchant?.keywords ?? [] }.map {
            try! Pattern(MerchantMatcher.wordStart + "(?i:" + MerchantMatcher.atoms(of: $0.value).map(\.regex).joined()
                         + ")" + MerchantMatcher.wordEnd)
        }
        let naiveRounds = rounds / 20
        let naive = clock.measure {
            for round in 0..<naiveRounds {
                for pattern in keywordPatterns where (try? pattern.matches(merchants[round % merchants.count], scratch: scratch)) == true {
                    merchantOnly &+= 1
                }
            }
        }
        func perCall(_ duration: Duration) -> String {
            let nanoseconds = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
            return String(format: "%.2f µs", nanoseconds / Double(rounds) / 1000)
        }
        print("categorize (engine path, category only): \(perCall(output))/call; with reasons: \(perCall(full))/call; "
              + "merchant keyword match alone: \(perCall(matcher))/call (one pattern per keyword: "
              + "\(perCall(naive * 20))/call for \(keywordPatterns.count) keywords); \(categorizer.tables[1].merchant.combined.count) "
              + "PCRE2 pattern(s) for the merchants table [\(sink), \(merchantOnly)]")
    }
}
