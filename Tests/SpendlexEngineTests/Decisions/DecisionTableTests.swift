import Foundation
import PCRE2
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Compiles one categories file's text; returns the categorizer and every diagnostic.
func categorizer(_ text: String, path: String = "categories.yaml") throws -> (Categorizer, [Diagnostic]) {
    let (engine, diagnostics) = compile([path: text])
    return (try #require(engine.rules.categorizer), diagnostics)
}

let twoCategories = """
    categories:
      Food & Dining: [Groceries, Restaurants, Coffee, Food Delivery]
      Transport: [Taxi & Rideshare, Fuel]
      Shopping: [Online]
      Uncategorized: []

    """

@Suite("Decision tables: hit policies")
struct HitPolicyTests {
    let scratch = MatchScratch()

    @Test func firstTakesTheFirstMatchingRowInOrder() throws {
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: eats, merchant: [Uber Eats], category: Food & Dining, subcategory: Food Delivery}
                  - {id: uber, merchant: [Uber], category: Transport, subcategory: Taxi & Rideshare}
                  - {id: big, merchant: [Uber], amount: {min: 100}, category: Shopping, subcategory: Online}
                  - {id: other, category: Uncategorized}
            """)
        #expect(places(diagnostics) == ["table.masked 12:14"], "big is masked by uber")
        let eats = categories.categorize(CategoryInput(merchant: "UBER *EATS"), scratch: scratch)
        #expect(eats.category == "Food & Dining" && eats.subcategory == "Food Delivery" && eats.rows == ["eats"])
        #expect(eats.reasons == [#"eats: merchant keyword 'Uber Eats' matched "UBER *EATS""#])
        let trip = categories.categorize(CategoryInput(merchant: "UBER *TRIP", amount: 500), scratch: scratch)
        #expect(trip.rows == ["uber"] && trip.table == "t" && !trip.isDefault)
        let other = categories.categorize(CategoryInput(merchant: "CORNER SHOP"), scratch: scratch)
        #expect(other.category == "Uncategorized" && other.rows == ["other"] && other.isDefault)
    }

    @Test func uniqueDecidesByTheOneMatchingRowAndFallsBackToTheCatchAll() throws {
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: mcc
                hit_policy: unique
                rows:
                  - {id: grocery, mcc: [5411, 5499], category: Food & Dining, subcategory: Groceries}
                  - {id: fuel, mcc: [5541-5542], category: Transport, subcategory: Fuel}
                  - {id: other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(categories.categorize(CategoryInput(mcc: 5542), scratch: scratch).rows == ["fuel"])
        #expect(categories.categorize(CategoryInput(mcc: 5499), scratch: scratch).reasons == ["grocery: mcc 5499 in 5411, 5499"])
        let none = categories.categorize(CategoryInput(mcc: 7011), scratch: scratch)
        #expect(none.rows == ["other"] && none.isDefault)
    }

    @Test func priorityTakesTheHighestThenTheEarliest() throws {
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: p
                hit_policy: priority
                rows:
                  - {id: shop, merchant: [Amazon], category: Shopping, subcategory: Online}
                  - {id: fresh, merchant: [Amazon Fresh], priority: 10, category: Food & Dining, subcategory: Groceries}
                  - {id: small, merchant: [Amazon], amount: {max: 5}, priority: 5, category: Food & Dining, subcategory: Coffee}
                  - {id: other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(categories.categorize(CategoryInput(merchant: "AMAZON FRESH", amount: 2), scratch: scratch).rows == ["fresh"])
        #expect(categories.categorize(CategoryInput(merchant: "AMAZON.COM", amount: 2), scratch: scratch).rows == ["small"])
        #expect(categories.categorize(CategoryInput(merchant: "AMAZON.COM", amount: 50), scratch: scratch).rows == ["shop"])
    }

    @Test func collectGathersEveryRowAndItsTags() throws {
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: c
                hit_policy: collect
                rows:
                  - {id: subscription, merchant: [Netflix, Spotify], tags: [subscription]}
                  - {id: music, merchant: [Spotify], category: Shopping, subcategory: Online, tags: [music]}
                  - {id: big, amount: {min: "1000"}, tags: [large]}
                  - {id: other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let spotify = categories.categorize(CategoryInput(merchant: "Spotify P1A2", amount: 1000), scratch: scratch)
        #expect(spotify.rows == ["subscription", "music", "big"])
        #expect(spotify.tags == ["subscription", "music", "large"])
        #expect(spotify.category == "Shopping")
        let netflix = categories.categorize(CategoryInput(merchant: "NETFLIX.COM"), scratch: scratch)
        #expect(netflix.category == "Uncategorized" && netflix.tags == ["subscription"])
    }

    @Test func tablesApplyInOrderAndTheFirstDecisiveOneWins() throws {
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: names
                hit_policy: first
                rows:
                  - {id: names.coffee, merchant: {patterns: ['(?i)\\bstarbucks\\b']}, category: Food & Dining, subcategory: Coffee}
                  - {id: names.other, category: Uncategorized}
              - id: codes
                hit_policy: unique
                rows:
                  - {id: codes.restaurants, mcc: [5812, 5814], direction: debit, category: Food & Dining, subcategory: Restaurants}
                  - {id: codes.other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let byName = categories.categorize(CategoryInput(merchant: "STARBUCKS 0123", mcc: 5814, direction: .debit),
                                           scratch: scratch)
        #expect(byName.rows == ["names.coffee"] && byName.table == "names")
        #expect(byName.reasons == [#"names.coffee: merchant pattern '(?i)\bstarbucks\b' matched "STARBUCKS""#])
        let byCode = categories.categorize(merchant: "JOE'S DINER", mcc: 5812, direction: .debit)
        #expect(byCode.rows == ["codes.restaurants"] && byCode.subcategory == "Restaurants")
        #expect(byCode.reasons == ["codes.restaurants: mcc 5812 in 5812, 5814, direction debit"])
        let neither = categories.categorize(merchant: "JOE'S DINER", mcc: 5812, direction: .credit)
        #expect(neither.rows == ["names.other"] && neither.isDefault)
    }

    @Test func conditionsOnAccountBankKindAndAmount() throws {
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: t
                hit_policy: first
                rows:
                  - id: fuel-card
                    account: {last4: ["4821"], type: card}
                    bank: [chase]
                    kind: purchase
                    amount: {min: "10.00", max: "200.00"}
                    category: Transport
                    subcategory: Fuel
                  - {id: other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let input = CategoryInput(merchant: "ANY", amount: Decimal(string: "199.99"), kind: .purchase, bank: "chase",
                                  last4: "4821", accountType: "card")
        #expect(categories.categorize(input, scratch: scratch).rows == ["fuel-card"])
        var atMax = input
        atMax.amount = 200
        #expect(categories.categorize(atMax, scratch: scratch).rows == ["other"], "max is exclusive")
        var otherBank = input
        otherBank.bank = "hdfc"
        #expect(categories.categorize(otherBank, scratch: scratch).rows == ["other"])
    }

    @Test func keywordsAreWholeWordsWithFlexibleSeparators() throws {
        let (categories, _) = try categorizer(twoCategories + """
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: wm, merchant: ["Wal-Mart", "Trader Joe's", "Ola"], category: Shopping, subcategory: Online}
                  - {id: other, category: Uncategorized}
            """)
        for merchant in ["WALMART", "WAL-MART #12", "Wal Mart", "TRADER JOES #552", "TRADER JOE'S", "OLA CABS", "ola"] {
            #expect(categories.categorize(CategoryInput(merchant: merchant), scratch: scratch).rows == ["wm"], "\(merchant)")
        }
        for merchant in ["HOLA CAFE", "OLAF", "WALMARTS", "SWALMART"] {
            #expect(categories.categorize(CategoryInput(merchant: merchant), scratch: scratch).rows == ["other"], "\(merchant)")
        }
    }

    @Test func patternsWithCaptureGroupsAndManyKeywordsStillWork() throws {
        // 20,000 keywords: more than one PCRE2 pattern can hold (64 KiB of compiled code), so the
        // matcher splits them.
        let keywords = (0..<20000).map { "\"Merchant\($0)x\"" }.joined(separator: ", ")
        let (categories, diagnostics) = try categorizer(twoCategories + """
            tables:
              - id: t
                hit_policy: first
                rows:
                  - {id: grouped, merchant: {patterns: ['(?i)^(amzn|amazon)\\b']}, category: Shopping, subcategory: Online}
                  - {id: many, merchant: [\(keywords)], category: Food & Dining, subcategory: Groceries}
                  - {id: other, category: Uncategorized}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(categories.tables[0].merchant.combined.count > 1)
        #expect(categories.categorize(CategoryInput(merchant: "AMZN Mktp"), scratch: scratch).rows == ["grouped"])
        #expect(categories.categorize(CategoryInput(merchant: "MERCHANT19999X 1"), scratch: scratch).rows == ["many"])
        #expect(categories.categorize(CategoryInput(merchant: "MERCHANT0X"), scratch: scratch).rows == ["many"])
    }
}
