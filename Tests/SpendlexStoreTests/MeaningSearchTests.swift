import Foundation
import GRDB
import Testing
@testable import SpendlexEngine
import SpendlexMeaning
@testable import SpendlexStore

/// A stand-in embedder for the index's bookkeeping: each text's vector is its words hashed into
/// 64 dimensions (texts sharing words are close), and every text it is given is counted.
final class CountingEmbedder: TextEmbedder, @unchecked Sendable {
    let dimension = 64
    let identity: String
    private let lock = NSLock()
    private var embedded: [String] = []

    init(identity: String = "counting/1") { self.identity = identity }

    var texts: [String] { lock.withLock { embedded } }

    func embed(_ texts: [String], as role: EmbeddingRole) throws -> [[Float]] {
        lock.withLock { if role == .passage { embedded += texts } }
        return texts.map { text in
            var vector = [Float](repeating: 0, count: dimension)
            for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
                vector[Int(word.unicodeScalars.reduce(UInt32(7)) { ($0 &* 31) &+ $1.value } % UInt32(dimension))] += 1
            }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? vector.map { $0 / norm } : vector
        }
    }
}

/// The installed embedding model, or an issue saying how to install it (`scripts/dev model`, part
/// of `scripts/dev deps`, which the README's test command runs first).
func installedModel() -> EmbeddingModel? {
    switch EmbeddingModel.installed() {
    case .success(let model): return model
    case .failure(let error):
        Issue.record("search by meaning is not tested: \(error)")
        return nil
    }
}

private func texted(_ id: String, merchant: String, category: String? = nil, subcategory: String? = nil,
                    text: String) -> MessageRecord {
    var t = transaction(id, merchant: merchant)
    t.category = category
    t.subcategory = subcategory
    var r = record(t)
    r.text = text
    return r
}

@Suite("Search by meaning")
struct MeaningSearchTests {
    @Test("int8 vectors keep the order of similarities and read back what they wrote")
    func quantizedVectors() throws {
        var generator = SeededGenerator(state: 7)
        func unit() -> [Float] {
            let raw = (0..<384).map { _ in Float.random(in: -1...1, using: &generator) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm }
        }
        let query = unit()
        let vectors = (0..<200).map { _ in unit() }
        var matrix = MeaningMatrix(dimension: 384)
        var stored = MeaningMatrix(dimension: 384)
        for vector in vectors {
            let quantized = MeaningVector(vector)
            #expect(MeaningVector(data: quantized.data, dimension: 384) == quantized)
            matrix.append(quantized)
            let added = stored.append(stored: quantized.data)
            #expect(added)
        }
        let refused = stored.append(stored: Data([1, 2, 3]))
        #expect(!refused)
        #expect(stored.similarities(to: query) == matrix.similarities(to: query))
        let exact = vectors.map { zip($0, query).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
        let approximate = matrix.similarities(to: query)
        for (a, b) in zip(exact, approximate) { #expect(abs(a - b) < 0.01) }
        #expect(MeaningVector(data: Data([1, 2, 3]), dimension: 384) == nil)
    }

    @Test("a meaning document is the merchant without its figures, category, kind and note; a message without a transaction has none")
    func documents() throws {
        #expect(MeaningDocument.withoutFigures("Rs 1,250.00 debited on 12/03/26 at SHOP 42.") == "Rs # debited on # at SHOP #.")
        #expect(MeaningDocument.withoutFigures("a/c **9813, ref १२३") == "a/c **#, ref #")
        let (ledger, _) = try makeLedger()
        try ledger.write([
            texted("a", merchant: "SWIGGY", category: "Food & Dining", subcategory: "Food Delivery", text: "Rs 250 at SWIGGY"),
            texted("b", merchant: "SWIGGY", category: "Food & Dining", subcategory: "Food Delivery", text: "Rs 310 at SWIGGY"),
            MessageRecord(id: "c", channel: .sms, sender: "+15550100", status: .unmatched, text: "Lunch at 1:30? I owe you 200"),
        ], run: nil)
        let embedder = CountingEmbedder()
        #expect(try ledger.updateMeaningIndex(embedder: embedder) == 1)
        #expect(embedder.texts == ["SWIGGY. Food & Dining / Food Delivery"])
        #expect(try ledger.meaningIndexSize() == (messages: 2, documents: 1))
        // Nothing new: nothing embedded.
        #expect(try ledger.updateMeaningIndex(embedder: embedder) == 0)
    }

    @Test("the vectors follow new messages, edits, reparsing and deletion, and another model's are made again")
    func inStep() throws {
        let (ledger, _) = try makeLedger()
        let embedder = CountingEmbedder()
        try ledger.write([texted("a", merchant: "SWIGGY", text: "Rs 250 at SWIGGY")], run: nil)
        try ledger.updateMeaningIndex(embedder: embedder)
        // A new message above the mark.
        try ledger.write([texted("b", merchant: "ZOMATO", text: "Rs 410 at ZOMATO")], run: nil)
        // A note on an embedded transaction changes its meaning.
        let a = try #require(try ledger.transaction(forMessage: "a"))
        #expect(try ledger.edit(transaction: a.id, TransactionEdit(note: "dinner with Ana")))
        #expect(try ledger.updateMeaningIndex(embedder: embedder) == 2)
        #expect(embedder.texts.suffix(2).sorted() == ["SWIGGY. dinner with Ana", "ZOMATO"])
        // An unmatched message (no vector) that a reparse turns into a transaction.
        try ledger.write([MessageRecord(id: "c", channel: .sms, status: .unmatched, text: "Paid 99 to UBER")], run: nil)
        #expect(try ledger.updateMeaningIndex(embedder: embedder) == 0)
        #expect(try ledger.meaningIndexSize().messages == 2)
        try ledger.write([texted("c", merchant: "UBER", text: "Paid 99 to UBER")], run: nil, reprocess: true)
        try ledger.updateMeaningIndex(embedder: embedder)
        #expect(embedder.texts.last == "UBER")
        #expect(try ledger.meaningIndexSize() == (messages: 3, documents: 3))
        // A deleted transaction's message has no vector any more; its document, read by nobody, goes.
        let b = try #require(try ledger.transaction(forMessage: "b"))
        #expect(try ledger.delete(transaction: b.id))
        try ledger.updateMeaningIndex(embedder: embedder)
        let size = try ledger.meaningIndexSize()
        #expect(size.messages == 2 && size.documents == 2)
        // Another model: everything embedded again.
        let other = CountingEmbedder(identity: "counting/2")
        try ledger.updateMeaningIndex(embedder: other)
        #expect(other.texts.count == size.documents)
        // A rebuild makes the same.
        let rebuilt = CountingEmbedder(identity: "counting/2")
        try ledger.rebuildSearchIndexes(embedder: rebuilt)
        #expect(rebuilt.texts.sorted() == other.texts.sorted())
        try ledger.checkSearchIndex()
    }

    @Test("hybrid ranking: a merchant typed exactly first; words alone when asked or without a model")
    func hybridRanking() throws {
        let (ledger, _) = try makeLedger()
        try ledger.write([
            texted("a", merchant: "NETFLIX", category: "Entertainment", subcategory: "Streaming", text: "Rs 649 to NETFLIX"),
            texted("b", merchant: "SPOTIFY", category: "Entertainment", subcategory: "Streaming", text: "Rs 119 to SPOTIFY"),
            texted("c", merchant: "BIGBASKET", category: "Food & Dining", subcategory: "Groceries", text: "Rs 900 at BIGBASKET for netflix snacks"),
        ], run: nil)
        let embedder = CountingEmbedder()
        let hybrid = try ledger.search("netflix", mode: .hybrid, embedder: embedder)
        #expect(hybrid.mode == .hybrid)
        #expect(hybrid.hits.first?.transaction?.merchant == "NETFLIX")
        #expect(hybrid.hits.first?.snippet.contains("«NETFLIX»") == true)
        let exact = try ledger.search("netflix", mode: .exact, embedder: embedder)
        #expect(exact.mode == .exact)
        #expect(Set(exact.hits.compactMap(\.transaction?.merchant)) == ["NETFLIX", "BIGBASKET"])
        let none = try ledger.search("netflix", mode: .hybrid, embedder: nil)
        #expect(none.mode == .exact)
        #expect(none.total == 2)
        // By meaning alone: every hit has a similarity and no bm25 score when no word matched.
        let semantic = try ledger.search("streaming entertainment", mode: .semantic, embedder: embedder)
        #expect(["NETFLIX", "SPOTIFY"].contains(semantic.hits.first?.transaction?.merchant))
        #expect(semantic.hits.allSatisfy { $0.similarity != nil && $0.score == nil })
        // A new meaning is found by the next search: the scanned vectors are not kept past a change.
        try ledger.write([texted("d", merchant: "APPLE MUSIC", category: "Entertainment", subcategory: "Streaming",
                                 text: "Rs 99 to APPLE MUSIC")], run: nil)
        let again = try ledger.search("apple music", mode: .semantic, embedder: embedder)
        #expect(again.hits.first?.transaction?.merchant == "APPLE MUSIC")
    }

    @Test("with the real model, 'food delivery' finds the delivery services before a taxi and a grocery store, in four languages")
    func realModel() throws {
        guard let model = installedModel() else { return }
        let (ledger, _) = try makeLedger()
        try ledger.write([
            // Categorized as the bundled categories file does: a brand's name alone means little to
            // the model, its category is what it knows.
            texted("s1", merchant: "SWIGGY", category: "Food & Dining", subcategory: "Food Delivery", text: "Rs 250.00 spent at SWIGGY"),
            texted("z1", merchant: "ZOMATO", category: "Food & Dining", subcategory: "Food Delivery", text: "Rs 410.00 spent at ZOMATO"),
            texted("u1", merchant: "UBER INDIA", category: "Transport", subcategory: "Taxi & Rideshare", text: "Rs 180.00 spent at UBER INDIA"),
            texted("g1", merchant: "DMART SUPERMARKET", category: "Food & Dining", subcategory: "Groceries",
                   text: "Rs 1,240.00 spent at DMART SUPERMARKET"),
            texted("e1", merchant: "TATA POWER", category: "Bills & Utilities", subcategory: "Electricity", text: "Rs 1,900.00 paid to TATA POWER"),
        ], run: nil)
        try ledger.updateMeaningIndex(embedder: model)
        func top(_ query: String, _ count: Int) throws -> Set<String> {
            Set(try ledger.search(query, mode: .semantic, embedder: model).hits.prefix(count).compactMap(\.transaction?.merchant))
        }
        #expect(try top("food delivery", 2) == ["SWIGGY", "ZOMATO"])
        #expect(try top("taxi", 1) == ["UBER INDIA"])
        #expect(try top("pago de luz", 1) == ["TATA POWER"])
        #expect(try top("बिजली का बिल", 1) == ["TATA POWER"])
    }
}
