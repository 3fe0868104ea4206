import Foundation
import Synchronization
import SpendlexEngine
import SpendlexIMAP
import SpendlexMail
import SpendlexRules
import SpendlexStore

/// How one configured mailbox's sync went.
public struct MailboxSyncResult: Sendable, Equatable {
    /// The mailbox URL, without a password.
    public var mailbox: String
    /// Bank messages the search found past the checkpoint.
    public var found = 0
    /// Messages downloaded (those the ledger had are not).
    public var downloaded = 0
    /// Transactions parsed.
    public var transactions = 0
    /// Transactions stored, and of them linked as duplicates of earlier ones.
    public var stored = 0
    public var duplicates = 0
    /// Times the connection was lost and the fetch resumed.
    public var reconnections = 0
    /// The highest UID looked at after the sync (where the next one starts).
    public var lastUID: UInt32?
    /// Why the sync of this mailbox failed; nil when it did not.
    public var error: String?

    /// An empty result for a mailbox.
    public init(mailbox: String) { self.mailbox = mailbox }
}

/// Fetches a person's configured mailboxes (`mailboxes:` in spendlex.yaml) into their ledger,
/// one sync at a time: what the service's `POST /sync` and `serve --sync-every` run. The ledger
/// keeps each mailbox's checkpoint, shared with `spendlex fetch`.
public final class MailboxSyncer: Sendable {
    /// The mailboxes it syncs, in order.
    public let mailboxes: [PersonConfig.Mailbox]
    private let running = Mutex(false)
    private let environment: [String: String]

    /// A syncer of these mailboxes; passwords are looked up in `environment`.
    public init(mailboxes: [PersonConfig.Mailbox], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.mailboxes = mailboxes
        self.environment = environment
    }

    /// Syncs every mailbox in turn (a failure of one does not stop the others); nil when a
    /// sync is already running.
    public func sync(engine: RuleEngine, ledger: Ledger, jobs: Int = 1) async -> [MailboxSyncResult]? {
        let started = running.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
        guard started else { return nil }
        defer { running.withLock { $0 = false } }
        var results: [MailboxSyncResult] = []
        for mailbox in mailboxes {
            results.append(await sync(mailbox, engine: engine, ledger: ledger, jobs: jobs))
        }
        return results
    }

    private func sync(_ mailbox: PersonConfig.Mailbox, engine: RuleEngine, ledger: Ledger, jobs: Int) async -> MailboxSyncResult {
        var result = MailboxSyncResult(mailbox: mailbox.url)
        do {
            let url = try IMAPMailboxURL(mailbox.url)
            result.mailbox = url.description
            let credentials = try MailboxCredentials.resolve(
                for: url, oauth2Command: mailbox.oauth2Command, environment: environment,
                variable: mailbox.passwordVariable ?? MailboxCredentials.passwordVariable)
            let known = try ledger.processedMessageIDs()
            let batch = BatchParser(engine: engine, writer: TransactionWriter(format: .jsonl),
                                    options: {
                                        var options = BatchOptions(jobs: jobs, recordMessages: true, skipMessageIDs: known)
                                        options.renderRows = false
                                        return options
                                    }())
            let rulesHash = Ledger.rulesHash(texts: engine.rules.rules.sources.values.map(\.text))
            let run = try ledger.beginRun(inputs: [url.description], rulesHash: rulesHash,
                                          rulesFiles: Array(engine.rules.rules.sources.keys))
            var options = MailboxFetchOptions(url: url, connection: IMAPConnectionOptions(
                caFile: mailbox.caFile, allowPlainText: mailbox.insecure), credentials: credentials)
            options.since = mailbox.since
            options.allSenders = mailbox.allSenders
            let fetch = MailboxFetch(engine: engine, batch: batch, ledger: ledger, run: run, known: known, options: options)
            do {
                let report = try await fetch.fetch(sink: BatchSink(rows: { _ in }, problem: { _ in }))
                var counts = report.stored
                counts.skipped = report.summary.skipped
                try ledger.finishRun(run, counts: counts)
                result.found = report.found
                result.downloaded = report.downloaded
                result.transactions = report.summary.transactions
                result.stored = report.stored.transactions
                result.duplicates = report.stored.duplicates
                result.reconnections = report.reconnections
                result.lastUID = report.checkpoint?.lastUID
            } catch {
                try? ledger.finishRun(run, counts: RunCounts(), failure: "\(error)")
                throw error
            }
        } catch {
            result.error = "\(error)"
            result.lastUID = (try? ledger.checkpoint(mailbox: result.mailbox))??.lastUID
        }
        return result
    }
}
