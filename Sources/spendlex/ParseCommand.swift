import ArgumentParser
import Foundation
import PCRE2
import SpendlexEngine
import SpendlexMail
import SpendlexRules
import SpendlexStore

extension OutputFormat: ExpressibleByArgument {}

/// `--text`, `--sender`, `--subject`, `--received-at`: one message given on the command line.
struct MessageOptions: ParsableArguments {
    @Option(name: .long, help: "Parse this message text instead of input files.")
    var text: String?

    @Option(name: .long, help: "The message's sender: email address or SMS sender id.")
    var sender: String?

    @Option(name: .long, help: "The email subject.")
    var subject: String?

    @Option(name: .customLong("received-at"), help: ArgumentHelp("Arrival time, ISO 8601.", valueName: "time"))
    var receivedAt: String?

    func validate() throws {
        if let receivedAt, parseTimestamp(receivedAt) == nil {
            throw ValidationError("--received-at '\(receivedAt)' is not an ISO 8601 time such as 2026-05-02T16:56:01Z")
        }
    }

    var message: Message? {
        text.map {
            Message(id: "text", text: HTMLText.readable($0), sender: sender, subject: subject,
                    receivedAt: receivedAt.flatMap(parseTimestamp),
                    channel: subject != nil ? .email : sender != nil ? .sms : .unknown)
        }
    }
}

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse messages into transactions.",
        discussion: """
            Inputs are detected from their content: mbox files (mboxo, mboxrd, Gmail Takeout), Maildir \
            folders, .eml files and folders of them, SMS Backup & Restore XML, and JSON Lines messages \
            (one object a line: id, text, sender, subject, received_at, channel); - reads stdin. Every \
            message ends as a transaction, ignored, unmatched or an error; a summary goes to stderr.
            """
    )

    @OptionGroup var rules: RuleOptions
    @OptionGroup var single: MessageOptions

    @Option(name: .long, help: "Output format: jsonl, csv, csv-full or table.")
    var format: OutputFormat = .jsonl

    @Option(name: .shortAndLong, help: ArgumentHelp("Write transactions here instead of stdout.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write unmatched bank messages, and likely transactions from unknown senders, here (JSON Lines).",
        valueName: "file"))
    var unmatched: String?

    @Option(name: .shortAndLong, help: "Worker threads (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Decode and parse mail from every sender, not only bank senders.")
    var all = false

    @Flag(name: .long, help: "Do not print progress or the summary on stderr.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "Write every message and transaction to this SQLite ledger (created if needed); messages already in it are skipped.",
        valueName: "file"))
    var store: String?

    @Flag(name: .long, help: ArgumentHelp(
        "One JSON line per input message instead of transactions: how it ended (transaction, ignored, unmatched, error) and why, its transaction, and the transaction's duplicate keys. No ledger: a stage of a distributed job (scripts/spark/spendlex_spark.py) links duplicates downstream."))
    var accounting = false

    @Flag(name: .long, help: "With --store: parse messages already in the ledger again and update their records (user categories kept).")
    var reprocess = false

    @Flag(name: .long, help: "With --store: leave what no decision-table row categorizes uncategorized (no learned model).")
    var noLearning = false

    @Option(name: .long, help: ArgumentHelp(
        "With --store: how many minutes apart two alerts about one transaction may arrive (SMS vs email vs push).",
        valueName: "minutes"))
    var duplicateWindow: Double = DuplicatePolicy().alertWindow / 60

    @Option(name: .customLong("max-message-bytes"), help: ArgumentHelp(
        "The largest message read (an mbox message, an SMS backup element, a JSON line); a larger one is an error and the run goes on. Default 268435456 (256 MiB).",
        valueName: "bytes"))
    var maxMessageBytes: Int = BatchOptions.defaultMaxMessageBytes

    @Option(name: .customLong("max-mime-depth"), help: ArgumentHelp(
        "How deep an e-mail's multiparts may nest; deeper ones are skipped, and the message says so. Default 20.",
        valueName: "levels"))
    var maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth

    @Argument(help: ArgumentHelp("Mailboxes, Maildirs, .eml files, SMS backups, JSON Lines files, or - for stdin.",
                                 valueName: "input"))
    var inputs: [String] = []

    /// The batch options the flags ask for.
    func batchOptions(reportUnmatched: Bool, recordMessages: Bool, skipMessageIDs: Set<String>) -> BatchOptions {
        var options = BatchOptions(jobs: jobs, decodeAllSenders: all, reportUnmatched: reportUnmatched,
                                   recordMessages: recordMessages, skipMessageIDs: skipMessageIDs)
        options.maxMessageBytes = maxMessageBytes
        options.maxMIMEDepth = maxMIMEDepth
        return options
    }

    func validate() throws {
        if single.text == nil && inputs.isEmpty {
            throw ValidationError("give --text TEXT or at least one input (- for stdin)")
        }
        if single.text != nil && !inputs.isEmpty {
            throw ValidationError("give either --text or inputs, not both")
        }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if reprocess && store == nil { throw ValidationError("--reprocess needs --store FILE") }
        if accounting && store != nil { throw ValidationError("--accounting writes records for a job to store; give it no --store") }
        if accounting && format != .jsonl { throw ValidationError("--accounting writes JSON Lines; give no other --format") }
        if duplicateWindow < 0 { throw ValidationError("--duplicate-window must not be negative") }
        if maxMessageBytes < 1 { throw ValidationError("--max-message-bytes must be at least 1") }
        if maxMIMEDepth < 1 { throw ValidationError("--max-mime-depth must be at least 1") }
    }

    func run() throws {
        // SPENDLEX_PATTERN_PROFILE=1: where matching time went, pattern by pattern (a developer's tool).
        defer { if PatternProfile.isOn { FileHandle.standardError.write(Data(PatternProfile.report().utf8)) } }
        let engine = try rules.engine(ledger: store)
        // With a ledger, transactions go to it; they are also printed only when asked (-o or --format).
        // With --accounting, records take the transactions' place.
        let printTransactions = (store == nil || output != nil || format != .jsonl) && !accounting
        let out = printTransactions || accounting ? try OutputStream(path: output) : OutputStream.discarding()
        let unmatchedOut = try unmatched.map { try OutputStream(path: $0) }
        let ledger = try store.map { path in
            do { return try Ledger(path: path, duplicates: DuplicatePolicy(alertWindow: duplicateWindow * 60)) } catch {
                throw ValidationError("cannot open the ledger \(path): \(error)")
            }
        }
        let known = reprocess ? [] : try ledger?.processedMessageIDs() ?? []
        var options = batchOptions(reportUnmatched: unmatchedOut != nil, recordMessages: ledger != nil || accounting,
                                   skipMessageIDs: known)
        options.renderRows = printTransactions
        let batch = BatchParser(engine: engine, writer: TransactionWriter(format: format), options: options)
        let progress = ProgressLine(enabled: !quiet && single.message == nil && isatty(STDERR_FILENO) == 1,
                                    totalBytes: Self.totalSize(of: inputs))
        // The rule files' contents (not their paths: the same rules named from another folder are
        // the same), hashed: a run says when the ledger's messages were parsed with others.
        let rulesHash = Ledger.rulesHash(texts: engine.rules.rules.sources.values.map(\.text))
        if let ledger, !reprocess, !quiet {
            let stale = try ledger.messagesParsedWithOtherRules(than: rulesHash)
            if stale > 0 {
                Stderr.write("note: the rules changed since \(stale) of the ledger's messages were parsed; they keep what "
                             + "the rules then read: run again with --reprocess to parse them with these\n")
            }
        }
        let run = try ledger?.beginRun(inputs: single.message == nil ? inputs : ["--text"], rulesHash: rulesHash,
                                       rulesFiles: Array(engine.rules.rules.sources.keys))
        // The ledger is written on a thread of its own while the workers parse.
        let intake = ledger.map { LedgerIntake(ledger: $0, run: run, reprocess: reprocess) }
        var stored = RunCounts()
        var storeError: Error?
        let sink = BatchSink(
            rows: out.write(bytes:), problem: { progress.clear(); Stderr.write($0 + "\n") },
            unmatched: { unmatchedOut?.write($0) }, progress: progress.show,
            records: { records in
                intake?.submit(records)
                if accounting { out.write(bytes: Self.accountingLines(records)) }
            })
        func finishIntake() {
            if let (counts, error) = intake?.finish() { (stored, storeError) = (counts, error) }
        }
        let started = Date()
        // A run that stops short (the ledger or an output cannot be written) is closed as
        // failed, with why, never left open.
        func closingRunOnFailure<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch {
                if let ledger, let run {
                    var why = "\(error)"
                    if let failure = unmatchedOut?.failure { why = "writing \(unmatched ?? "") failed: \(failure)" }
                    if let failure = out.failure { why = "writing \(output ?? "the output") failed: \(failure)" }
                    if let storeError { why = "writing the ledger failed: \(storeError)" }
                    try? ledger.finishRun(run, counts: stored, failure: why)
                }
                throw error
            }
        }
        if let message = single.message {
            _ = batch.run(message: message, sink: sink)
            finishIntake()
            try closingRunOnFailure {
                try out.finish(name: output ?? "the output")
                try unmatchedOut?.finish(name: unmatched ?? "")
                try finish(ledger, run: run, stored: stored, skipped: 0, error: storeError)
            }
            return
        }
        let (summary, unreadable) = batch.run(inputs: inputs, sink: sink)
        finishIntake()
        try closingRunOnFailure {
            try out.finish(name: output ?? "the output")
            try unmatchedOut?.finish(name: unmatched ?? "")
            progress.clear()
            try finish(ledger, run: run, stored: stored, skipped: summary.skipped, error: storeError)
        }
        // What no decision-table row categorized, the model learned from the ledger does (when sure).
        var learned: Ledger.LearnedCounts?
        if let ledger, let run, !noLearning, stored.transactions > 0 {
            do { learned = try ledger.learnCategories(run: run) } catch {
                Stderr.write("error: categorizing with the learned model failed: \(error)\n")
                throw ExitStatus.internalError
            }
        }
        // The search indexes last: the learned categories are part of what a transaction means, and
        // an indexed transaction's update would take its words out of the index and put them back.
        if let ledger, stored.messages > 0 { SearchIndexing.afterStoring(ledger, quiet: quiet) }
        if !quiet {
            var text = summary.description + "\n"
            if let store { text += "ledger \(store): \(stored.transactions) transactions stored, \(stored.duplicates) linked as duplicates\n" }
            if let learned, learned.categorized + learned.forReview > 0 {
                text += "learned model (\(learned.examples) examples): \(learned.categorized) categorized, \(learned.forReview) left for review\n"
            }
            Stderr.write(text + Throughput(summary: summary, since: started).description + "\n")
        }
        if !unreadable.isEmpty { throw ExitStatus.badInput }
    }

    /// Closes the ledger's run; a write that failed is an internal error (exit 70), after which
    /// the ledger holds every batch written before it.
    private func finish(_ ledger: Ledger?, run: Int64?, stored: RunCounts, skipped: Int, error: Error?) throws {
        guard let ledger, let run else { return }
        if let error {
            Stderr.write("error: writing the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        var counts = stored
        counts.skipped = skipped
        try ledger.finishRun(run, counts: counts)
    }
}

extension Parse {
    /// `--accounting`'s lines for a batch of records: each with its transaction's duplicate keys,
    /// computed as the ledger computes them.
    static func accountingLines(_ records: [MessageRecord]) -> [UInt8] {
        let writer = TransactionWriter(format: .jsonl)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 900)
        for record in records {
            writer.appendAccountingLine(record, keys: record.transaction.map(DuplicatePolicy.keys(of:)), to: &bytes)
        }
        return bytes
    }

    /// The inputs' total size when every one is a regular file, for the progress ETA.
    static func totalSize(of inputs: [String]) -> Int? {
        var total = 0
        for input in inputs {
            guard input != "-",
                  let attributes = try? FileManager.default.attributesOfItem(atPath: input),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = attributes[.size] as? Int else { return nil }
            total += size
        }
        return total
    }
}

/// Bytes and messages per second over a run.
struct Throughput: CustomStringConvertible {
    let summary: BatchSummary
    let seconds: Double

    init(summary: BatchSummary, since start: Date) {
        self.summary = summary
        self.seconds = max(Date().timeIntervalSince(start), 1e-6)
    }

    var description: String {
        let megabytes = Double(summary.bytes) / 1_000_000
        return String(format: "%.1f MB in %.2f s: %.1f MB/s, %.0f messages/s",
                      megabytes, seconds, megabytes / seconds, Double(summary.messages) / seconds)
    }
}

/// A one-line progress display on stderr, redrawn in place; only on a terminal.
final class ProgressLine {
    private let enabled: Bool
    private let totalBytes: Int?
    private let start = Date()
    private var shown = false

    init(enabled: Bool, totalBytes: Int?) {
        self.enabled = enabled
        self.totalBytes = totalBytes
    }

    func show(_ summary: BatchSummary) {
        guard enabled else { return }
        let seconds = max(Date().timeIntervalSince(start), 1e-6)
        let rate = Double(summary.bytes) / 1_000_000 / seconds
        var line = String(format: "\r\u{1B}[K%d messages, %d transactions, %.1f MB/s",
                          summary.messages, summary.transactions, rate)
        if let totalBytes, totalBytes > 0, rate > 0 {
            let left = Double(max(totalBytes - summary.bytes, 0)) / 1_000_000 / rate
            line += String(format: ", %.0f%%, ETA %d:%02d", 100 * Double(summary.bytes) / Double(totalBytes),
                           Int(left) / 60, Int(left) % 60)
        }
        Stderr.write(line)
        shown = true
    }

    func clear() {
        guard enabled, shown else { return }
        Stderr.write("\r\u{1B}[K")
        shown = false
    }
}
