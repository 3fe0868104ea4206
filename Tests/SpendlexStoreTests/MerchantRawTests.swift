import Foundation
import GRDB
import Testing
@testable import SpendlexEngine
@testable import SpendlexStore
import SpendlexTestSupport

/// The merchant as captured is kept beside the cleaned one, in the ledger too.
@Suite("the merchant as captured")
struct MerchantRawTests {
    @Test("stored and read back, from the list and by id")
    func storedAndReadBack() throws {
        var t = transaction("m1", merchant: "SAMPLE SHOP")
        t.merchantRaw = "SAMPLE SHOP. Avl"
        let ledger = try ledger(with: [t])
        let stored = try #require(try ledger.transactions().first)
        #expect(stored.merchant == "SAMPLE SHOP" && stored.merchantRaw == "SAMPLE SHOP. Avl")
        #expect(stored.transaction.merchantRaw == "SAMPLE SHOP. Avl")
        #expect(try ledger.transaction(id: stored.id)?.merchantRaw == "SAMPLE SHOP. Avl")
    }

    @Test("a ledger written before the column existed opens, its rows without one")
    func olderLedgerOpens() throws {
        let folder = TestScratch.root.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LedgerSchema.migrator.migrate(queue, upTo: "v4-run-outcomes")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO messages (id, channel, sender, status, reason, processed_at)
                VALUES ('m1', 'sms', 'VM-X', 'transaction', NULL, '2026-01-01T00:00:00Z');
                INSERT INTO transactions (message_id, idempotency_key, content_key, source_kind, rule, bank, merchant,
                                          confidence, status, field_count, created_at, updated_at)
                VALUES ('m1', 'k', 'c', 'sms', 'x.y', 'x', 'SAMPLE SHOP', 1, 'ok', 3, '2026-01-01T00:00:00Z',
                        '2026-01-01T00:00:00Z');
                """)
        }
        try queue.close()
        let stored = try #require(try Ledger(path: path).transactions().first)
        #expect(stored.merchant == "SAMPLE SHOP" && stored.merchantRaw == nil)
    }
}
