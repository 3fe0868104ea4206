import Foundation
import GRDB
import SpendlexEngine
import SpendlexMeaning
import SpendlexRules

/// How `ask` read, by meaning, a phrase that names no merchant of the ledger ("cab rides",
/// "comida a domicilio", "gym"): through the categories of the merchants whose meaning is nearest,
/// or those merchants themselves. Always shown with the answer, so that a person sees what was
/// counted.
public struct MeaningReading: Sendable, Equatable {
    /// One of the nearest meanings: a merchant as the ledger writes it, its category, and how close.
    public struct Neighbour: Sendable, Equatable {
        public var merchant: String
        /// The subcategory, else the category; nil when uncategorized.
        public var label: String?
        public var similarity: Double
    }

    /// The phrase as the question gave it.
    public var phrase: String
    /// Whether any meaning stood out from the rest (`MeaningReadingRule.standingOut`); when none
    /// did, nothing is taken.
    public var stoodOut: Bool
    /// The median similarity of every meaning of the ledger to the phrase: what the nearest stood out from.
    public var median: Double
    /// The category (or subcategory) the nearest merchants share, when they do: the question is
    /// then about that category.
    public var category: String?
    /// Otherwise, the merchants taken (each as the ledger writes it).
    public var merchants: [String]
    /// The nearest meanings, best first: the evidence.
    public var nearest: [Neighbour]
}

/// How close is close enough, chosen by hand with the real model on the labelled search set's
/// ledger (`Tests/Fixtures/search`: "cab rides", "gym", "my landlord", "khana delivery", "parking",
/// and a dozen more, see the README) and on the four-merchant ledger of the end-to-end test: e5's
/// similarities crowd between 0.8 and 0.95, so only distances (from the best, from the median) say
/// anything, as in `MeaningRanking`. Not a measured optimum: no labelled set of questions exists.
public enum MeaningReadingRule {
    /// The best meaning must be this far above the median similarity of them all to be taken at
    /// all: on a ledger of four merchants (SWIGGY, ZOMATO, UBER INDIA, BIGBASKET), "gym", "landlord"
    /// or "piano lessons" are as near to one as to another (0.005 to 0.021 above the median),
    /// "cab rides" stands out (0.052). It does not tell a concept the ledger lacks from one it holds
    /// on a large ledger (there "parking" stands 0.028 above, "gym" 0.038 with two gyms held): the
    /// answer always shows what was taken.
    public static let standingOut: Float = 0.025
    /// The neighbourhood whose categories are counted: meanings within this of the best.
    public static let categoryMargin: Float = 0.015
    /// At most this many meanings in the neighbourhood.
    public static let neighbourhood = 10
    /// Merchants taken by themselves (no category shared): within this of the best, a tighter circle.
    public static let merchantMargin: Float = 0.005
    /// At most this many merchants' meanings taken by themselves.
    public static let merchants = 5
}

extension Ledger {
    /// Whether some merchant of the ledger holds every one of `words` (folded as questions are).
    func namesAMerchant(_ words: [String]) throws -> Bool {
        guard !words.isEmpty else { return false }
        return try pool.read { db in
            let merchants = try String.fetchCursor(db, sql: "SELECT DISTINCT merchant FROM transactions WHERE merchant IS NOT NULL")
            while let merchant = try merchants.next() {
                let folded = QuestionReader.tokens(merchant).joined(separator: " ")
                if words.allSatisfy({ folded.contains($0) }) { return true }
            }
            return false
        }
    }

    /// Reads `phrase` by meaning against the ledger's transactions (their meaning documents:
    /// merchant, category, kind, note; see `MeaningIndex`), only those moving money the way the
    /// question asks about (`direction`: spending is debits, income credits; nil: either; a friend who
    /// paid you is not where you spent). Among the meanings near the best (`MeaningReadingRule`), when
    /// more than half of those with a category share the category of the nearest one that has one,
    /// that category; otherwise the merchants of the few meanings nearest; nothing when no meaning
    /// stands out from the rest (`stoodOut` false). Nil when the ledger holds no such meaning.
    public func readByMeaning(_ phrase: String, direction: Direction? = nil, embedder: TextEmbedder) throws -> MeaningReading? {
        try updateMeaningIndex(embedder: embedder)
        // More than the neighbourhood: those moving money the other way are dropped below.
        let (nearest, median) = try nearestMeanings(to: phrase, embedder: embedder, count: MeaningReadingRule.neighbourhood * 3)
        // Each meaning's merchants (a document can be several spellings: "STARBUCKS STORE 08812",
        // "… 08813") and its label, from the primaries that have it.
        let described: [(merchants: [String], label: String?, similarity: Float)] = try pool.read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT t.merchant, t.category, t.subcategory, count(*) AS n
                FROM message_meanings mm JOIN messages m ON m.rowid = mm.message_rowid
                JOIN transactions t ON t.message_id = m.id
                WHERE mm.vector_id = ? AND t.duplicate_of IS NULL AND t.merchant IS NOT NULL
                  AND (? IS NULL OR t.direction = ?)
                GROUP BY t.merchant, t.category, t.subcategory ORDER BY n DESC, t.merchant
                """)
            var described: [(merchants: [String], label: String?, similarity: Float)] = []
            for meaning in nearest where described.count < MeaningReadingRule.neighbourhood {
                let rows = try Row.fetchAll(statement, arguments: [meaning.id, direction?.rawValue, direction?.rawValue])
                guard let first = rows.first else { continue }
                let category: String? = first["category"]
                let label = (first["subcategory"] as String?) ?? (category == StoredTransaction.uncategorized ? nil : category)
                described.append((rows.map { $0["merchant"] as String }, label, meaning.similarity))
            }
            return described
        }
        guard let best = described.first?.similarity else { return nil }
        let neighbours = described.map { MeaningReading.Neighbour(merchant: $0.merchants[0], label: $0.label, similarity: Double($0.similarity)) }
        guard best - median >= MeaningReadingRule.standingOut else {
            return MeaningReading(phrase: phrase, stoodOut: false, median: Double(median), category: nil, merchants: [],
                                  nearest: neighbours)
        }
        let labelled = described.filter { $0.label != nil && $0.similarity >= best - MeaningReadingRule.categoryMargin }
        if let label = labelled.first?.label, labelled.filter({ $0.label == label }).count * 2 > labelled.count {
            return MeaningReading(phrase: phrase, stoodOut: true, median: Double(median), category: label, merchants: [], nearest: neighbours)
        }
        var merchants: [String] = []
        for meaning in described.prefix(MeaningReadingRule.merchants) where meaning.similarity >= best - MeaningReadingRule.merchantMargin {
            for merchant in meaning.merchants where !merchants.contains(merchant) { merchants.append(merchant) }
        }
        return MeaningReading(phrase: phrase, stoodOut: true, median: Double(median), category: nil, merchants: merchants, nearest: neighbours)
    }
}
