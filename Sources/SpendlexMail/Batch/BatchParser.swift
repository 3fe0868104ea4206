import Foundation
import SpendlexEngine

/// How a batch run behaves.
public struct BatchOptions: Sendable {
    /// Worker threads; 1 parses on the calling thread.
    public var jobs: Int
    /// Decode and parse emails from every sender, not only bank senders (slower).
    public var decodeAllSenders: Bool
    /// Produce unmatched records: bank messages no parser matched, and messages from
    /// unknown senders that look like transactions (their bodies are then decoded too).
    public var reportUnmatched: Bool

    /// Produce a `MessageRecord` for every message (for a ledger), through `BatchSink.records`.
    public var recordMessages: Bool
    /// Render each transaction as a row of the writer's format, through `BatchSink.rows`; off
    /// when only the records are wanted (`parse --store` without an output).
    public var renderRows = true
    /// Messages already processed (a ledger's ids): skipped by id before their bodies are
    /// decoded, and counted as `skipped`.
    public var skipMessageIDs: Set<String>
    /// The largest message read whole (an mbox message, an SMS backup element, a JSON line), in
    /// bytes; a larger one is skipped and reported as an error with its size, and the run goes on.
    public var maxMessageBytes = BatchOptions.defaultMaxMessageBytes
    /// How deep an e-mail's multiparts may nest before the rest is skipped (a problem of the message).
    public var maxMIMEDepth = MIMEDecoder.defaultMaxDepth
    /// With several jobs, an mbox of at least two ranges is cut into byte ranges of this size
    /// that the workers read themselves (tests make it small). A range's results (its records and
    /// output) are held until it is delivered, and twice the jobs are in flight: 2 MiB ranges kept
    /// `parse --store` on the reference corpus 9 MiB lower than 8 MiB ones, at the same speed
    /// (`parse`, 2 jobs: 1.005 of the wall time, `farm-bench -n 11 --vs`).
    var mboxRangeBytes = 2 << 20

    /// 256 MiB: far above any real message (a mail with attachments is a few MiB), small
    /// enough that a damaged file (no separators) does not take the memory of the machine.
    public static let defaultMaxMessageBytes = InputByteStream.defaultRecordLimit

    /// Creates options; `jobs` defaults to the number of cores.
    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, decodeAllSenders: Bool = false,
                reportUnmatched: Bool = false, recordMessages: Bool = false, skipMessageIDs: Set<String> = []) {
        self.jobs = max(1, jobs)
        self.decodeAllSenders = decodeAllSenders
        self.reportUnmatched = reportUnmatched
        self.recordMessages = recordMessages
        self.skipMessageIDs = skipMessageIDs
    }
}

/// Where a run's results go. Every callback runs on the thread that called `run`, and
/// transactions arrive in input order whatever the number of jobs.
public struct BatchSink {
    /// Rendered transaction rows as UTF-8 (the format's header first), a batch at a time:
    /// bytes, so that a batch goes to its file without being copied into a `String`.
    public var rows: ([UInt8]) -> Void
    /// One line per error: `file:offset: error: reason`.
    public var problem: (String) -> Void
    /// Unmatched records, one JSON line each (only with `reportUnmatched`).
    public var unmatched: (String) -> Void
    /// Progress so far, called now and then.
    public var progress: (BatchSummary) -> Void
    /// One record per message, a batch at a time, in input order (only with `recordMessages`):
    /// what a ledger writes (`LedgerIntake` hands them to a writer thread).
    public var records: ([MessageRecord]) -> Void

    /// Creates a sink that takes rows as UTF-8 bytes; unused callbacks may be left out.
    public init(rows: @escaping ([UInt8]) -> Void, problem: @escaping (String) -> Void,
                unmatched: @escaping (String) -> Void = { _ in }, progress: @escaping (BatchSummary) -> Void = { _ in },
                records: @escaping ([MessageRecord]) -> Void = { _ in }) {
        self.rows = rows
        self.problem = problem
        self.unmatched = unmatched
        self.progress = progress
        self.records = records
    }

    /// Creates a sink that takes rows as text (a copy per batch; fine for tests and small runs).
    public init(transactions: @escaping (String) -> Void, problem: @escaping (String) -> Void,
                unmatched: @escaping (String) -> Void = { _ in }, progress: @escaping (BatchSummary) -> Void = { _ in },
                records: @escaping ([MessageRecord]) -> Void = { _ in }) {
        self.init(rows: { transactions(String(decoding: $0, as: UTF8.self)) }, problem: problem,
                  unmatched: unmatched, progress: progress, records: records)
    }
}

extension BatchSink {
    /// Hands on what a batch produced: its rows, problems, unmatched lines and records.
    func take(_ result: BatchResult) {
        if !result.rows.isEmpty { rows(result.rows) }
        result.problems.forEach(problem)
        if !result.unmatched.isEmpty { unmatched(result.unmatched) }
        if !result.records.isEmpty { records(result.records) }
    }
}

/// Parses every message of some inputs (mailboxes, Maildirs, .eml files, SMS backups,
/// JSON Lines, stdin) with one engine, on several threads, accounting for every message.
///
/// The reading thread splits inputs into messages and routes emails by their `From`
/// header alone: mail from senders no bank lists is counted and dropped without its body
/// being copied or decoded, so mailboxes full of other mail go at disk speed. The rest travels
/// in batches to worker threads that decode, match and render; results come back in order.
/// With several jobs, a large mbox file skips the reading thread: the workers read it in byte
/// ranges, each doing the splitting and routing of its own range.
public struct BatchParser: Sendable {
    let engine: RuleEngine
    let writer: TransactionWriter
    let options: BatchOptions

    /// Items per batch, and raw bytes per batch: small enough to keep memory flat,
    /// large enough that threads do not wait on each other.
    static let batchItems = 256
    static let batchBytes = 4 << 20

    /// Creates a batch parser.
    public init(engine: RuleEngine, writer: TransactionWriter, options: BatchOptions = BatchOptions()) {
        self.engine = engine
        self.writer = writer
        self.options = options
    }

    /// Parses the inputs in order (`-` is stdin). An input that cannot be opened is
    /// reported through `sink.problem` and returned in `unreadable`; the others are parsed.
    public func run(inputs: [String], sink: BatchSink) -> (summary: BatchSummary, unreadable: [String]) {
        var summary = BatchSummary()
        var unreadable: [String] = []
        sink.rows(Array(writer.header.utf8))
        let router = engine.makeWorker()
        let parallel = options.jobs > 1 ? OrderedParallelMap<BatchWork, BatchResult>(
            jobs: options.jobs, limit: options.jobs * 2,
            makeWork: { [self] in
                let worker = engine.makeWorker()
                return { work in
                    switch work {
                    case .items(let items): process(items, worker: worker)
                    case .mboxRange(let path, let range): process(mbox: path, range: range, worker: worker)
                    }
                }
            }) : nil
        let inline = parallel == nil ? engine.makeWorker() : nil

        var lastProgress = Date()
        func deliver(_ result: BatchResult) {
            sink.take(result)
            summary.add(result.summary)
            if Date().timeIntervalSince(lastProgress) > 0.2 {
                lastProgress = Date()
                sink.progress(summary)
            }
        }
        func dispatch(_ batch: [WorkItem]) {
            guard !batch.isEmpty else { return }
            if let parallel {
                parallel.submit(.items(batch), deliver: deliver)
            } else if let inline {
                deliver(process(batch, worker: inline))
            }
        }

        for input in inputs {
            let reader: InputReader
            do {
                reader = try InputReader(path: input, format: nil, chunkSize: InputByteStream.defaultChunkSize,
                                         recordLimit: options.maxMessageBytes)
            } catch {
                unreadable.append(input)
                sink.problem("\(input): error: \(error)")
                continue
            }
            // A large mbox file is read by the workers themselves, a byte range each: reading on
            // one thread (splitting, headers, routing) was a third of the work, and serial.
            if let parallel, reader.format == .mbox, input != "-", let size = reader.totalBytes,
               size >= 2 * options.mboxRangeBytes {
                let step = options.mboxRangeBytes
                for start in stride(from: 0, to: size, by: step) {
                    parallel.submit(.mboxRange(path: input, range: start..<min(start + step, size)), deliver: deliver)
                }
                continue
            }
            // Mail no bank sent is settled from its headers, read in place: its body (attachments
            // and all) is never copied. Not when every message's body is wanted anyway.
            if routesInPlace { reader.router = { [self] headers in route(headers, router: router) } }
            var batch: [WorkItem] = []
            batch.reserveCapacity(Self.batchItems)
            var batchBytes = 0
            var readBefore = 0
            while let item = reader.next() {
                let work = prepare(item, router: router)
                batchBytes += work.size
                batch.append(work)
                if batch.count >= Self.batchItems || batchBytes >= Self.batchBytes {
                    // Attribute the bytes read so far to this batch, for throughput figures.
                    batch[batch.count - 1].bytesRead = reader.bytesRead - readBefore
                    readBefore = reader.bytesRead
                    dispatch(batch)
                    batch = []
                    batch.reserveCapacity(Self.batchItems)
                    batchBytes = 0
                }
            }
            if !batch.isEmpty { batch[batch.count - 1].bytesRead = reader.bytesRead - readBefore }
            dispatch(batch)
        }
        parallel?.finish(deliver: deliver)
        sink.progress(summary)
        return (summary, unreadable)
    }

    /// Parses records that came from elsewhere than files (the messages of an IMAP fetch), in
    /// order, with the run's jobs; no header row is written (the writer's `header`). Every
    /// item is accounted for as from a file: transaction, ignored, unmatched, skipped or error.
    public func run(items: [InputItem], sink: BatchSink) -> BatchSummary {
        var summary = BatchSummary()
        guard !items.isEmpty else { return summary }
        let router = engine.makeWorker()
        var work = items.map { item -> WorkItem in
            var prepared = prepare(item, router: router)
            if case .email(let email) = item { prepared.bytesRead = email.bytes.count }
            return prepared
        }
        func deliver(_ result: BatchResult) {
            sink.take(result)
            summary.add(result.summary)
        }
        let jobs = min(options.jobs, (work.count + 31) / 32)
        if jobs <= 1 {
            deliver(process(work, worker: router))
            return summary
        }
        let parallel = OrderedParallelMap<BatchWork, BatchResult>(
            jobs: jobs, limit: jobs * 2,
            makeWork: { [self] in
                let worker = engine.makeWorker()
                return { batch in
                    guard case .items(let items) = batch else { return BatchResult() }
                    return process(items, worker: worker)
                }
            })
        let step = max(8, work.count / (jobs * 4))
        while !work.isEmpty {
            let batch = Array(work.prefix(step))
            work.removeFirst(batch.count)
            parallel.submit(.items(batch), deliver: deliver)
        }
        parallel.finish(deliver: deliver)
        return summary
    }

    /// Parses a single message given on the command line.
    public func run(message: Message, sink: BatchSink) -> BatchSummary {
        sink.rows(Array(writer.header.utf8))
        var result = process([WorkItem(kind: .message(message))], worker: engine.makeWorker())
        result.summary.bytes = message.text.utf8.count
        sink.take(result)
        return result.summary
    }

    // MARK: - Reading thread

    /// Routes an item on the reading thread: an email's headers are parsed once here, and
    /// mail from non-bank senders is settled without its body leaving this thread. SMS records
    /// and JSON lines are passed on as they are, to be made into messages by a worker: decoding
    /// JSON on this thread made it the bottleneck of a JSON Lines file (2 jobs no faster than 1).
    private func prepare(_ item: InputItem, router: RuleEngine.Worker) -> WorkItem {
        switch item {
        case .text(let record): WorkItem(kind: .unprepared(item), size: record.text.utf8.count)
        case .jsonLine(let bytes, _, _): WorkItem(kind: .unprepared(item), size: bytes.count)
        default: workItem(for: item, router: router)
        }
    }

    /// An input item made into work: a message to parse, an email routed by its headers, or
    /// an outcome settled already (skipped, malformed, not from a bank).
    private func workItem(for item: InputItem, router: RuleEngine.Worker) -> WorkItem {
        let recording = options.recordMessages
        /// A message settled here, with its record when a ledger wants one.
        func settled(_ outcome: WorkItem.Settled, _ record: @autoclosure () -> MessageRecord) -> WorkItem {
            WorkItem(kind: .settled(outcome), record: recording ? record() : nil)
        }
        switch item {
        case .email(let email):
            let headers: EmailHeaders
            if let parsed = email.headers {
                headers = parsed
            } else {
                do {
                    headers = try MIMEDecoder.headers(of: email.bytes)
                } catch {
                    let reason = "not an email: \(error)"
                    return settled(.error("\(email.file):\(email.offset): error: \(reason)"), MessageRecord(
                        id: "\(email.file):\(email.offset)", file: email.file, offset: email.offset, channel: .email,
                        status: .error, reason: reason))
                }
            }
            let route = email.route ?? self.route(headers, router: router)
            // The id a ledger knows the message by; without a Message-ID, a hash of its bytes
            // (computed only when a ledger is involved; `route` keeps the body for it then).
            let id = route.messageID
                ?? (recording || !options.skipMessageIDs.isEmpty ? "sha:" + StableHash.hex(email.bytes) : nil)
            if let id, options.skipMessageIDs.contains(id) { return WorkItem(kind: .settled(.skipped)) }
            if !route.parsesBody {
                return settled(.notFromBank, MessageRecord(
                    id: id ?? "", file: email.file, offset: email.offset, channel: .email, sender: route.from,
                    receivedAt: headers.date, status: .ignored, reason: "not from a bank sender"))
            }
            return WorkItem(kind: .email(email, headers, route), size: email.bytes.count)
        case .text(let record):
            let message = Message(id: record.id ?? Message.textID(sender: record.sender, text: record.text),
                                  text: record.text, sender: record.sender, receivedAt: record.receivedAt,
                                  channel: MessageChannel(rawValue: record.channel) ?? .sms,
                                  file: record.file, offset: record.offset)
            if options.skipMessageIDs.contains(message.id) { return WorkItem(kind: .settled(.skipped)) }
            return WorkItem(kind: .message(message), size: record.text.utf8.count)
        case .jsonLine(let bytes, let file, let line):
            switch JSONLinesMessageReader.record(from: bytes[...], file: file, line: line) {
            case .message(let message):
                if options.skipMessageIDs.contains(message.id) { return WorkItem(kind: .settled(.skipped)) }
                return WorkItem(kind: .message(message), size: bytes.count)
            case .email(let email):
                // A whole e-mail in the line (`raw`): read as one from a mailbox is.
                return workItem(for: .email(email), router: router)
            case .malformed(let file, let offset, let reason):
                if options.skipMessageIDs.contains("\(file):\(offset)") { return WorkItem(kind: .settled(.skipped)) }
                return settled(.error("\(file):\(offset): error: \(reason)"), MessageRecord(
                    id: "\(file):\(offset)", file: file, offset: offset, status: .error, reason: reason))
            }
        case .malformed(let file, let offset, let reason):
            if options.skipMessageIDs.contains("\(file):\(offset)") { return WorkItem(kind: .settled(.skipped)) }
            return settled(.error("\(file):\(offset): error: \(reason)"), MessageRecord(
                id: "\(file):\(offset)", file: file, offset: offset, status: .error, reason: reason))
        case .skipped(let file, let offset, let reason):
            return settled(.ignored, MessageRecord(
                id: "\(file):\(offset)", file: file, offset: offset, status: .ignored, reason: reason))
        }
    }

    /// Routes an email by its headers alone: the banks whose senders name its `From`, whether
    /// a fallback file reads its subject, and whether its body is parsed, or wanted at all. The
    /// one routing function for both the reader (in place, before copying) and `prepare`, so
    /// the two cannot disagree.
    private func route(_ headers: EmailHeaders, router: RuleEngine.Worker) -> EmailRoute {
        let from = headers.fromAddress
        let senderBanks = from.map(router.banks(forSender:)) ?? []
        // Mail from no bank's sender is settled unread, unless its subject reads like an alert
        // that a fallback file takes (`fallback: true` with `subjects`), or it or its sender names a
        // bank a country profile knows.
        let fallback = senderBanks.isEmpty && router.fallbackReadsEmail(subject: headers.subject, sender: from)
        let parses = !senderBanks.isEmpty || fallback || options.decodeAllSenders || options.reportUnmatched
        // Masked as every id the ledger keeps is (`Message` masks its id: a Message-ID of 13 or
        // more digits reads as a card number): compared raw, such a message was never known.
        let messageID = headers.messageID.map(CardNumberMasker.mask)
        let skipped = messageID.map(options.skipMessageIDs.contains) ?? false
        // Without a Message-ID, a ledger knows the message by a hash of all its bytes.
        let hashed = messageID == nil && (options.recordMessages || !options.skipMessageIDs.isEmpty)
        return EmailRoute(from: from, messageID: messageID, senderBanks: senderBanks, fallback: fallback,
                          parsesBody: parses, wantsBody: !skipped && (parses || hashed))
    }

    // MARK: - Worker threads

    /// Whether emails are routed from their headers while still in the read buffer: not when
    /// every message's body is wanted anyway.
    private var routesInPlace: Bool { !options.decodeAllSenders && !options.reportUnmatched }

    private func process(_ items: [WorkItem], worker: RuleEngine.Worker) -> BatchResult {
        var result = BatchResult()
        for item in items { process(item, worker: worker, into: &result) }
        return result
    }

    /// Reads, routes and parses the messages of an mbox whose From_ line starts in `range`, on
    /// a worker thread: what the reading thread and a worker do for the other inputs.
    private func process(mbox path: String, range: Range<Int>, worker: RuleEngine.Worker) -> BatchResult {
        var result = BatchResult()
        result.summary.bytes = range.count
        let reader: InputReader
        do {
            reader = try InputReader(mboxPath: path, owning: range, recordLimit: options.maxMessageBytes)
        } catch {
            // Sniffed a moment ago, unreadable now (deleted, permissions changed): the range's
            // messages cannot be counted, so the range is one error.
            let reason = "\(error)"
            result.summary.messages += 1
            result.settle(.error("\(path):\(range.lowerBound): error: \(reason)"))
            if options.recordMessages {
                result.records.append(MessageRecord(id: "\(path):\(range.lowerBound)", file: path,
                                                    offset: range.lowerBound, status: .error, reason: reason))
            }
            return result
        }
        if routesInPlace { reader.router = { [self] headers in route(headers, router: worker) } }
        while let item = reader.next() {
            process(prepare(item, router: worker), worker: worker, into: &result)
        }
        return result
    }

    private func process(_ item: WorkItem, worker: RuleEngine.Worker, into result: inout BatchResult) {
        result.summary.messages += 1
        result.summary.bytes += item.bytesRead
        handle(item, worker: worker, into: &result)
    }

    private func handle(_ item: WorkItem, worker: RuleEngine.Worker, into result: inout BatchResult) {
        switch item.kind {
        case .unprepared(let input):
            handle(workItem(for: input, router: worker), worker: worker, into: &result)
        case .settled(let settled):
            result.settle(settled)
            if let record = item.record { result.records.append(record) }
        case .message(let message):
            result.account(worker.parse(message), message: message, writer: writer, worker: worker, options: options)
        case .email(let email, let headers, let route):
            processEmail(email, headers: headers, route: route, worker: worker, into: &result)
        }
    }

    private func processEmail(_ email: RawEmail, headers: EmailHeaders, route: EmailRoute, worker: RuleEngine.Worker,
                              into result: inout BatchResult) {
        // HTML parts are converted only when the plain text is missing or does not parse.
        let decoded = MIMEDecoder.bodyPreferringPlain(of: email.bytes, headers: headers, maxDepth: options.maxMIMEDepth)
        var message = Message(id: route.messageID ?? "sha:" + StableHash.hex(email.bytes), text: decoded.body.text,
                              sender: route.from, subject: headers.subject, receivedAt: headers.date,
                              channel: .email, file: email.file, offset: email.offset, textIsComposed: true)
        if route.senderBanks.isEmpty && !route.fallback && !options.decodeAllSenders {
            // Decoded only to report likely transactions that no bank file covers.
            if worker.looksLikeTransaction(message.text) {
                let reason = "looks like a transaction; the sender is in no bank's senders"
                result.summary.unmatched += 1
                result.unmatched += TransactionWriter.unmatchedLine(message, reason: reason)
                if options.recordMessages {
                    result.records.append(MessageRecord(message, outcome: .unmatched(banks: [], routedBySender: false)))
                }
            } else {
                result.settle(.notFromBank)
                if options.recordMessages {
                    var record = MessageRecord(message, outcome: .unmatched(banks: [], routedBySender: false))
                    record.status = .ignored
                    record.reason = "not from a bank sender"
                    result.records.append(record)
                }
            }
            return
        }
        let read = EmailParsing.parse(email.bytes, headers: headers, decoded: decoded, message: &message,
                                      maxMIMEDepth: options.maxMIMEDepth) {
            worker.parse($0, senderBanks: route.senderBanks)
        }
        result.account(read.outcome, message: message, writer: writer, worker: worker, options: options,
                       mimeProblems: read.body.problems)
    }
}

/// What a worker thread is given: a batch of items the reading thread read and routed, or a
/// byte range of a large mbox to read itself.
enum BatchWork: Sendable {
    case items([WorkItem])
    case mboxRange(path: String, range: Range<Int>)
}

/// One unit of work: a message to parse, an email with its parsed headers, or an item
/// already settled on the reading thread.
struct WorkItem: Sendable {
    enum Kind: Sendable {
        case message(Message)
        /// An email routed by its headers (once, on the reading thread or in place by the reader).
        case email(RawEmail, EmailHeaders, EmailRoute)
        case settled(Settled)
        /// An SMS record or JSON line, made into a message on the worker thread.
        case unprepared(InputItem)
    }

    /// Outcomes decided without a worker.
    enum Settled: Sendable {
        case notFromBank
        case ignored
        /// Already in the ledger.
        case skipped
        case error(String)
    }

    var kind: Kind
    /// The ledger's record of a settled item (only when recording).
    var record: MessageRecord?
    /// Bytes the item keeps alive, for batch sizing.
    var size = 0
    /// Input bytes read up to this item since the previous batch, for throughput.
    var bytesRead = 0
}

/// What a worker made of a batch: rendered rows, problems, unmatched records, counts.
struct BatchResult: Sendable {
    /// The rendered rows as UTF-8: each row is written straight into this buffer, and it
    /// becomes one `String` per batch.
    var rows: [UInt8] = []
    var problems: [String] = []
    var unmatched = ""
    /// One record per message, when recording for a ledger.
    var records: [MessageRecord] = []
    var summary = BatchSummary()

    mutating func settle(_ settled: WorkItem.Settled) {
        switch settled {
        case .notFromBank:
            summary.ignored += 1
            summary.notFromBank += 1
        case .ignored:
            summary.ignored += 1
        case .skipped:
            summary.skipped += 1
        case .error(let problem):
            summary.errors += 1
            problems.append(problem)
        }
    }

    mutating func account(_ outcome: ParseOutcome, message: Message, writer: TransactionWriter,
                          worker: RuleEngine.Worker, options: BatchOptions, mimeProblems: [String] = []) {
        let reportUnmatched = options.reportUnmatched
        if options.recordMessages { records.append(MessageRecord(message, outcome: outcome)) }
        switch outcome {
        case .transaction(let transaction):
            summary.transactions += 1
            summary.transactionsByBank[transaction.bank, default: 0] += 1
            // Room for a batch of rows at once: growing by doubling copied the rows again and
            // again, and touched fresh pages each time.
            if options.renderRows {
                if rows.isEmpty { rows.reserveCapacity(BatchParser.batchItems * 640) }
                writer.appendRow(transaction, to: &rows)
            }
            // Read only by the fallback: a rule author's to-do, as much as an unmatched message.
            if options.reportUnmatched && transaction.confidenceParts.contains(.fallbackParser) {
                unmatched += TransactionWriter.unmatchedLine(
                    message, reason: "read only by the fallback parser \(transaction.rule) (status \(transaction.status.rawValue))")
            }
        case .ignored:
            summary.ignored += 1
        case .unmatched(let banks, let bySender, _):
            summary.unmatched += 1
            // A bank's message that no parser matched, or a likely transaction from an
            // unknown sender: both are what a rule author needs to see.
            if reportUnmatched && (bySender || worker.looksLikeTransaction(message.text)) {
                var reason = bySender || banks.isEmpty ? outcome.reason
                    : "looks like a transaction; no parser of the banks tried by text matched"
                if !mimeProblems.isEmpty { reason += " (MIME: \(mimeProblems.joined(separator: "; ")))" }
                unmatched += TransactionWriter.unmatchedLine(message, reason: reason)
            }
        case .failed, .matchLimit:
            summary.errors += 1
            let place = message.file.map { "\($0):\(message.offset ?? 0): " } ?? ""
            problems.append("\(place)error: message \(message.id): \(outcome.reason)")
        }
    }
}
