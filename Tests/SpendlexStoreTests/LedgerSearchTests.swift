import Foundation
import GRDB
import Testing
@testable import SpendlexEngine
@testable import SpendlexStore
import SpendlexTestSupport

/// A message record with its text, as a batch run stores it.
private func texted(_ t: Transaction, text: String, sender: String = "VM-HDFCBK", subject: String? = nil) -> MessageRecord {
    var record = record(t)
    record.sender = sender
    record.text = text
    record.subject = subject
    return record
}

@Suite("Ledger search and edits")
struct LedgerSearchTests {
    @Test("what a person types is read as words: FTS5's own syntax never makes an error")
    func queriesAreWords() {
        #expect(SearchQuery("swiggy march").match == "\"swiggy\" * AND \"march\" *")
        #expect(SearchQuery("\"pune metro\" -refund").match == "\"pune metro\" NOT \"refund\" *")
        #expect(SearchQuery("netf*", prefixes: false).match == "\"netf\" *")
        #expect(SearchQuery("netf", prefixes: false).match == "\"netf\"")
        #expect(SearchQuery("AND OR NEAR( m-pesa \"a\"\"b", prefixes: false).match
                == "\"AND\" AND \"OR\" AND \"NEAR(\" AND \"m-pesa\" AND \"a\" AND \"b\"")
        #expect(SearchQuery("   ").match == nil)
        #expect(SearchQuery("- * &").match == nil)
        // Only exclusions: FTS5 cannot answer that, so there is no query.
        #expect(SearchQuery("-refund").match == nil)
    }

    @Test("hits are ranked (a merchant over a word of the text), snippets mark the words, citations name the message")
    func rankedWithCitations() throws {
        let (ledger, _) = try makeLedger()
        var metro = transaction("sms-1", merchant: "Pune Metro")
        metro.file = "backup.xml"
        metro.offset = 120
        let coffee = transaction("sms-2", date: "2026-11-21", merchant: "Blue Tokai")
        var records = [
            texted(metro, text: "Rs 14.00 debited for Pune Metro on 20-Nov-26. Avl bal Rs 2,000"),
            texted(coffee, text: "Rs 250.00 spent at Blue Tokai near the metro station"),
            MessageRecord(id: "chat-1", channel: .sms, sender: "+15550100", status: .unmatched, text: "see you at the metro?"),
        ]
        records[0].file = "backup.xml"
        records[0].offset = 120
        try ledger.write(records, run: nil)
        let hits = try ledger.search(SearchQuery("metro"))
        #expect(hits.count == 3)
        #expect(hits.first?.transaction?.merchant == "Pune Metro")
        #expect(hits.first?.message.citation == "backup.xml:120")
        #expect(hits.first?.snippet.contains("«Metro»") == true)
        #expect(Set(hits.dropFirst().map(\.message.id)) == ["sms-2", "chat-1"])
        #expect(try ledger.searchCount(SearchQuery("metro")) == 3)
        #expect(try ledger.search(SearchQuery("metro -station")).map(\.message.id).sorted() == ["chat-1", "sms-1"])
        #expect(try ledger.search(SearchQuery("\"blue tokai\"")).map(\.message.id) == ["sms-2"])
        // The filter of `transactions` and of GET /transactions?q= is the same index, words as prefixes.
        var query = TransactionQuery()
        query.text = "tok"
        #expect(try ledger.transactions(query).map(\.messageID) == ["sms-2"])
        // FTS5's syntax in what is typed finds words, and never fails.
        #expect(try ledger.search(SearchQuery("AND OR NEAR( col:x ^y {z} \"x")).isEmpty)
        #expect(try ledger.search(SearchQuery("me\u{0}tro \u{1}")).isEmpty)
        #expect(try ledger.search(SearchQuery("metro\u{0}")).count == 3)
        #expect(try ledger.search(SearchQuery("avl: bal.")).map(\.message.id) == ["sms-1"])
        try ledger.checkSearchIndex()
    }

    @Test("a card number in a stored text is masked, and not found")
    func cardNumbersMasked() throws {
        let (ledger, _) = try makeLedger()
        try ledger.write([texted(transaction("sms-1"), text: "Card 4111 1111 1111 1111 used at SWIGGY")], run: nil)
        let message = try #require(try ledger.message(id: "sms-1"))
        #expect(message.text == "Card XXXXXXXXXXXX1111 used at SWIGGY")
        #expect(try ledger.search(SearchQuery("4111")).isEmpty)
        #expect(try ledger.search(SearchQuery("XXXXXXXXXXXX1111")).count == 1)
    }

    @Test("the index follows edits, reparsing, deletion; and a person's merchant, category and 'not a duplicate' survive a rerun")
    func indexInStepAndEditsKept() throws {
        let (ledger, _) = try makeLedger()
        let sms = transaction("sms-1", received: "2026-11-20T10:02:00Z", amount: "1250", merchant: "WHOLEFDS MKT")
        var mail = transaction("mail-1", channel: .email, received: "2026-11-20T10:06:30Z", amount: "1250.00",
                               time: "15:31", merchant: "Whole Foods Market")
        mail.balance = "8000.00"
        let records = [texted(sms, text: "Rs 1250 spent at WHOLEFDS MKT"), texted(mail, text: "You spent 1,250.00 at Whole Foods Market")]
        try ledger.write(records, run: nil)
        let duplicate = try #require(try ledger.transactions(TransactionQuery(includeDuplicates: true)).first { $0.messageID == "sms-1" })
        #expect(duplicate.duplicateOf != nil)

        #expect(try ledger.edit(transaction: duplicate.id, TransactionEdit(category: ("Food & Dining", "Groceries"), note: "weekly shop",
                                                                         merchant: "Whole Foods", notDuplicate: true)))
        #expect(try ledger.search(SearchQuery("weekly")).map(\.message.id) == ["sms-1"])
        #expect(try ledger.search(SearchQuery("groceries")).map(\.message.id) == ["sms-1"])
        // Read again (a rerun over the same messages, reparsed): the person's choices stay.
        try ledger.write(records, run: nil, reprocess: true)
        let kept = try #require(try ledger.transaction(id: duplicate.id))
        #expect(kept.merchant == "Whole Foods")
        #expect(kept.merchantSource == "user")
        #expect(kept.category == "Food & Dining")
        #expect(kept.duplicateOf == nil)
        #expect(kept.notDuplicate)
        #expect(try ledger.transactions().count == 2)
        try ledger.checkSearchIndex()

        #expect(try ledger.edit(transaction: duplicate.id, TransactionEdit(note: .some(nil))))
        #expect(try ledger.search(SearchQuery("weekly")).isEmpty)
        #expect(try ledger.delete(transaction: duplicate.id))
        // The message stays (ignored, deleted by the user) and is still found by its text.
        #expect(try ledger.search(SearchQuery("wholefds")).map(\.message.id) == ["sms-1"])
        #expect(try ledger.search(SearchQuery("wholefds")).first?.transaction == nil)
        try ledger.checkSearchIndex()
    }

    @Test("an indexed message that gains a transaction when read again is found by its transaction's words")
    func reparsedIntoATransaction() throws {
        let (ledger, _) = try makeLedger()
        let text = "Rs 640.00 debited at CHAI POINT on 20-Nov-26"
        try ledger.write([MessageRecord(id: "sms-1", channel: .sms, sender: "VM-HDFCBK", status: .unmatched, text: text)], run: nil)
        #expect(try ledger.search(SearchQuery("chai")).first?.transaction == nil)
        // The rules now read it (a run with --reprocess): its transaction joins the indexed message.
        var read = texted(transaction("sms-1", merchant: "Chai Point"), text: text)
        read.sender = "VM-HDFCBK"
        try ledger.write([read], run: nil, reprocess: true)
        let hit = try #require(try ledger.search(SearchQuery("chai")).first)
        #expect(hit.transaction?.merchant == "Chai Point")
        #expect(try ledger.searchCount(SearchQuery("chai")) == 1)
        try ledger.checkSearchIndex()
        // A batch run's writes are indexed at the next search, whole.
        try ledger.write([texted(transaction("sms-2", merchant: "Blue Tokai"), text: "Rs 250 at Blue Tokai")], run: nil,
                         indexing: false)
        #expect(try ledger.search(SearchQuery("tokai")).count == 1)
        try ledger.checkSearchIndex()
    }

    @Test("a ledger written before the index gets it, built from what it holds")
    func olderLedgerIndexed() throws {
        let folder = TestScratch.root.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LedgerSchema.migrator.migrate(queue, upTo: "v6-statement-balances")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO messages (id, channel, sender, status, processed_at)
                VALUES ('m1', 'sms', 'VM-HDFCBK', 'transaction', '2026-01-01T00:00:00Z');
                INSERT INTO transactions (message_id, idempotency_key, content_key, source_kind, rule, bank, merchant, note,
                                          confidence, status, field_count, created_at, updated_at)
                VALUES ('m1', 'k', 'c', 'sms', 'x.y', 'x', 'Swiggy', 'late lunch', 1, 'ok', 3, '2026-01-01T00:00:00Z',
                        '2026-01-01T00:00:00Z');
                """)
        }
        try queue.close()
        let ledger = try Ledger(path: path)
        #expect(try ledger.search(SearchQuery("swiggy")).map(\.message.id) == ["m1"])
        #expect(try ledger.search(SearchQuery("lunch")).first?.transaction?.note == "late lunch")
        #expect(try ledger.message(id: "m1")?.text == nil)
        try ledger.checkSearchIndex()
    }

    @Test("filters: merchant, amount range (exact at the bounds), kind, direction")
    func filters() throws {
        let ledger = try ledger(with: [
            categorized("a", amount: "99.99", date: "2026-05-01", merchant: "Netflix"),
            categorized("b", amount: "100.00", date: "2026-05-02", merchant: "NETFLIX.COM"),
            categorized("c", amount: "100.01", direction: .credit, kind: .refund, date: "2026-05-03", merchant: "Amazon"),
        ])
        var query = TransactionQuery()
        query.merchant = "netflix"
        #expect(try ledger.transactions(query).map(\.messageID) == ["a", "b"])
        query = TransactionQuery()
        query.minAmount = Decimal(string: "100")
        #expect(try ledger.transactions(query).map(\.messageID) == ["b", "c"])
        query.maxAmount = Decimal(string: "100.00")
        #expect(try ledger.transactions(query).map(\.messageID) == ["b"])
        query = TransactionQuery()
        query.kind = "refund"
        #expect(try ledger.transactions(query).map(\.messageID) == ["c"])
        query = TransactionQuery()
        query.direction = .debit
        #expect(try ledger.transactions(query).map(\.messageID) == ["a", "b"])
    }
}
