import Foundation
import GRDB
import Testing
@testable import SpendlexStore
import SpendlexTestSupport

/// A ledger written by an earlier version, with card numbers the masker then left whole.
@Suite("masking card numbers already stored")
struct CardNumberMigrationTests {
    @Test("opening an older ledger masks card numbers in merchants, notes, senders, nicknames and mappings")
    func olderLedgerIsMasked() throws {
        let folder = TestScratch.root.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LedgerSchema.migrator.migrate(queue, upTo: "v2-service")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO messages (id, channel, sender, status, reason, processed_at)
                VALUES ('m1', 'sms', 'VM-X4111111111111111', 'transaction', 'read 4111 1111 1111 1111', '2026-01-01T00:00:00Z');
                INSERT INTO transactions (message_id, idempotency_key, content_key, source_kind, rule, bank, merchant, note,
                                          confidence, status, field_count, created_at, updated_at)
                VALUES ('m1', 'k', 'c', 'sms', 'x.y', 'x', 'EAZYDINE4111111111111111', 'card 4111-1111-1111-1111', 1, 'ok',
                        3, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
                INSERT INTO wallet_cards (card, nickname, activated, created_at, updated_at)
                VALUES ('amex-gold', 'mine 378282246310005', '', '2026-01-01', '2026-01-01');
                INSERT INTO category_mappings (merchant, merchant_key, category, created_at)
                VALUES ('SHOP4111111111111111', 'shop4111111111111111', 'Shopping', '2026-01-01');
                """)
        }
        try queue.close()
        let ledger = try Ledger(path: path)
        let texts = try ledger.pool.read { db in
            [
                try String.fetchAll(db, sql: "SELECT sender || ' ' || reason FROM messages"),
                try String.fetchAll(db, sql: "SELECT merchant || ' ' || note FROM transactions"),
                try String.fetchAll(db, sql: "SELECT nickname FROM wallet_cards"),
                try String.fetchAll(db, sql: "SELECT merchant FROM category_mappings"),
            ].flatMap { $0 }
        }
        #expect(texts == ["VM-XXXXXXXXXXXXX1111 read XXXXXXXXXXXX1111", "EAZYDINEXXXXXXXXXXXX1111 card XXXXXXXXXXXX1111",
                          "mine XXXXXXXXXXX0005", "SHOPXXXXXXXXXXXX1111"])
    }
}
