// Search by meaning (`spendlex search`, `GET /search`) over a ledger of 100,000 stored SMS (the
// same phone history as LedgerSearch: bank alerts of every bundled Indian parser, OTPs, offers,
// personal texts), with the installed embedding model (scripts/dev model):
// - what the store path pays for vectors: embedding a batch of 64 meaning documents (documents a
//   second), and the whole catch-up of the 100,000 messages from no vectors (reading them, one
//   document each, embedding the distinct ones, linking every message to its own);
// - a query by meaning and a fused one (the query's own embedding included: the issue asks under
//   100 ms at 100,000 transactions);
// - the worst case the ledger's deduplication of documents avoids on real mail: a query by meaning
//   over 100,000 *distinct* vectors (the same ledger with random vectors written in, one document a
//   message), the first query reading them (a command's) and the next ones from the ledger's cache
//   (a service's); and the flat scan alone.
import Benchmark
import BenchmarkFixtures
import CorpusKit
import Foundation
import GRDB
import SpendlexEngine
import SpendlexMeaning
import SpendlexStore

/// The ledger and the model, made once for every benchmark.
final class MeaningLedger: @unchecked Sendable {
    static let shared = MeaningLedger()
    static let messages = 100_000
    private let lock = NSLock()
    private var built: (Ledger, EmbeddingModel)?

    func ledger() throws -> (Ledger, EmbeddingModel) {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let model = try EmbeddingModel.installed().get()
        let ledger = try SMSLedger.make(at: NSTemporaryDirectory() + "spendlex-bench-meaning-\(getpid()).sqlite",
                                        messages: Self.messages)
        try ledger.updateMeaningIndex(embedder: model)
        let size = try ledger.meaningIndexSize()
        print("ledger: \(Self.messages) messages stored, \(size.messages) with a meaning, \(size.documents) distinct documents")
        built = (ledger, model)
        return (ledger, model)
    }
}

extension MeaningLedger {
    /// A copy of the ledger whose 100,000 messages each have a vector of their own: random unit
    /// vectors, written as `MeaningIndex` writes them, under the installed model's identity.
    func worstCase() throws -> String {
        let (ledger, model) = try ledger()
        _ = ledger
        let path = NSTemporaryDirectory() + "spendlex-bench-meaning-worst-\(getpid()).sqlite"
        if FileManager.default.fileExists(atPath: path) { return path }
        let source = NSTemporaryDirectory() + "spendlex-bench-meaning-\(getpid()).sqlite"
        let queue = try DatabaseQueue(path: source)
        try queue.backup(to: try DatabaseQueue(path: path))
        let target = try DatabaseQueue(path: path)
        var generator = SystemRandomNumberGenerator()
        try target.write { db in
            try db.execute(sql: "DELETE FROM message_meanings; DELETE FROM meaning_vectors")
            let insert = try db.makeStatement(sql: "INSERT INTO meaning_vectors (document, vector) VALUES (?, ?)")
            let link = try db.makeStatement(sql: "INSERT INTO message_meanings (message_rowid, vector_id) VALUES (?, ?)")
            for rowid in 1...Int64(Self.messages) {
                let raw = (0..<model.dimension).map { _ in Float.random(in: -1...1, using: &generator) }
                let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
                try insert.execute(arguments: ["document \(rowid)", MeaningVector(raw.map { $0 / norm }).data])
                try link.execute(arguments: [rowid, db.lastInsertedRowID])
            }
            try db.execute(sql: "UPDATE meaning_state SET embedded_through = (SELECT max(rowid) FROM messages), version = version + 1")
        }
        return path
    }
}

/// Meaning documents as a ledger writes them: a merchant, its category and what kind of payment.
func documents(_ count: Int, seed: Int) -> [String] {
    let categories = ["Food & Dining / Food Delivery", "Transport / Taxi & Rideshare", "Food & Dining / Groceries",
                      "Bills & Utilities / Electricity", "Shopping / Online", "Health / Pharmacy", "Uncategorized"]
    let kinds = ["", ". transfer", ". bill payment", ". refund, received", ". withdrawal"]
    return (0..<count).map { index in
        let n = index + seed
        return "MERCHANT \(n * 7919 % 100_003). \(categories[n % categories.count])\(kinds[n % kinds.count])"
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 200
    )

    Benchmark("embed 64 meaning documents", configuration: .init(scalingFactor: .one)) { benchmark in
        let (_, model) = try MeaningLedger.shared.ledger()
        var round = 0
        for _ in benchmark.scaledIterations {
            let batch = documents(64, seed: round * 64)
            round += 1
            benchmark.startMeasurement()
            blackHole(try model.embed(batch, as: .passage))
            benchmark.stopMeasurement()
        }
    }

    Benchmark("meaning index for 100,000 stored SMS, from none",
              configuration: .init(warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 5)) { benchmark in
        let (ledger, model) = try MeaningLedger.shared.ledger()
        for _ in benchmark.scaledIterations {
            try ledger.rebuildSearchIndexes(embedder: nil, fullText: false)
            benchmark.startMeasurement()
            blackHole(try ledger.updateMeaningIndex(embedder: model))
            benchmark.stopMeasurement()
        }
    }

    for (mode, text) in [(SearchMode.semantic, "food delivery"), (.semantic, "pago de luz"), (.hybrid, "food delivery"),
                         (.hybrid, "swiggy")] {
        Benchmark("\(mode.rawValue) search 100k messages: \(text)") { benchmark in
            let (ledger, model) = try MeaningLedger.shared.ledger()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try ledger.search(text, mode: mode, embedder: model, limit: 20))
            }
        }
    }

    for cached in [false, true] {
        Benchmark("semantic search over 100,000 distinct vectors, \(cached ? "cached" : "read from the ledger")") { benchmark in
            let (_, model) = try MeaningLedger.shared.ledger()
            let path = try MeaningLedger.shared.worstCase()
            let opened = try Ledger(path: path)
            if cached { _ = try opened.search("food delivery", mode: .semantic, embedder: model) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                // Read from the ledger: a ledger opened for the query, as a command opens it (opening included).
                let ledger = cached ? opened : try Ledger(path: path)
                blackHole(try ledger.search("food delivery", mode: .semantic, embedder: model, limit: 20))
            }
        }
    }

    Benchmark("flat scan of 100,000 distinct vectors") { benchmark in
        var generator = SystemRandomNumberGenerator()
        var matrix = MeaningMatrix(dimension: 384)
        func unit() -> [Float] {
            let raw = (0..<384).map { _ in Float.random(in: -1...1, using: &generator) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm }
        }
        for _ in 0..<100_000 { matrix.append(MeaningVector(unit())) }
        let query = unit()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(matrix.similarities(to: query))
        }
    }
}
