import Foundation
import SpendlexEngine

/// One run's writer: the records a batch run delivers go through a bounded queue to a thread of
/// their own, which writes them to the ledger while the workers go on parsing.
///
/// Storing was done on the thread that delivers the workers' results, one SQLite transaction per
/// result: the workers waited for every write, and `parse --store` ran at a tenth of `parse`.
/// Here the writer takes whatever has queued up since its last write, up to `recordsPerWrite`
/// records, and writes it as one transaction: when the writer falls behind, its transactions
/// grow and it catches up (a commit rewrites the index pages it touched into the WAL, so fewer,
/// larger commits write less). A run killed at any point leaves the ledger as it was after the
/// last whole transaction; a re-run skips what is there and completes the rest.
///
/// The queue holds at most `queueLimit` records: `submit` blocks while it is full, which bounds
/// memory whatever the input size. After a write fails, later records are dropped (the ledger
/// keeps every transaction written before) and `finish` returns the error.
public final class LedgerIntake: @unchecked Sendable {
    /// Records written in one SQLite transaction at most.
    public static let recordsPerWrite = 16_384
    /// Records queued at most before `submit` waits.
    public static let queueLimit = 4_096

    private let ledger: Ledger
    private let run: Int64?
    private let reprocess: Bool
    private let queueLimit: Int
    private let recordsPerWrite: Int

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [[MessageRecord]] = []
    private var queued = 0
    private var closed = false
    private var writing = true
    private var counts = RunCounts()
    private var failure: Error?

    /// Starts the writer thread for a run (`run`: its id, nil for none) on `ledger`.
    public init(ledger: Ledger, run: Int64?, reprocess: Bool = false, queueLimit: Int = LedgerIntake.queueLimit,
                recordsPerWrite: Int = LedgerIntake.recordsPerWrite) {
        self.ledger = ledger
        self.run = run
        self.reprocess = reprocess
        self.queueLimit = max(queueLimit, 1)
        self.recordsPerWrite = max(recordsPerWrite, 1)
        let thread = Thread { [self] in writeUntilClosed() }
        thread.name = "spendlex-ledger-writer"
        thread.start()
    }

    /// Queues records for writing; waits while the queue is full.
    public func submit(_ records: [MessageRecord]) {
        guard !records.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while queued >= queueLimit && failure == nil { condition.wait() }
        if failure == nil {
            queue.append(records)
            queued += records.count
        }
        condition.broadcast()
    }

    /// The first write error, if one happened yet (later records are being dropped).
    public var error: Error? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Writes what is queued, stops the writer, and returns what was stored and the first write
    /// error, if any. Call it once.
    public func finish() -> (counts: RunCounts, error: Error?) {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while writing { condition.wait() }
        return (counts, failure)
    }

    private func writeUntilClosed() {
        condition.lock()
        while true {
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty { break }
            // Everything queued, in order, up to `recordsPerWrite` (a larger batch goes whole).
            var taken = queue.removeFirst()
            while let next = queue.first, taken.count + next.count <= recordsPerWrite {
                taken += next
                queue.removeFirst()
            }
            queued -= taken.count
            condition.broadcast()
            let failed = failure != nil
            condition.unlock()
            var written: RunCounts?
            var error: Error?
            if !failed {
                // The run's messages enter the search index when it is next searched, all together
                // (`Ledger.updateSearchIndex`): as each batch was written, indexing took three
                // times as long as storing them (reference corpus).
                do { written = try ledger.write(taken, run: run, reprocess: reprocess, indexing: false) } catch let caught { error = caught }
            }
            condition.lock()
            if let written { counts.add(written) }
            if let error, failure == nil {
                failure = error
                // Nothing more will be written: producers need not wait for room.
                queue.removeAll()
                queued = 0
                condition.broadcast()
            }
        }
        writing = false
        condition.broadcast()
        condition.unlock()
    }
}
