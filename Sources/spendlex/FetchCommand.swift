import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexIMAP
import SpendlexMail
import SpendlexRules
import SpendlexStore
import SpendlexSync

struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch bank mail from an IMAP mailbox, read-only, and parse it (into a ledger with --store).",
        discussion: """
            The server is searched for mail from the rule files' sender addresses and domains, so only \
            bank mail is downloaded; messages are read with BODY.PEEK[] from a mailbox opened with EXAMINE, \
            so no flag changes and nothing is moved or deleted. With --store the ledger keeps the mailbox's \
            UIDVALIDITY and the highest UID fetched: the next run fetches only what is new, a lost connection \
            resumes from the last message stored, and messages already in the ledger are never downloaded \
            again. The password comes from $SPENDLEX_IMAP_PASSWORD, a netrc file (~/.netrc) or a prompt on a \
            terminal; an OAuth 2 token from --oauth2-command. imaps:// uses TLS, imap:// STARTTLS (plain \
            text only with --insecure); certificates are checked against the system's store or --ca-file.
            Exit status: 69 the server cannot be reached, 75 the connection was lost and could not be \
            resumed, 76 TLS failed (an untrusted certificate) or the server misbehaved, 77 the login was \
            refused or no password was found, 66 the mailbox does not exist.
            """
    )

    @OptionGroup var rules: RuleOptions

    @Argument(help: ArgumentHelp(
        "The mailbox: imaps://USER@HOST[:PORT]/MAILBOX or imap://… (STARTTLS); an @ in USER is %40. Without it, every mailbox under mailboxes: in the spendlex.yaml beside --store.",
        valueName: "url"))
    var url: String?

    @Option(name: .long, help: ArgumentHelp(
        "Store the transactions in this SQLite ledger (created if needed); it also keeps where the fetch got to.",
        valueName: "file"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Only mail that arrived on or after this day (YYYY-MM-DD).", valueName: "date"))
    var since: String?

    @Flag(name: .customLong("all-senders"), help: "Fetch every message of the mailbox, not only mail from the rules' bank senders.")
    var allSenders = false

    @Flag(name: .long, help: "With imap://: go on in plain text when the server offers no STARTTLS (the password crosses the network readable).")
    var insecure = false

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("Trust the CA certificates in this PEM file (a private CA) instead of the system's.",
                                                             valueName: "file"))
    var caFile: String?

    @Option(name: .customLong("oauth2-command"), help: ArgumentHelp(
        "Log in with XOAUTH2, with the access token this shell command prints (e.g. a token helper).", valueName: "command"))
    var oauth2Command: String?

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("Read the password from this netrc file (default $NETRC or ~/.netrc).",
                                                                valueName: "file"))
    var netrcFile: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the server before the connection counts as lost.", valueName: "seconds"))
    var timeout: Double = 60

    @Option(name: .long, help: "Times to reconnect and resume after a lost connection.")
    var retries: Int = 3

    @Option(name: .long, help: "Output format: jsonl, csv, csv-full or table.")
    var format: OutputFormat = .jsonl

    @Option(name: .shortAndLong, help: ArgumentHelp("Write transactions here instead of stdout.", valueName: "file"))
    var output: String?

    @Option(name: .shortAndLong, help: "Worker threads (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("max-message-bytes"), help: ArgumentHelp(
        "The largest message downloaded; a larger one is an error and the fetch goes on. Default 268435456 (256 MiB).",
        valueName: "bytes"))
    var maxMessageBytes: Int = BatchOptions.defaultMaxMessageBytes

    @Flag(name: .long, help: "With --store: leave what no decision-table row categorizes uncategorized (no learned model).")
    var noLearning = false

    @Flag(name: .long, help: "Do not print progress or the summary on stderr.")
    var quiet = false

    func validate() throws {
        if let since, PersonConfig.Mailbox.day(since) == nil { throw ValidationError("--since '\(since)' is not a day such as 2026-02-01") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive") }
        if retries < 0 { throw ValidationError("--retries must not be negative") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if maxMessageBytes < 1 { throw ValidationError("--max-message-bytes must be at least 1") }
    }

    func run() async throws {
        // The mailbox named, or every mailbox of the person's settings beside the ledger.
        var targets: [(url: IMAPMailboxURL, settings: PersonConfig.Mailbox?)] = []
        if let url {
            do { targets = [(try IMAPMailboxURL(url), nil)] } catch { throw ValidationError("\(error)") }
        } else {
            guard let store else {
                throw ValidationError("give a mailbox URL, or --store LEDGER to fetch the mailboxes listed in the spendlex.yaml beside it")
            }
            let mailboxes = try PersonSettings.load(ledger: store)?.mailboxes ?? []
            guard !mailboxes.isEmpty else {
                throw ValidationError("no mailbox URL given, and no mailboxes: in \(PersonSettings.path(ledger: store))")
            }
            for mailbox in mailboxes {
                do { targets.append((try IMAPMailboxURL(mailbox.url), mailbox)) } catch {
                    throw ValidationError("\(PersonSettings.path(ledger: store)): \(error)")
                }
            }
        }
        let engine = try rules.engine(ledger: store)
        let printTransactions = store == nil || output != nil || format != .jsonl
        let out = printTransactions ? try OutputStream(path: output) : OutputStream.discarding()
        let ledger = try store.map { path in
            do { return try Ledger(path: path) } catch { throw ValidationError("cannot open the ledger \(path): \(error)") }
        }
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        let progressLine = FetchProgressLine(enabled: showProgress)
        let sink = BatchSink(rows: out.write(bytes:), problem: { progressLine.clear(); Stderr.write($0 + "\n") })
        sink.rows(Array(TransactionWriter(format: format).header.utf8))
        var failure: Error?
        var storedRuns: [Int64] = []
        for (mailbox, settings) in targets {
            do {
                // The ledger's ids read again for each mailbox: one holding what another just
                // stored (Gmail's INBOX and All Mail) downloads none of it.
                let known = try ledger?.processedMessageIDs() ?? []
                var batchOptions = BatchOptions(jobs: jobs, recordMessages: ledger != nil, skipMessageIDs: known)
                batchOptions.maxMessageBytes = maxMessageBytes
                batchOptions.renderRows = printTransactions
                let batch = BatchParser(engine: engine, writer: TransactionWriter(format: format), options: batchOptions)
                if let run = try await fetch(mailbox, settings: settings, engine: engine, batch: batch, ledger: ledger,
                                             known: known, sink: sink, progressLine: progressLine) {
                    storedRuns.append(run)
                }
            } catch {
                // One mailbox failing does not keep the others from being fetched.
                failure = failure ?? error
            }
        }
        try out.finish(name: output ?? "the output")
        // What no decision-table row categorized, the model learned from the ledger does (when sure).
        for run in storedRuns where !noLearning {
            if let learned = try ledger?.learnCategories(run: run), !quiet, learned.categorized + learned.forReview > 0 {
                Stderr.write("learned model (\(learned.examples) examples): \(learned.categorized) categorized, \(learned.forReview) left for review\n")
            }
        }
        // The search indexes after the learned categories, which are part of what a transaction means.
        if let ledger, !storedRuns.isEmpty { SearchIndexing.afterStoring(ledger, quiet: quiet) }
        if let failure { throw Self.exitCode(for: failure) }
    }

    /// Fetches one mailbox; returns its ledger run when it stored transactions. A failure is printed and thrown.
    private func fetch(_ mailbox: IMAPMailboxURL, settings: PersonConfig.Mailbox?, engine: RuleEngine, batch: BatchParser,
                       ledger: Ledger?, known: Set<String>, sink: BatchSink, progressLine: FetchProgressLine) async throws -> Int64? {
        let credentials: IMAPCredentials
        do {
            credentials = try MailboxCredentials.resolve(
                for: mailbox, oauth2Command: oauth2Command ?? settings?.oauth2Command,
                variable: settings?.passwordVariable ?? MailboxCredentials.passwordVariable, netrcPath: netrcFile,
                prompt: isatty(STDIN_FILENO) == 1 ? { Self.askPassword(for: mailbox) } : nil)
        } catch {
            Stderr.write("error: \(error)\n")
            throw IMAPError.authenticationFailed("\(error)")
        }
        let rulesHash = Ledger.rulesHash(texts: engine.rules.rules.sources.values.map(\.text))
        let run = try ledger?.beginRun(inputs: [mailbox.description], rulesHash: rulesHash,
                                       rulesFiles: Array(engine.rules.rules.sources.keys))
        var options = MailboxFetchOptions(url: mailbox, connection: IMAPConnectionOptions(
            caFile: caFile ?? settings?.caFile, allowPlainText: insecure || settings?.insecure == true, timeout: timeout),
                                          credentials: credentials)
        options.since = since.flatMap(PersonConfig.Mailbox.day) ?? settings?.since
        options.allSenders = allSenders || settings?.allSenders == true
        options.retries = retries
        options.maxMessageBytes = maxMessageBytes
        let fetch = MailboxFetch(engine: engine, batch: batch, ledger: ledger, run: run, known: known, options: options)
        let started = Date()
        let report: MailboxFetchReport
        do {
            report = try await fetch.fetch(sink: sink, progress: progressLine.show, note: { note in
                progressLine.clear()
                if !quiet { Stderr.write("note: \(note)\n") }
            })
        } catch {
            progressLine.clear()
            if let ledger, let run { try? ledger.finishRun(run, counts: RunCounts(), failure: "\(error)") }
            Stderr.write("error: \(mailbox): \(error)\n")
            throw error
        }
        progressLine.clear()
        if let ledger, let run {
            var counts = report.stored
            counts.skipped = report.summary.skipped
            try ledger.finishRun(run, counts: counts)
        }
        if !quiet {
            let seconds = max(Date().timeIntervalSince(started), 1e-6)
            var text = report.summary.description + "\n"
            text += String(format: "%@: %d bank messages found, %d downloaded (%.1f MB received) in %.2f s: %.0f messages/s",
                           mailbox.description, report.found, report.downloaded, Double(report.bytesReceived) / 1_000_000,
                           seconds, Double(report.downloaded) / seconds)
            if report.reconnections > 0 { text += ", \(report.reconnections) reconnection(s)" }
            text += "\n"
            if let store {
                text += "ledger \(store): \(report.stored.transactions) transactions stored, \(report.stored.duplicates) linked as duplicates; next fetch starts after UID \(report.checkpoint?.lastUID ?? 0)\n"
            }
            Stderr.write(text)
        }
        return report.stored.transactions > 0 ? run : nil
    }

    /// The exit status for a failed fetch (sysexits).
    static func exitCode(for error: Error) -> ExitCode {
        guard let imap = error as? IMAPError else { return ExitStatus.internalError }
        switch imap {
        case .cannotConnect: return ExitCode(69)
        case .connectionLost: return ExitCode(75)
        case .tls, .noTLS, .protocolError: return ExitCode(76)
        case .authenticationFailed: return ExitCode(77)
        case .mailbox: return ExitCode(66)
        }
    }

    /// Asks for the password on the terminal, without echo.
    static func askPassword(for mailbox: IMAPMailboxURL) -> String? {
        guard let typed = getpass("Password for \(mailbox.user) at \(mailbox.host): ") else { return nil }
        return String(cString: typed)
    }
}

/// "120 of 3,400 messages, 5.1 MB, 80 transactions" redrawn on stderr while a fetch runs; only on a terminal.
final class FetchProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: MailboxFetchProgress) {
        guard enabled else { return }
        Stderr.write(String(format: "\r\u{1B}[Kfetching: %d of %d messages, %.1f MB, %d transactions",
                            progress.downloaded, progress.toDownload, Double(progress.bytes) / 1_000_000,
                            progress.transactions))
        shown = true
    }

    func clear() {
        guard enabled, shown else { return }
        Stderr.write("\r\u{1B}[K")
        shown = false
    }
}
