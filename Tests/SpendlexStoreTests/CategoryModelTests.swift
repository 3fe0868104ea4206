import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// The learned category model on a generated ledger whose true categories are known: merchants
/// named the way shops name themselves ("NEW CITY PHARMACY", "SRI BALAJI MEDICALS"), half of them
/// categorized by a person, the other half never seen; amounts and days shaped by category.
@Suite("Learned categories")
struct CategoryModelTests {
    /// Per true category: the words its shops' names end with, and its amounts (whole rupees).
    static let kinds: [(label: CategoryModel.Label, words: [String], amounts: ClosedRange<Int>)] = [
        (.init(category: "Food & Dining", subcategory: "Groceries"), ["SUPERMARKET", "GROCERY", "MART", "PROVISION STORE", "FRESH"], 300...4000),
        (.init(category: "Food & Dining", subcategory: "Coffee"), ["CAFE", "COFFEE", "COFFEE HOUSE", "ROASTERS", "BREW"], 120...450),
        (.init(category: "Food & Dining", subcategory: "Restaurants"), ["RESTAURANT", "DHABA", "BIRYANI HOUSE", "GRILL", "KITCHEN"], 400...3000),
        (.init(category: "Health", subcategory: "Pharmacy"), ["PHARMACY", "MEDICALS", "CHEMISTS", "MEDICAL STORE", "DRUG HOUSE"], 80...1500),
        (.init(category: "Transport", subcategory: "Fuel"), ["PETROL PUMP", "FUEL STATION", "FILLING STATION", "SERVICE STATION", "PETROLEUM"], 500...4000),
        (.init(category: "Shopping", subcategory: "Clothing"), ["FASHIONS", "GARMENTS", "TEXTILES", "BOUTIQUE", "APPARELS"], 700...6000),
    ]
    static let names = ["SRI BALAJI", "NEW CITY", "ROYAL", "GREEN LEAF", "SHREE GANESH", "STAR", "LAKSHMI", "CROWN",
                        "SUNRISE", "MODERN", "GOLDEN", "PARK VIEW", "OM SAI", "CITY CENTRE", "NATIONAL", "HIGHWAY"]

    /// Merchants with their true label; each merchant pays `visits` times.
    static func merchants(seed: UInt64) -> [(name: String, label: CategoryModel.Label, amounts: ClosedRange<Int>)] {
        var random = SeededGenerator(state: seed)
        var made: [(String, CategoryModel.Label, ClosedRange<Int>)] = []
        var used = Set<String>()
        for kind in kinds {
            for name in names.shuffled(using: &random) {
                let merchant = "\(name) \(kind.words.randomElement(using: &random)!)"
                guard used.insert(merchant).inserted else { continue }
                made.append((merchant, kind.label, kind.amounts))
            }
        }
        return made.shuffled(using: &random)
    }

    func transactions(_ merchants: [(name: String, label: CategoryModel.Label, amounts: ClosedRange<Int>)], seed: UInt64,
                      visits: Int = 3, firstID: Int = 0) -> [Transaction] {
        var random = SeededGenerator(state: seed &+ 99)
        var rows: [Transaction] = []
        for (index, merchant) in merchants.enumerated() {
            for visit in 0..<visits {
                let day = 1 + (index * 7 + visit * 11) % 28
                var t = transaction("m\(firstID + index)-\(visit)", amount: "\(Int.random(in: merchant.amounts, using: &random)).00",
                                    date: String(format: "2026-%02d-%02d", 1 + visit % 12, day), merchant: merchant.name)
                t.category = nil
                rows.append(t)
            }
        }
        return rows
    }

    @Test("merchants no table names are categorized from what the ledger learned, with k-fold accuracy reported")
    func categorizesUnseenMerchants() throws {
        let merchants = Self.merchants(seed: 7)
        let half = merchants.count / 2
        let (ledger, _) = try makeLedger()
        try ledger.write(transactions(merchants, seed: 7).map(record), run: nil)
        // A person categorized the first half's merchants.
        let truth = Dictionary(merchants.map { ($0.name, $0.label) }, uniquingKeysWith: { a, _ in a })
        let taught = Set(merchants.prefix(half).map(\.name))
        for t in try ledger.transactions() where taught.contains(t.merchant ?? "") {
            let label = try #require(truth[t.merchant!])
            #expect(try ledger.setCategory(transaction: t.id, category: label.category, subcategory: label.subcategory))
        }
        let evaluation = try ledger.evaluateCategoryModel(folds: 5)
        #expect(evaluation.examples == half * 3)
        // Half the merchants of each fold have a last word no other merchant of the ledger has: the
        // letters and the amounts decide those, and not always right.
        #expect(evaluation.accuracy >= 0.65, "\(evaluation.text())")
        #expect(evaluation.confidentAccuracy >= 0.9, "\(evaluation.text())")
        #expect(evaluation.coverage >= 0.5, "\(evaluation.text())")

        let counts = try ledger.learnCategories()
        let learned = try ledger.transactions().filter { !taught.contains($0.merchant ?? "") }
        let categorized = learned.filter { $0.categoryProbability != nil }
        #expect(counts.categorized == categorized.count)
        #expect(counts.categorized + counts.forReview == learned.count)
        let right = categorized.filter { truth[$0.merchant!] == CategoryModel.Label(category: $0.category!, subcategory: $0.subcategory) }
        #expect(Double(categorized.count) >= 0.5 * Double(learned.count), "\(counts)")
        #expect(Double(right.count) >= 0.9 * Double(categorized.count), "\(right.count) of \(categorized.count) right")
        // What it was not sure of stays uncategorized, for review, with its guess kept.
        for t in learned where t.categoryProbability == nil {
            #expect(t.category == StoredTransaction.uncategorized)
            #expect(t.status == .review)
            #expect(t.learned != nil)
        }
    }

    @Test("learning trains from cursors and categorizes a chunk at a time: every transaction is reached, with the model of the examples held")
    func learnsInChunks() throws {
        let merchants = Self.merchants(seed: 11)
        let taught = Dictionary(merchants.prefix(merchants.count / 2).map { ($0.name, $0.label) }, uniquingKeysWith: { a, _ in a })
        var rows = transactions(merchants, seed: 11, visits: 50)
        for index in rows.indices {
            guard let label = taught[rows[index].merchant ?? ""] else { continue }
            (rows[index].category, rows[index].subcategory) = (label.category, label.subcategory)
        }
        let (ledger, _) = try makeLedger()
        try ledger.write(rows.map(record), run: nil)
        let stored = try ledger.transactions().filter { $0.duplicateOf == nil }
        let toLearn = stored.filter { taught[$0.merchant ?? ""] == nil }
        #expect(toLearn.count > Ledger.learningChunk)
        // The model trained from cursors is the model of the examples held in memory, to the bit.
        let held = CategoryModel(examples: try ledger.categoryExamples().map(\.example))
        let streamed = try ledger.categoryModel()
        #expect(streamed.exampleCount == held.exampleCount)
        for t in toLearn.prefix(50) { #expect(streamed.predict(t.modelFeatures) == held.predict(t.modelFeatures)) }

        let counts = try ledger.learnCategories()
        #expect(counts.categorized + counts.forReview == toLearn.count)
        #expect(try ledger.transactions().filter { taught[$0.merchant ?? ""] == nil && $0.duplicateOf == nil && $0.learned == nil }.isEmpty)
    }

    @Test("a correction of one merchant's category changes that merchant's later transactions and no other merchant's")
    func correctionsTeach() throws {
        let merchants = Self.merchants(seed: 11)
        let (ledger, _) = try makeLedger()
        try ledger.write(transactions(merchants, seed: 11).map(record), run: nil)
        let truth = Dictionary(merchants.map { ($0.name, $0.label) }, uniquingKeysWith: { a, _ in a })
        // A person categorized the first half of the merchants; the model categorizes the rest.
        let taught = Set(merchants.prefix(merchants.count / 2).map(\.name))
        for t in try ledger.transactions() where taught.contains(t.merchant!) {
            let label = try #require(truth[t.merchant!])
            _ = try ledger.setCategory(transaction: t.id, category: label.category, subcategory: label.subcategory)
        }
        // A shop whose name says nothing, seen once: the model takes it for something it is not.
        let odd = (name: "ZEPHYR TRADING", label: CategoryModel.Label(category: "Education", subcategory: nil), amounts: 2000...2500)
        try ledger.write(transactions([odd], seed: 13, visits: 1, firstID: 2000).map(record), run: nil)
        _ = try ledger.learnCategories()
        let before = try ledger.transactions()
        let zephyr = try #require(before.first { $0.merchant == odd.name })
        #expect(zephyr.category != "Education")

        // The person corrects it.
        #expect(try ledger.setCategory(transaction: zephyr.id, category: "Education", subcategory: nil))
        let categoriesBefore = Dictionary(before.filter { $0.merchant != odd.name }.map { ($0.id, $0.categoryName) }, uniquingKeysWith: { a, _ in a })

        // Later: every merchant once more, the corrected one twice.
        let later = transactions(merchants + [odd, odd], seed: 12, visits: 1, firstID: 1000)
        try ledger.write(later.map(record), run: nil)
        _ = try ledger.learnCategories()
        let after = try ledger.transactions()
        let laterZephyr = after.filter { $0.merchant == odd.name && $0.id != zephyr.id }
        #expect(laterZephyr.count == 2)
        #expect(laterZephyr.allSatisfy { $0.category == "Education" }, "\(laterZephyr.map(\.categoryName))")
        // No other merchant's transactions changed, and their later ones are what they were before:
        // a taught merchant's, the person's category; a learned one's, the model's as before.
        for t in after where t.merchant != odd.name {
            if let earlier = categoriesBefore[t.id] {
                #expect(t.categoryName == earlier, "\(t.merchant!) changed")
            } else if taught.contains(t.merchant!) {
                #expect(CategoryModel.Label(category: t.categoryName, subcategory: t.subcategory) == truth[t.merchant!], "\(t.merchant!)")
            } else {
                let earlier = before.filter { $0.merchant == t.merchant }.map(\.categoryName)
                #expect(earlier.contains(t.categoryName) || t.categoryName == StoredTransaction.uncategorized, "\(t.merchant!): \(t.categoryName) vs \(earlier)")
            }
        }
    }

    @Test("explain names the features that decided, in words")
    func explains() throws {
        let merchants = Self.merchants(seed: 5)
        let (ledger, _) = try makeLedger()
        try ledger.write(transactions(merchants, seed: 5).map(record), run: nil)
        let truth = Dictionary(merchants.map { ($0.name, $0.label) }, uniquingKeysWith: { a, _ in a })
        let heldOut = try #require(merchants.first { $0.name.hasSuffix("PHARMACY") }).name
        for t in try ledger.transactions() where t.merchant != heldOut {
            let label = try #require(truth[t.merchant!])
            _ = try ledger.setCategory(transaction: t.id, category: label.category, subcategory: label.subcategory)
        }
        let pharmacy = try #require(try ledger.transactions().first { $0.merchant == heldOut })
        let prediction = try #require(try ledger.explainCategory(of: pharmacy.id))
        #expect(prediction.label.category == "Health")
        #expect(!prediction.evidence.isEmpty)
        #expect(prediction.evidence.allSatisfy { $0.pull > 0 })
    }
}
