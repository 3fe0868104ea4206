import Foundation
import GRDB
import Testing
@testable import SpendlexEngine
@testable import SpendlexStore

/// Every reference between the ledger's rows holds (`PRAGMA foreign_key_check` finds nothing):
/// writes run with SQLite's own checks off, and rely on building rows in the right order.
func expectReferencesHold(_ ledger: Ledger, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let broken = try ledger.pool.read { db in try GRDB.Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }
    #expect(broken.isEmpty, "broken references: \(broken)", sourceLocation: sourceLocation)
    let enforced = try ledger.pool.write { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
    #expect(enforced == true, "foreign keys left off after a write", sourceLocation: sourceLocation)
}

@Suite("Ledger intake")
struct LedgerIntakeTests {
    @Test("records submitted in batches are all written, in order, with their counts")
    func batchesAreWrittenInOrder() throws {
        let (ledger, _) = try makeLedger()
        let run = try ledger.beginRun(inputs: ["batches"])
        let intake = LedgerIntake(ledger: ledger, run: run, queueLimit: 3, recordsPerWrite: 5)
        // The email about the first SMS's money comes two batches later: it must find it.
        intake.submit([record(transaction("sms-1", channel: .sms, received: "2026-11-20T10:00:00Z", merchant: "SWIGGY"))])
        intake.submit((2...7).map { record(transaction("sms-\($0)", amount: "\($0).00", merchant: "SHOP \($0)")) })
        intake.submit([MessageRecord(id: "otp", status: .ignored, rule: "hdfc.ignore.otp", reason: "an OTP")])
        intake.submit([record(transaction("mail-1", channel: .email, received: "2026-11-20T10:03:00Z",
                                          merchant: "Swiggy"))])
        let (counts, error) = intake.finish()
        #expect(error == nil)
        #expect(counts.messages == 9)
        #expect(counts.transactions == 8)
        #expect(counts.ignored == 1)
        #expect(counts.duplicates == 1)
        let rows = try links(ledger)
        #expect(rows.map(\.message) == ["sms-1", "sms-2", "sms-3", "sms-4", "sms-5", "sms-6", "sms-7", "mail-1"])
        #expect(rows.last?.duplicateOf == "sms-1")
        try expectReferencesHold(ledger)
    }

    @Test("a write that fails stops the writing, and later submissions neither wait nor write")
    func aFailedWriteIsReported() throws {
        let (ledger, path) = try makeLedger()
        let impatient = try Ledger(path: path, busyTimeout: 0.05)
        // Another connection holds the write lock: every write of `impatient` fails as busy.
        let holder = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread {
            struct Undo: Error {}
            try? holder.write { db in
                try db.execute(sql: "INSERT INTO preferences (name, value) VALUES ('holder', 'x')")
                locked.signal()
                release.wait()
                throw Undo()
            }
        }.start()
        locked.wait()
        let intake = LedgerIntake(ledger: impatient, run: nil, queueLimit: 1, recordsPerWrite: 1)
        for index in 0..<20 { intake.submit([record(transaction("busy-\(index)"))]) }
        let (counts, error) = intake.finish()
        release.signal()
        #expect(error != nil)
        #expect(counts.messages == 0)
        // The ledger is as it was, and a later write goes through.
        #expect(try ledger.processedMessageIDs().isEmpty)
        #expect(try impatient.write([record(transaction("later"))], run: nil).transactions == 1)
    }

    @Test("a transaction another connection stored after this one's first write is still found as a duplicate")
    func duplicatesWrittenByAnotherConnectionAreSeen() throws {
        let (ledger, path) = try makeLedger()
        try ledger.write([record(transaction("first", amount: "1.00"))], run: nil)
        let other = try Ledger(path: path)
        try other.write([record(transaction("by-other", channel: .sms, received: "2026-11-20T10:00:00Z",
                                            amount: "99.00", reference: "RRN777"))], run: nil)
        let counts = try ledger.write([record(transaction("again", channel: .sms, received: "2026-11-20T12:00:00Z",
                                                          amount: "99.00", reference: "RRN777"))], run: nil)
        #expect(counts.duplicates == 1)
        #expect(try links(ledger).last == Row(message: "again", duplicateOf: "by-other", reason: "same hdfc reference RRN777"))
        try expectReferencesHold(ledger)
    }

    @Test("the duplicate filter answers no only for keys it never saw, and grows past its first size")
    func duplicateIndexHasNoFalseNegatives() throws {
        let (ledger, _) = try makeLedger()
        // More rows than the smallest filter is built for: it is rebuilt larger on the way.
        let records = (0..<6000).map {
            record(transaction("grow-\($0)", received: "2026-11-20T10:00:00Z", amount: "\($0).25", merchant: "SHOP \($0)"))
        }
        for chunk in stride(from: 0, to: records.count, by: 1000) {
            try ledger.write(Array(records[chunk..<chunk + 1000]), run: nil)
        }
        // Each is sent again under a new message id, by email: every one is a duplicate (layer 3).
        let again = (0..<6000).map {
            record(transaction("again-\($0)", channel: .email, received: "2026-11-20T10:04:00Z", amount: "\($0).25",
                               merchant: "SHOP \($0)"))
        }
        let counts = try ledger.write(again, run: nil)
        #expect(counts.duplicates == 6000)
        try expectReferencesHold(ledger)
    }

    @Test("reprocessing a primary away hands its duplicates to a successor, every reference kept")
    func reprocessingKeepsReferences() throws {
        let (ledger, _) = try makeLedger()
        let copies = [
            transaction("sms", channel: .sms, received: "2026-11-20T10:00:00Z", reference: "RRN1"),
            transaction("mail", channel: .email, received: "2026-11-20T10:02:00Z", reference: "RRN1"),
            transaction("push", channel: .push, received: "2026-11-20T10:03:00Z", reference: "RRN1"),
        ]
        #expect(try ledger.write(copies.map(record), run: nil).duplicates == 2)
        try ledger.write([MessageRecord(id: "sms", status: .unmatched)], run: nil, reprocess: true)
        let rows = try links(ledger)
        #expect(rows.map(\.message) == ["mail", "push"])
        #expect(rows[0].duplicateOf == nil && rows[1].duplicateOf == "mail")
        try expectReferencesHold(ledger)
    }

    @Test("a categorization row's hits are counted once per transaction, whatever the batches")
    func mappingHitsAddUp() throws {
        let (ledger, _) = try makeLedger()
        func categorized(_ id: String) -> MessageRecord {
            var t = transaction(id, amount: "\(id.count).00", merchant: "SHOP \(id)")
            t.category = "Shopping"
            t.categoryRow = "shopping.shops"
            return record(t)
        }
        try ledger.write([categorized("a"), categorized("bb"), categorized("ccc")], run: nil)
        try ledger.write([categorized("dddd")], run: nil)
        let hits = try ledger.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT hits FROM mapping_stats WHERE row_id = 'shopping.shops'")
        }
        #expect(hits == 4)
    }
}
