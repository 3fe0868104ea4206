import Foundation
import GRDB
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex categorize` over a ledger: fill in, set by hand, recompute without losing what
    /// the user set, unknown categories refused.
    @Suite("spendlex categorize, end to end", .serialized)
    struct CategorizeEndToEndTests {
        @Test func categorizeSetByHandAndRecompute() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-cat-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("ledger.sqlite").path
            #expect(try spendlex(["parse", "Tests/Fixtures/inputs/ledger-alerts.jsonl", "--store", store, "--quiet"]).status == 0)
            let queue = try DatabaseQueue(path: store)
            try queue.write { db in
                try db.execute(sql: "UPDATE transactions SET category = NULL, subcategory = NULL, category_source = NULL")
            }

            let first = try spendlex(["categorize", "--store", store, "--statistics"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.hasPrefix("10 categorized, 0 unchanged, 0 set by hand and kept\n"))
            #expect(first.stdout.contains("\ttransport.public\n"))

            let metro = try #require(try queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM transactions WHERE merchant = 'Pune Metro'")
            })
            let set = try spendlex(["categorize", "--store", store, "--set", "\(metro)", "Travel"])
            #expect(set.status == 0, "\(set.stderr)")
            let again = try spendlex(["categorize", "--store", store, "--recompute"])
            #expect(again.stdout.hasPrefix("0 categorized, 9 unchanged, 1 set by hand and kept\nlearned model ("), "\(again.stdout)")
            let kept = try queue.read { db in
                try String.fetchOne(db, sql: "SELECT category FROM transactions WHERE id = ?", arguments: [metro])
            }
            #expect(kept == "Travel")

            let unknown = try spendlex(["categorize", "--store", store, "--set", "\(metro)", "Food"])
            #expect(unknown.status == 64 && unknown.stderr.contains("unknown category 'Food'"))
        }
    }
}
