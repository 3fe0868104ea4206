import Logging
import ServiceLifecycle
import SpendlexStore

/// Keeps the ledger's WAL bounded while the service runs: every `interval`, a WAL larger than
/// `threshold` bytes is checkpointed and truncated.
///
/// SQLite's own automatic checkpoints are passive: under steady load some reader always holds
/// an older snapshot, the WAL never restarts, and it grew past 160 MB in 100,000 requests.
/// A truncating checkpoint waits (up to the ledger's busy timeout) for those readers instead.
struct LedgerCheckpointer: Service {
    let ledger: Ledger
    let interval: Duration
    let threshold: Int
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                checkpointIfLarge()
            }
        }
    }

    /// Checkpoints when the WAL is over the threshold; a failure is logged, and tried again
    /// at the next interval.
    func checkpointIfLarge() {
        let before = ledger.walSize
        guard before > threshold else { return }
        do {
            try ledger.checkpoint()
            logger.debug("ledger checkpointed: WAL \(before) bytes -> \(ledger.walSize)")
        } catch {
            logger.warning("ledger checkpoint failed (tried again in \(interval)): \(error)")
        }
    }
}
