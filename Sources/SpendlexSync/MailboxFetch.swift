import Foundation
import SpendlexEngine
import SpendlexIMAP
import SpendlexMail
import SpendlexStore

/// What a fetch is asked to do.
public struct MailboxFetchOptions: Sendable {
    /// Which mailbox.
    public var url: IMAPMailboxURL
    /// Certificates, plain text, timeouts.
    public var connection: IMAPConnectionOptions
    /// The login.
    public var credentials: IMAPCredentials
    /// Only mail that arrived on or after this day (the server's arrival date, IMAP `SINCE`).
    public var since: DateComponents?
    /// Every message of the mailbox, not only mail from the rule files' senders.
    public var allSenders = false
    /// Reconnections after a lost connection before the fetch gives up (it resumes where it stopped).
    public var retries = 3
    /// Seconds before the first reconnection; doubled each time.
    public var retryDelay: Double = 1
    /// Messages and bytes downloaded, parsed and stored at a time: the unit a cut connection loses.
    public var chunkMessages = 200
    public var chunkBytes = 16 << 20
    /// The largest message downloaded; a larger one is an error, reported and not downloaded.
    public var maxMessageBytes = BatchOptions.defaultMaxMessageBytes

    /// Options with the defaults above.
    public init(url: IMAPMailboxURL, connection: IMAPConnectionOptions, credentials: IMAPCredentials) {
        self.url = url
        self.connection = connection
        self.credentials = credentials
    }
}

/// How a fetch went.
public struct MailboxFetchReport: Sendable {
    /// Every message looked at, accounted for (those the ledger had count as skipped).
    public var summary = BatchSummary()
    /// What the ledger stored.
    public var stored = RunCounts()
    /// Messages the search found (bank mail, or all with `allSenders`) past the checkpoint.
    public var found: Int { foundUIDs.count }
    var foundUIDs = Set<UInt32>()
    var foundUIDValidity: UInt32 = 0
    /// Messages accounted for without being downloaded (already in the ledger, too large).
    var accountedUIDs = Set<UInt32>()
    /// Messages downloaded.
    public var downloaded = 0
    /// Bytes received from the server (protocol included).
    public var bytesReceived = 0
    /// Times the connection was lost and the fetch resumed.
    public var reconnections = 0
    /// The mailbox's checkpoint after the fetch.
    public var checkpoint: MailboxCheckpoint?
}

/// Progress during a fetch, for a terminal line.
public struct MailboxFetchProgress: Sendable {
    /// Messages downloaded so far, of `toDownload`.
    public var downloaded: Int
    public var toDownload: Int
    /// Their bytes.
    public var bytes: Int
    /// Transactions parsed from them.
    public var transactions: Int
}

/// Fetches an IMAP mailbox's bank mail into the parser and, with a ledger, into the ledger:
/// only mail from the rule files' senders (a server-side search), only once (the mailbox's
/// UIDVALIDITY and highest UID are kept in the ledger), read-only (EXAMINE, BODY.PEEK[]).
///
/// Messages are downloaded, parsed and stored in chunks, each stored with the mailbox's new
/// checkpoint in one SQLite transaction; a connection lost mid-fetch is reopened and the fetch
/// resumes after the last chunk stored, so nothing is lost or stored twice. A changed
/// UIDVALIDITY (the server renumbered the mailbox) or a changed search (new rule files) searches
/// the whole mailbox again; messages the ledger already holds are recognised by Message-ID
/// from their headers and not downloaded.
public final class MailboxFetch {
    private let engine: RuleEngine
    private let batch: BatchParser
    private let ledger: Ledger?
    private let run: Int64?
    private let options: MailboxFetchOptions
    /// Message ids the ledger holds: not downloaded again.
    private var known: Set<String>
    /// How far the fetch got: every message up to `lastUID` was searched, and the bank mail among
    /// it parsed. What a reconnection resumes from.
    private var checkpoint: MailboxCheckpoint?
    /// Records parsed and not yet stored, and what `checkpoint` was when they were: stored
    /// together, a few thousand at a time (one SQLite transaction per 200-message chunk made
    /// `fetch --store` take three times as long as `fetch`).
    private var pending: [MessageRecord] = []
    private var pendingCheckpoint: MailboxCheckpoint?
    private var lastWrite = Date()
    /// Records stored at most in one transaction, and seconds between writes at most.
    static let recordsPerWrite = 8_192
    static let secondsPerWrite = 2.0

    /// A fetch that parses with `batch` (records asked for when there is a ledger) and stores
    /// into `ledger` under `run`; `known`: the ledger's message ids.
    public init(engine: RuleEngine, batch: BatchParser, ledger: Ledger?, run: Int64?, known: Set<String>,
                options: MailboxFetchOptions) {
        self.engine = engine
        self.batch = batch
        self.ledger = ledger
        self.run = run
        self.known = known
        self.options = options
    }

    /// The search for the rule files' bank senders.
    public static func senderSearch(_ engine: RuleEngine) -> IMAPSenderSearch {
        IMAPSenderSearch(senders: engine.rules.rules.banks.filter { !$0.isFallback }.flatMap { $0.senders.map(\.value) })
    }

    /// Runs the fetch. `sink` receives rows, problems and unmatched lines as a file's parse does
    /// (its `records` are taken here, to be stored with the checkpoint); `note` says what a
    /// person should know (a reconnection, a renumbered mailbox).
    public func fetch(sink: BatchSink, progress: @escaping (MailboxFetchProgress) -> Void = { _ in },
                      note: @escaping (String) -> Void = { _ in }) async throws -> MailboxFetchReport {
        let key = options.url.description
        let search = options.allSenders ? nil : Self.senderSearch(engine)
        if let search, search.terms.isEmpty {
            throw IMAPError.protocolError("the rule files name no e-mail sender to search for (use --all-senders)")
        }
        let since = options.since.flatMap(IMAPSyntax.searchDate)
        let searchHash = StableHash.hex(Array(((search?.terms.joined(separator: "\n") ?? "*") + "\nsince " + (since ?? "")).utf8))
        var report = MailboxFetchReport()
        checkpoint = try ledger?.checkpoint(mailbox: key)
        var attempt = 0
        while true {
            do {
                try await IMAPSession.withSession(options.url, options: options.connection) { session in
                    defer { report.bytesReceived += session.bytesReceived }
                    try await session.login(options.credentials)
                    let status = try await session.examine(options.url.mailbox)
                    if let old = checkpoint, old.uidValidity != status.uidValidity || old.searchHash != searchHash {
                        note(old.uidValidity != status.uidValidity
                             ? "\(key): the server renumbered the mailbox (UIDVALIDITY \(old.uidValidity) → \(status.uidValidity)); searching it all again, skipping messages the ledger has"
                             : "\(key): the senders or --since searched for changed; searching the whole mailbox again, skipping messages the ledger has")
                        // What was parsed under the old numbering is stored with the old checkpoint first.
                        try write(&report)
                        checkpoint = MailboxCheckpoint(mailbox: key, uidValidity: status.uidValidity, lastUID: 0,
                                                       searchHash: searchHash, messages: old.messages)
                    }
                    if checkpoint == nil {
                        checkpoint = MailboxCheckpoint(mailbox: key, uidValidity: status.uidValidity, lastUID: 0,
                                                       searchHash: searchHash)
                    }
                    try await fetch(session: session, status: status, search: search, since: since,
                                    report: &report, sink: sink, progress: progress)
                    await session.logout()
                }
                try write(&report)
                report.checkpoint = checkpoint
                return report
            } catch let error as IMAPError where error.isTransient && attempt < options.retries {
                attempt += 1
                report.reconnections += 1
                let resume = (checkpoint?.lastUID ?? 0) + 1
                note("\(key): \(error); reconnecting (\(attempt) of \(options.retries)) to resume from UID \(resume)")
                try await Task.sleep(nanoseconds: UInt64(options.retryDelay * pow(2, Double(attempt - 1)) * 1e9))
            } catch {
                // Giving up: what was fetched and parsed is stored, so that the next run goes on after it.
                try? write(&report)
                throw error
            }
        }
    }

    private func fetch(session: IMAPSession, status: IMAPMailboxStatus, search: IMAPSenderSearch?, since: String?,
                       report: inout MailboxFetchReport, sink: BatchSink,
                       progress: @escaping (MailboxFetchProgress) -> Void) async throws {
        guard var checkpoint else { return }
        let key = checkpoint.mailbox
        let from = checkpoint.lastUID + 1
        let criteria = search?.criteria(fromUID: from, since: since) ?? IMAPSenderSearch.everything(fromUID: from, since: since)
        var found = Set<UInt32>()
        for keys in criteria { found.formUnion(try await session.search(keys)) }
        // `N:*` always includes the last message, even when its UID is below N.
        let wanted = found.filter { $0 >= from }.sorted()
        // A resumed attempt finds again what the cut one found and did not store: counted once.
        if report.foundUIDValidity != checkpoint.uidValidity {
            report.foundUIDs = []
            report.accountedUIDs = []
            report.foundUIDValidity = checkpoint.uidValidity
        }
        report.foundUIDs.formUnion(wanted)

        // Sizes, and with a ledger the Message-IDs: what the ledger has is not downloaded.
        var sizes: [UInt32: Int] = [:]
        var skip = Set<UInt32>()
        let items = ledger == nil ? "(UID RFC822.SIZE)" : "(UID RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])"
        for start in stride(from: 0, to: wanted.count, by: 1000) {
            let part = Array(wanted[start..<min(start + 1000, wanted.count)])
            try await session.fetch(part, items: items) { message in
                if let size = message.size { sizes[message.uid] = size }
                // Masked, as the ledger keeps ids (and as `BatchParser` compares them).
                if let header = message.body, let id = try? MIMEDecoder.headers(of: header + [13, 10]).messageID,
                   known.contains(CardNumberMasker.mask(id)) {
                    skip.insert(message.uid)
                }
            }
        }
        // Counted once, though a resumed attempt may meet them again.
        let newlySkipped = skip.subtracting(report.accountedUIDs)
        report.accountedUIDs.formUnion(newlySkipped)
        var summary = BatchSummary()
        summary.messages = newlySkipped.count
        summary.skipped = newlySkipped.count
        report.summary.add(summary)

        // Chunks to download: by count and by bytes; a message too large is an error, not downloaded.
        var chunks: [[UInt32]] = []
        var tooLarge: [UInt32] = []
        var chunk: [UInt32] = []
        var chunkBytes = 0
        for uid in wanted where !skip.contains(uid) {
            let size = sizes[uid] ?? 0
            if size > options.maxMessageBytes {
                if report.accountedUIDs.insert(uid).inserted { tooLarge.append(uid) }
                continue
            }
            if !chunk.isEmpty && (chunk.count >= options.chunkMessages || chunkBytes + size > options.chunkBytes) {
                chunks.append(chunk)
                chunk = []
                chunkBytes = 0
            }
            chunk.append(uid)
            chunkBytes += size
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        let toDownload = chunks.reduce(0) { $0 + $1.count }
        var shown = MailboxFetchProgress(downloaded: 0, toDownload: toDownload, bytes: 0, transactions: 0)
        progress(shown)

        // The too-large ones are accounted for first, with the checkpoint as it is (they lie
        // anywhere in the range; recording them again on a resumed fetch adds nothing).
        if !tooLarge.isEmpty {
            let items = tooLarge.map { uid in
                InputItem.malformed(file: key, offset: Int(uid), reason: "message of \(sizes[uid] ?? 0) bytes is larger than --max-message-bytes (\(options.maxMessageBytes)); not downloaded")
            }
            try parse(items, checkpoint: checkpoint, report: &report, sink: sink)
        }
        for uids in chunks {
            var emails: [UInt32: [UInt8]] = [:]
            try await session.fetch(uids, items: "(UID BODY.PEEK[])") { message in
                if let body = message.body { emails[message.uid] = body }
            }
            // A message expunged since the search is simply not there: nothing to account for.
            let items = uids.compactMap { uid in
                emails[uid].map { InputItem.email(RawEmail(bytes: $0, file: key, offset: Int(uid))) }
            }
            var next = checkpoint
            next.lastUID = uids.last!
            next.messages += items.count
            let before = report.summary.transactions
            try parse(items, checkpoint: next, report: &report, sink: sink)
            checkpoint = next
            self.checkpoint = next
            report.downloaded += items.count
            shown.downloaded += uids.count
            shown.bytes += items.reduce(0) { if case .email(let email) = $1 { $0 + email.bytes.count } else { $0 } }
            shown.transactions += report.summary.transactions - before
            progress(shown)
        }
        // Every message below UIDNEXT was searched: the next fetch starts after them.
        if status.uidNext > 0 && status.uidNext - 1 > checkpoint.lastUID {
            checkpoint.lastUID = status.uidNext - 1
        }
        if let last = wanted.last, last > checkpoint.lastUID { checkpoint.lastUID = last }
        try parse([], checkpoint: checkpoint, report: &report, sink: sink)
        self.checkpoint = checkpoint
    }

    /// Parses items; their records wait to be stored with the checkpoint that covers them.
    private func parse(_ items: [InputItem], checkpoint: MailboxCheckpoint, report: inout MailboxFetchReport,
                       sink: BatchSink) throws {
        var records: [MessageRecord] = []
        var chunkSink = sink
        chunkSink.records = { records += $0 }
        report.summary.add(batch.run(items: items, sink: chunkSink))
        guard ledger != nil else { return }
        pending += records
        pendingCheckpoint = checkpoint
        if pending.count >= Self.recordsPerWrite || Date().timeIntervalSince(lastWrite) >= Self.secondsPerWrite {
            try write(&report)
        }
    }

    /// Stores the pending records and their checkpoint in one SQLite transaction.
    private func write(_ report: inout MailboxFetchReport) throws {
        guard let ledger, let checkpoint = pendingCheckpoint else { return }
        report.stored.add(try ledger.write(pending, run: run, checkpoint: checkpoint))
        for record in pending { known.insert(record.id) }
        pending = []
        pendingCheckpoint = nil
        lastWrite = Date()
    }
}
