import Foundation
import GRDB
import SpendlexEngine
import Synchronization

/// The SQLite ledger: every message processed, every transaction with its duplicates
/// linked, accounts, import runs and categorization statistics.
///
/// Writes go in batches, one SQLite transaction each, messages and their transactions
/// together: a run killed at any point leaves the ledger as it was after the last whole
/// batch, and a re-run skips what is there and completes the rest. The database is in WAL
/// mode, so reports can read while a run writes.
public final class Ledger: Sendable {
    let pool: DatabasePool
    /// How duplicates are recognised.
    public let duplicates: DuplicatePolicy
    /// Account ids by bank, type and mask: two statements per transaction saved. Rows are
    /// never deleted, so an id once known stays right.
    private let accountIDs = Mutex<[String: Int64]>([:])

    /// How long a write waits for another process's write (a `parse --store` beside the
    /// service, two runs on one ledger) before it fails, by default.
    public static let defaultBusyTimeout: TimeInterval = 60

    /// Opens (creating if needed) the ledger at `path` and brings its schema up to date.
    /// A new ledger is readable by its owner only (SQLite gives its WAL the same mode); a
    /// write waits up to `busyTimeout` seconds while another connection writes.
    public init(path: String, duplicates: DuplicatePolicy = DuplicatePolicy(),
                busyTimeout: TimeInterval = Ledger.defaultBusyTimeout) throws {
        try Self.createPrivately(path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Writers in other processes are waited for, not failed: GRDB opens every write with
        // BEGIN IMMEDIATE, so the wait happens at the start and a snapshot never goes stale.
        configuration.busyMode = .timeout(busyTimeout)
        // WAL with synchronous=NORMAL: a crash or kill -9 still leaves a consistent database
        // (the last batches may need writing again, which a re-run does); FULL made every
        // batch wait for an fsync, 20 times slower on the reference corpus.
        // A 64 MiB page cache: with SQLite's 2 MiB default, the indexes of a ledger of a few
        // hundred thousand transactions were read back from the file for every insert.
        configuration.prepareDatabase { db in
            // journal_size_limit: after a checkpoint resets the WAL, it is cut back to 64 MiB
            // (SQLite otherwise keeps the file at its largest size for ever).
            try db.execute(sql: """
                PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 16384;
                PRAGMA journal_size_limit = 67108864
                """)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        self.duplicates = duplicates
        try LedgerSchema.migrator.migrate(pool)
    }

    /// Creates an empty file at `path` with mode 0600 unless something is there already
    /// (SQLite would create it with 0644 less the umask).
    private static func createPrivately(_ path: String) throws {
        guard path != ":memory:", !path.isEmpty else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw LedgerFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    // MARK: - Runs

    /// Starts an import run over these inputs; returns its id. Runs left open by a process
    /// that no longer exists (killed, crashed) are closed first as interrupted.
    public func beginRun(inputs: [String]) throws -> Int64 {
        try pool.write { db in
            let open = try Row.fetchAll(db, sql: "SELECT id, pid FROM import_runs WHERE finished_at IS NULL AND pid IS NOT NULL")
            for row in open {
                let pid: Int32 = row["pid"]
                guard pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                try db.execute(sql: "UPDATE import_runs SET finished_at = ?, failure = ? WHERE id = ?", arguments: [
                    Self.now(), "interrupted: its process (\(pid)) ended before the run finished", row["id"] as Int64,
                ])
            }
            try db.execute(sql: "INSERT INTO import_runs (inputs, inputs_hash, started_at, pid) VALUES (?, ?, ?, ?)",
                           arguments: [CardNumberMasker.mask(inputs.joined(separator: "\n")), Self.inputsHash(inputs),
                                       Self.now(), getpid()])
            return db.lastInsertedRowID
        }
    }

    /// Closes a run with its counts; `failure` says why it stopped short, nil when it finished cleanly.
    public func finishRun(_ run: Int64, counts: RunCounts, failure: String? = nil) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE import_runs SET finished_at = ?, messages = ?, transactions = ?, ignored = ?, unmatched = ?,
                    errors = ?, skipped = ?, duplicates = ?, failure = ? WHERE id = ?
                """, arguments: [Self.now(), counts.messages, counts.transactions, counts.ignored, counts.unmatched,
                                 counts.errors, counts.skipped, counts.duplicates,
                                 failure.map(CardNumberMasker.mask), run])
        }
    }

    /// Copies the WAL into the database and truncates it to nothing, waiting (up to the busy
    /// timeout) for readers of older snapshots to finish. SQLite's automatic checkpoints never
    /// shrink the file and cannot finish while readers always hold a snapshot, as under a
    /// service's steady load: the WAL grew past 160 MB in 100,000 requests.
    public func checkpoint() throws {
        try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// The WAL file's size in bytes (0 when there is none).
    public var walSize: Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: pool.path + "-wal")
        return (attributes?[.size] as? Int) ?? 0
    }

    /// The ids of every message already in the ledger: what an incremental run skips.
    public func processedMessageIDs() throws -> Set<String> {
        try pool.read { db in try String.fetchSet(db, sql: "SELECT id FROM messages") }
    }

    // MARK: - Writing

    /// Writes a batch of message records in one SQLite transaction: the messages, their
    /// transactions (linked to earlier duplicates), and their accounts. With `reprocess`,
    /// records of messages already in the ledger are updated in place; a category the user
    /// set by hand is kept.
    @discardableResult
    public func write(_ records: [MessageRecord], run: Int64?, reprocess: Bool = false) throws -> RunCounts {
        try pool.write { db in
            var counts = RunCounts()
            let now = Self.now()
            for record in records {
                let arguments: StatementArguments = [
                    record.id, record.file, record.offset, record.channel.rawValue, record.sender,
                    record.receivedAt.map(Self.timestamp), record.status.rawValue, record.rule,
                    record.reason.map(CardNumberMasker.mask), run, now,
                ]
                if !reprocess {
                    // Layer 1 of duplicates: a message already in the ledger (read twice in one run,
                    // as when a mailbox holds a message twice) adds nothing.
                    try db.cachedStatement(sql: """
                        INSERT INTO messages (id, file, byte_offset, channel, sender, received_at, status, rule, reason,
                                              run_id, processed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                        """).execute(arguments: arguments)
                    guard db.changesCount > 0 else { continue }
                    counts.count(record.status)
                    if let transaction = record.transaction, try insert(transaction, db: db, now: now) {
                        counts.duplicates += 1
                    }
                    continue
                }
                counts.count(record.status)
                try db.cachedStatement(sql: """
                    INSERT INTO messages (id, file, byte_offset, channel, sender, received_at, status, rule, reason,
                                          run_id, processed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET status = excluded.status, rule = excluded.rule,
                        reason = excluded.reason, run_id = excluded.run_id, processed_at = excluded.processed_at
                    """).execute(arguments: arguments)
                let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM transactions WHERE message_id = ?"),
                                                  arguments: [record.id])
                if let transaction = record.transaction {
                    if let existing {
                        try update(existing, with: transaction, db: db, now: now)
                    } else if try insert(transaction, db: db, now: now) {
                        counts.duplicates += 1
                    }
                } else if let existing {
                    try remove(existing, db: db)
                }
            }
            return counts
        }
    }

    /// Inserts a transaction, linked to the one it duplicates if any; true when it is a duplicate.
    private func insert(_ t: Transaction, db: Database, now: String) throws -> Bool {
        let accountID = try account(for: t, db: db)
        let found = try findDuplicate(of: t, db: db)
        let fields = DuplicatePolicy.fieldCount(t)
        try db.cachedStatement(sql: """
            INSERT INTO transactions (message_id, idempotency_key, content_key, source_kind, sender, received_at, file,
                byte_offset, rule, bank, direction, kind, amount, amount_value, currency, date, time, merchant, account_id,
                account_type, account_last4, balance, reference, channel, category, subcategory, category_source,
                confidence, status, field_count, duplicate_of, duplicate_reason, created_at, updated_at, merchant_raw)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: StatementArguments([
                t.messageID, t.idempotencyKey, DuplicatePolicy.contentKey(t), t.messageChannel.rawValue, t.sender,
                t.receivedAt.map(Self.timestamp), t.file, t.offset, t.rule, t.bank, t.direction?.rawValue,
                t.kind?.rawValue, t.amountText, DuplicatePolicy.canonicalAmount(t), t.currency, t.date?.description,
                t.time?.description, t.merchant, accountID, t.account?.type, t.account?.last4, t.balance, t.reference, t.channel,
                t.category, t.subcategory, t.category == nil ? nil : "rules", t.confidence, t.status.rawValue,
                fields, found?.primary, found?.reason, now, now, t.merchantRaw,
            ] as [(any DatabaseValueConvertible)?]))
        let id = db.lastInsertedRowID
        if let row = t.categoryRow { try countMappingHit(row, now: now, db: db) }
        guard let found else { return false }
        // The record with the most fields is the primary; the others point at it.
        if fields > found.primaryFieldCount {
            try db.cachedStatement(sql: "UPDATE transactions SET duplicate_of = ?, duplicate_reason = ? WHERE id = ?").execute(
                           arguments: [id, found.reason, found.primary])
            try db.cachedStatement(sql: "UPDATE transactions SET duplicate_of = ? WHERE duplicate_of = ?").execute(
                           arguments: [id, found.primary])
            try db.cachedStatement(sql: "UPDATE transactions SET duplicate_of = NULL, duplicate_reason = NULL WHERE id = ?").execute(
                           arguments: [id])
        }
        return true
    }

    /// Re-parsed: the fields change, a category set by hand stays.
    private func update(_ id: Int64, with t: Transaction, db: Database, now: String) throws {
        let accountID = try account(for: t, db: db)
        try db.cachedStatement(sql: """
            UPDATE transactions SET idempotency_key = ?, content_key = ?, rule = ?, bank = ?, direction = ?, kind = ?,
                amount = ?, amount_value = ?, currency = ?, date = ?, time = ?, merchant = ?, account_id = ?, account_type = ?,
                account_last4 = ?, balance = ?, reference = ?, channel = ?,
                category = CASE WHEN category_source = 'user' THEN category ELSE ? END,
                subcategory = CASE WHEN category_source = 'user' THEN subcategory ELSE ? END,
                category_source = CASE WHEN category_source = 'user' THEN 'user' WHEN ? IS NULL THEN NULL ELSE 'rules' END,
                confidence = ?, status = ?, field_count = ?, updated_at = ?, merchant_raw = ?
            WHERE id = ?
            """).execute(arguments: StatementArguments([
                t.idempotencyKey, DuplicatePolicy.contentKey(t), t.rule, t.bank, t.direction?.rawValue, t.kind?.rawValue,
                t.amountText, DuplicatePolicy.canonicalAmount(t), t.currency, t.date?.description, t.time?.description, t.merchant,
                accountID,
                t.account?.type, t.account?.last4, t.balance, t.reference, t.channel, t.category, t.subcategory,
                t.category, t.confidence, t.status.rawValue, DuplicatePolicy.fieldCount(t), now, t.merchantRaw, id,
            ] as [(any DatabaseValueConvertible)?]))
    }

    /// A message that no longer parses: its transaction goes; a duplicate of it takes its place.
    func remove(_ id: Int64, db: Database) throws {
        let successor = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM transactions WHERE duplicate_of = ? ORDER BY field_count DESC, id LIMIT 1
            """), arguments: [id])
        if let successor {
            try db.cachedStatement(sql: "UPDATE transactions SET duplicate_of = ? WHERE duplicate_of = ? AND id != ?").execute(
                           arguments: [successor, id, successor])
            try db.cachedStatement(sql: "UPDATE transactions SET duplicate_of = NULL, duplicate_reason = NULL WHERE id = ?").execute(
                           arguments: [successor])
        }
        try db.cachedStatement(sql: "DELETE FROM transactions WHERE id = ?").execute(arguments: [id])
    }

    /// One more hit for a categorization row in `mapping_stats`.
    func countMappingHit(_ row: String, now: String, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO mapping_stats (row_id, hits, last_hit_at) VALUES (?, 1, ?)
            ON CONFLICT (row_id) DO UPDATE SET hits = hits + 1, last_hit_at = excluded.last_hit_at
            """).execute(arguments: [row, now])
    }

    /// The account row of a transaction's card or account, created on first sight.
    private func account(for t: Transaction, db: Database) throws -> Int64? {
        guard let account = t.account else { return nil }
        let key = "\(t.bank)\u{1F}\(account.type)\u{1F}\(account.last4)"
        if let known = accountIDs.withLock({ $0[key] }) { return known }
        try db.cachedStatement(sql: """
            INSERT INTO accounts (bank, type, mask, currency) VALUES (?, ?, ?, ?)
            ON CONFLICT (bank, type, mask) DO UPDATE SET currency = COALESCE(accounts.currency, excluded.currency)
            """).execute(arguments: [t.bank, account.type, account.last4, t.currency])
        let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM accounts WHERE bank = ? AND type = ? AND mask = ?"),
                                    arguments: [t.bank, account.type, account.last4])
        if let id { accountIDs.withLock { $0[key] = id } }
        return id
    }

    // MARK: - Duplicates

    struct DuplicateMatch {
        let primary: Int64
        let primaryFieldCount: Int
        let reason: String
    }

    /// The primary transaction this one duplicates, by the layers of `DuplicatePolicy`.
    private func findDuplicate(of t: Transaction, db: Database) throws -> DuplicateMatch? {
        func primary(of row: Row, reason: String) throws -> DuplicateMatch {
            let id: Int64 = row["duplicate_of"] ?? row["id"]
            let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT field_count FROM transactions WHERE id = ?"), arguments: [id]) ?? 0
            return DuplicateMatch(primary: id, primaryFieldCount: count, reason: reason)
        }
        // Layer 2: the same bank reference.
        if let reference = t.reference, !reference.isEmpty,
           let row = try Row.fetchOne(db.cachedStatement(sql: """
               SELECT id, duplicate_of FROM transactions WHERE bank = ? AND reference = ? ORDER BY id LIMIT 1
               """), arguments: [t.bank, reference]) {
            return try primary(of: row, reason: "same \(t.bank) reference \(reference)")
        }
        // Layer 2: the same content; without a time in the text, arrivals close together too.
        let key = DuplicatePolicy.contentKey(t)
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, duplicate_of, received_at, reference FROM transactions WHERE content_key = ? ORDER BY id
            """), arguments: [key]) {
            let otherReference: String? = row["reference"]
            if let mine = t.reference, let theirs = otherReference, mine != theirs { continue }
            if t.time == nil {
                guard let a = t.receivedAt, let b = (row["received_at"] as String?).flatMap(Self.date(from:)),
                      abs(a.timeIntervalSince(b)) <= duplicates.alertWindow else { continue }
            }
            return try primary(of: row, reason: "same bank, account, direction, amount, currency, date, time and merchant")
        }
        // Layer 3: the same money over another channel, close in time.
        guard let amount = DuplicatePolicy.canonicalAmount(t), let currency = t.currency, let direction = t.direction else {
            return nil
        }
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, duplicate_of, source_kind, bank, account_last4, merchant, received_at, date, time, reference
            FROM transactions WHERE amount_value = ? AND currency = ? AND direction = ? AND source_kind != ? ORDER BY id
            """), arguments: ["\(amount)", currency, direction.rawValue, t.messageChannel.rawValue]) {
            let last4: String? = row["account_last4"]
            if let mine = t.account?.last4, let theirs = last4 {
                guard mine == theirs else { continue }
            } else if (row["bank"] as String?) != t.bank {
                continue
            }
            let otherReference: String? = row["reference"]
            if let mine = t.reference, let theirs = otherReference, mine != theirs { continue }
            guard DuplicatePolicy.merchantsCompatible(t.merchant, row["merchant"]),
                  let apart = Self.secondsApart(t, row), apart <= duplicates.alertWindow else { continue }
            let minutes = Int((apart / 60).rounded())
            let source: String = row["source_kind"]
            return try primary(of: row, reason: "same account \(t.account?.last4 ?? "-"), \(direction.rawValue) "
                               + "\(amount) \(currency), \(minutes) min apart, by \(source) and \(t.messageChannel.rawValue)")
        }
        return nil
    }

    /// How far apart two transactions happened: by arrival times when both have one, else by
    /// their written dates and times. nil when they cannot be compared.
    private static func secondsApart(_ t: Transaction, _ row: Row) -> TimeInterval? {
        if let a = t.receivedAt, let b = (row["received_at"] as String?).flatMap(date(from:)) {
            return abs(a.timeIntervalSince(b))
        }
        guard let date = t.date?.description, let time = t.time?.description,
              let otherDate: String = row["date"], let otherTime: String = row["time"] else { return nil }
        guard let a = self.date(from: "\(date)T\(time)Z"), let b = self.date(from: "\(otherDate)T\(otherTime)Z") else {
            return nil
        }
        return abs(a.timeIntervalSince(b))
    }

    // MARK: - Time

    static func now() -> String { timestamp(Date()) }

    static func timestamp(_ date: Date) -> String {
        TransactionWriter.timestamp(date)
    }

    static func date(from text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    /// A hash of the inputs' paths, sizes and modification times, to tell runs over the same files.
    static func inputsHash(_ inputs: [String]) -> String {
        var parts: [String] = []
        for path in inputs {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date).map(timestamp) ?? ""
            parts.append("\(path)\u{1F}\(size)\u{1F}\(modified)")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1E}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// Counts of one run or one batch.
public struct RunCounts: Sendable, Equatable {
    public var messages = 0
    public var transactions = 0
    public var ignored = 0
    public var unmatched = 0
    public var errors = 0
    /// Messages already in the ledger, skipped unread.
    public var skipped = 0
    /// Transactions linked to an earlier one as duplicates.
    public var duplicates = 0

    /// No counts yet.
    public init() {}

    mutating func count(_ status: MessageRecord.Status) {
        messages += 1
        switch status {
        case .transaction: transactions += 1
        case .ignored: ignored += 1
        case .unmatched: unmatched += 1
        case .error: errors += 1
        }
    }

    /// Adds another batch's counts.
    public mutating func add(_ other: RunCounts) {
        messages += other.messages
        transactions += other.transactions
        ignored += other.ignored
        unmatched += other.unmatched
        errors += other.errors
        skipped += other.skipped
        duplicates += other.duplicates
    }
}

/// The ledger's file could not be created.
public struct LedgerFileError: Error, CustomStringConvertible {
    /// The ledger's path.
    public let path: String
    /// Why, as the system says it.
    public let reason: String

    public var description: String { "cannot create \(path): \(reason)" }
}
