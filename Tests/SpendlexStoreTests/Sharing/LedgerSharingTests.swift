import Foundation
import GRDB
import Synchronization
import Testing
@testable import SpendlexStore

/// One ledger file, several writers (the service and a `parse --store`, two runs), and who
/// may read it.
@Suite("ledger shared by writers")
struct LedgerSharingTests {
    @Test("a new ledger and its WAL are readable by their owner only")
    func ownerOnly() throws {
        let (ledger, path) = try makeLedger()
        _ = try ledger.beginRun(inputs: ["a"])
        for file in [path, path + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(file): \(String(mode, radix: 8))")
        }
    }

    @Test("a write waits while another connection holds the write lock, and then succeeds")
    func secondWriterWaits() throws {
        let (ledger, path) = try makeLedger()
        // Another process's writer, as SQLite sees it: its own connection, holding the lock.
        let other = try DatabaseQueue(path: path)
        let finished = Mutex<(run: Int64?, error: String?)>((nil, nil))
        try other.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            let writer = Thread {
                do {
                    let run = try ledger.beginRun(inputs: ["waiting"])
                    finished.withLock { $0.run = run }
                } catch {
                    finished.withLock { $0.error = "\(error)" }
                }
            }
            writer.start()
            // Hold the lock a while: without a busy timeout the write fails at once ("database is locked").
            Thread.sleep(forTimeInterval: 0.3)
            #expect(finished.withLock { $0.run } == nil)
            try db.execute(sql: "COMMIT")
        }
        while finished.withLock({ $0.run == nil && $0.error == nil }) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(finished.withLock { $0.error } == nil)
        #expect(finished.withLock { $0.run } != nil)
    }

    @Test("a writer that waits longer than its busy timeout fails with SQLite's busy error, not a hang")
    func busyTimeoutEnds() throws {
        let (_, path) = try makeLedger()
        let impatient = try Ledger(path: path, busyTimeout: 0.05)
        let other = try DatabaseQueue(path: path)
        try other.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            #expect(throws: DatabaseError.self) { try impatient.beginRun(inputs: ["too late"]) }
            try db.execute(sql: "COMMIT")
        }
    }
}

/// Import runs end as finished, failed with a reason, or interrupted; the WAL stays bounded.
@Suite("ledger runs and WAL")
struct LedgerRunTests {
    @Test("a run whose process died is closed as interrupted by the next run; a failed run says why")
    func interruptedAndFailedRuns() throws {
        let (ledger, _) = try makeLedger()
        // A process that has ended: its pid is free.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        try ledger.pool.write { db in
            try db.execute(sql: "INSERT INTO import_runs (inputs, started_at, pid) VALUES ('killed', '2026-01-01T00:00:00Z', ?)",
                           arguments: [ended.processIdentifier])
        }
        let mine = try ledger.beginRun(inputs: ["a"])
        try ledger.finishRun(mine, counts: RunCounts(), failure: "writing the ledger failed: disk full")
        let rows = try ledger.pool.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT inputs, finished_at, failure FROM import_runs ORDER BY id")
        }
        #expect(rows.count == 2)
        #expect(rows[0]["finished_at"] as String? != nil)
        #expect((rows[0]["failure"] as String?)?.hasPrefix("interrupted") == true)
        #expect(rows[1]["failure"] as String? == "writing the ledger failed: disk full")
        // A run still going in a live process (this one) is left alone.
        let open = try ledger.beginRun(inputs: ["b"])
        _ = try ledger.beginRun(inputs: ["c"])
        #expect(try ledger.pool.read { db in
            try String.fetchOne(db, sql: "SELECT finished_at FROM import_runs WHERE id = ?", arguments: [open])
        } == nil)
    }

    @Test("a checkpoint truncates the WAL")
    func checkpointTruncates() throws {
        let (ledger, _) = try makeLedger()
        let records = (0..<500).map { record(transaction("wal-\($0)", amount: "\($0).00")) }
        _ = try ledger.write(records, run: nil)
        #expect(ledger.walSize > 0)
        try ledger.checkpoint()
        #expect(ledger.walSize == 0)
        #expect(try ledger.processedMessageIDs().count == 500)
    }
}
