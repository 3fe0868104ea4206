import Logging
import ServiceLifecycle
import SpendlexStore
import SpendlexSync

/// `serve --sync-every`: fetches the configured mailboxes into the ledger every `interval`
/// (the first time one interval after start), sharing `POST /sync`'s syncer, so two syncs never
/// run at once. A mailbox that fails is logged and tried again next time.
struct MailboxSyncService: Service {
    let syncer: MailboxSyncer
    let rules: LiveRules
    let ledger: Ledger
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                guard let results = await syncer.sync(engine: rules.current.engine, ledger: ledger) else {
                    logger.info("mailbox sync skipped: one is already running")
                    continue
                }
                for result in results {
                    if let error = result.error {
                        logger.warning("mailbox sync of \(result.mailbox) failed (tried again in \(interval)): \(error)")
                    } else {
                        logger.info("mailbox sync of \(result.mailbox): \(result.downloaded) downloaded, \(result.stored) transactions stored")
                    }
                }
            }
        }
    }
}
