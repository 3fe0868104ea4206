import Foundation
import GRDB
import SpendlexEngine
import SpendlexRules
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
    /// With each, the card kind the row holds (nil: none known yet).
    private let accountIDs = Mutex<[AccountKey: (id: Int64, cardKind: CardKind?)]>([:])
    /// Which duplicate keys the ledger may hold; used and kept up to date inside write
    /// transactions only.
    private let duplicateIndex = Mutex(DuplicateIndex())
    /// The meaning vectors as the last search scanned them, kept while the set is the same
    /// (`Ledger.meaningRanking`): a service's searches read them once, not 39 MB per query at
    /// 100,000 distinct documents.
    let meaningMatrix = Mutex<MeaningMatrixCache?>(nil)

    /// How long a write waits for another process's write (a `parse --store` beside the
    /// service, two runs on one ledger) before it fails, by default.
    public static let defaultBusyTimeout: TimeInterval = 60

    /// Opens (creating if needed) the ledger at `path` and brings its schema up to date.
    /// A new ledger is readable by its owner only (SQLite gives its WAL the same mode); a
    /// write waits up to `busyTimeout` seconds while another connection writes.
    public init(path: String, duplicates: DuplicatePolicy = DuplicatePolicy(),
                busyTimeout: TimeInterval = Ledger.defaultBusyTimeout) throws {
        if try Self.createPrivately(path) { try Self.setPageSize(path) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Writers in other processes are waited for, not failed: GRDB opens every write with
        // BEGIN IMMEDIATE, so the wait happens at the start and a snapshot never goes stale.
        configuration.busyMode = .timeout(busyTimeout)
        // WAL with synchronous=NORMAL: a crash or kill -9 still leaves a consistent database
        // (the last batches may need writing again, which a re-run does); FULL made every
        // batch wait for an fsync, 20 times slower on the reference corpus.
        // A 32 MiB page cache for the writer: with SQLite's 2 MiB default, the indexes of a ledger of a few
        // hundred thousand transactions were read back from the file for every insert. 64 MiB
        // stored a million SMS no faster (19.8 s either way) and peaked 36 MiB higher; 16 MiB
        // was 5% slower there.
        configuration.prepareDatabase { db in
            // A checkpoint once the WAL holds 64 MiB of pages (16,384 of 4 KiB, 4,096 of a new
            // ledger's 16 KiB), and journal_size_limit: after a checkpoint resets the WAL, it is cut
            // back to 64 MiB (SQLite otherwise keeps the file at its largest size for ever).
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            // Readers scan (learning, exports, searches) more than they look up: 8 MiB each. With
            // 32 MiB, learning after storing the reference corpus filled a reader's cache with
            // 28 MiB of pages read once while the writer's held its own: the run's peak, 141 MiB
            // (121 with 8).
            let cacheKiB = db.configuration.readonly ? 8192 : 32768
            try db.execute(sql: """
                PRAGMA synchronous = NORMAL; PRAGMA cache_size = -\(cacheKiB);
                PRAGMA wal_autocheckpoint = \((64 << 20) / max(pageSize, 512));
                PRAGMA journal_size_limit = 67108864
                """)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        self.duplicates = duplicates
        try LedgerSchema.migrator.migrate(pool)
    }

    /// Creates an empty file at `path` with mode 0600 unless something is there already
    /// (SQLite would create it with 0644 less the umask).
    /// Returns whether it created it.
    @discardableResult
    static func createPrivately(_ path: String) throws -> Bool {
        guard path != ":memory:", !path.isEmpty else { return false }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return true
        } else if errno != EEXIST {
            throw LedgerFileError(path: path, reason: String(cString: strerror(errno)))
        }
        return false
    }

    /// The page size of a new ledger, in bytes.
    ///
    /// SQLite's default is 4 KiB. Storing the reference corpus's 100,000 messages and 69,887
    /// transactions row by row from C (`Benchmarks/scripts/sqlite_insert_floor.c`, closing included)
    /// took 1.22–1.26 s with it and 1.03–1.10 s with 16 KiB pages, the page cache the same 32 MiB: a
    /// message's text and a transaction's row fill fewer pages, the indexes are a level shallower,
    /// and a commit writes fewer frames; `parse --store` took 0.92 of its time. 32 KiB gained little
    /// more. A page is read whole, which a ledger on a local disk does not feel.
    static let pageSize = 16_384

    /// Gives a new, empty ledger file its page size, which SQLite fixes once the file holds a
    /// table, and which cannot change once the file is in WAL mode: so before GRDB opens it.
    private static func setPageSize(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = WAL")
        }
        try queue.close()
    }

    // MARK: - Runs

    /// Starts an import run over these inputs; returns its id. Runs left open by a process
    /// that no longer exists (killed, crashed) are closed first as interrupted.
    /// `rulesHash` names the rules it parses with (`messagesParsedWithOtherRules`), `rulesFiles`
    /// are the files they were read from (`messagesParsedWithChangedRules`).
    public func beginRun(inputs: [String], rulesHash: String? = nil, rulesFiles: [String] = []) throws -> Int64 {
        try pool.write { db in
            let open = try Row.fetchAll(db, sql: "SELECT id, pid FROM import_runs WHERE finished_at IS NULL AND pid IS NOT NULL")
            for row in open {
                let pid: Int32 = row["pid"]
                guard pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                try db.execute(sql: "UPDATE import_runs SET finished_at = ?, failure = ? WHERE id = ?", arguments: [
                    Self.now(), "interrupted: its process (\(pid)) ended before the run finished", row["id"] as Int64,
                ])
            }
            try db.execute(sql: """
                INSERT INTO import_runs (inputs, inputs_hash, started_at, pid, rules_hash, rules_files) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [CardNumberMasker.mask(inputs.joined(separator: "\n")), Self.inputsHash(inputs),
                                 Self.now(), getpid(), rulesHash,
                                 rulesFiles.isEmpty ? nil : rulesFiles.map(Self.absolutePath).joined(separator: "\n")])
            return db.lastInsertedRowID
        }
    }

    /// How many stored messages were last parsed by a run with rules other than those `rulesHash`
    /// names (runs from before rules were recorded are not counted).
    public func messagesParsedWithOtherRules(than rulesHash: String) throws -> Int {
        try pool.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM messages
                WHERE run_id IN (SELECT id FROM import_runs WHERE rules_hash IS NOT NULL AND rules_hash != ?)
                """, arguments: [rulesHash]) ?? 0
        }
    }

    /// The hash `parse` records for rules read from files with these contents
    /// (`RuleSet.sources`' texts): the same rules read from another folder hash the same.
    public static func rulesHash(texts: [String]) -> String {
        StableHash.hex(parts: texts.sorted())
    }

    /// How many stored messages were last parsed by a run whose rule files have changed since (or
    /// are gone): their files, read again, no longer hash as the run recorded. For the commands
    /// that read the ledger without parsing, which have no rules of their own to compare. Runs
    /// from before the files were recorded are not counted; a file added beside them is not seen.
    public func messagesParsedWithChangedRules() throws -> Int {
        try pool.read { db in
            // The runs first (a few rows), each set of files read once; messages are counted only
            // when some run's files changed.
            var stillHash: [String: Bool] = [:]
            var changedRuns: [Int64] = []
            for row in try Row.fetchAll(db, sql: """
                SELECT id, rules_hash, rules_files FROM import_runs WHERE rules_hash IS NOT NULL AND rules_files IS NOT NULL
                """) {
                let recorded: String = row["rules_hash"]
                let listed: String = row["rules_files"]
                let key = recorded + "\u{1F}" + listed
                let same = stillHash[key] ?? {
                    let files = listed.split(separator: "\n").map(String.init)
                    let texts = files.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
                    return texts.count == files.count && Self.rulesHash(texts: texts) == recorded
                }()
                stillHash[key] = same
                if !same { changedRuns.append(row["id"]) }
            }
            guard !changedRuns.isEmpty else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE run_id IN (\(changedRuns.map(String.init).joined(separator: ",")))") ?? 0
        }
    }

    private static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
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
    /// set by hand is kept. With `indexing`, the messages not yet in the search index enter it in
    /// the same transaction; a batch run's writer leaves them to the next search
    /// (`updateSearchIndex()`), which indexes them all at once.
    @discardableResult
    public func write(_ records: [MessageRecord], run: Int64?, reprocess: Bool = false, indexing: Bool = true) throws -> RunCounts {
        try write(records, run: run, reprocess: reprocess, indexing: indexing, also: nil)
    }

    /// Writes a batch as `write(_:run:)` does, and `also` in the same SQLite transaction (a
    /// mailbox's fetch checkpoint: the messages and how far the fetch got commit together).
    func write(_ records: [MessageRecord], run: Int64?, reprocess: Bool, indexing: Bool,
               also: ((Database) throws -> Void)?) throws -> RunCounts {
        do {
            return try pool.writeWithoutTransaction { db in
                // The rows written here refer to rows that exist by construction (a message
                // before its transaction, an account's id from its upsert, a duplicate's primary
                // from the ledger, the run begun before): SQLite's check of each reference was
                // 7% of storing a batch. Off for this transaction only (a pragma that SQLite
                // ignores inside one); the tests check the ledger's references after writes.
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                var counts = RunCounts()
                try db.inTransaction(.immediate) {
                    counts = try duplicateIndex.withLock { index in
                        try index.catchUp(db)
                        return try write(records, run: run, reprocess: reprocess, index: &index, db: db)
                    }
                    try also?(db)
                    if indexing { try SearchIndex.catchUp(db) }
                    return .commit
                }
                return counts
            }
        } catch {
            // Rolled back: the index may hold rows that were never written; built afresh next time.
            duplicateIndex.withLock { $0 = DuplicateIndex() }
            throw error
        }
    }

    private func write(_ records: [MessageRecord], run: Int64?, reprocess: Bool, index: inout DuplicateIndex,
                       db: Database) throws -> RunCounts {
        var counts = RunCounts()
        let now = Self.now()
        // Categorization rows' hits, counted here and written once per batch.
        var hits: [String: Int] = [:]
        let statements = try IntakeStatements(db)
        for record in records {
            if !reprocess {
                // Layer 1 of duplicates: a message already in the ledger (read twice in one run,
                // as when a mailbox holds a message twice) adds nothing.
                let message = statements.message
                message.bind(1, record.id)
                message.bind(2, record.file)
                message.bind(3, record.offset)
                message.bind(4, record.channel.rawValue)
                message.bind(5, record.sender)
                message.bind(6, record.receivedAt.map(Self.timestamp))
                message.bind(7, record.status.rawValue)
                message.bind(8, record.rule)
                message.bind(9, record.reason.map(CardNumberMasker.mask))
                message.bind(10, run)
                message.bind(11, now)
                // Masked by MessageRecord (masking again would find nothing more).
                message.bind(12, record.subject)
                message.bind(13, record.text)
                try message.execute()
                guard db.changesCount > 0 else { continue }
                counts.count(record.status)
                if let transaction = record.transaction,
                   try insert(transaction, statements: statements, index: &index, hits: &hits, db: db, now: now) {
                    counts.duplicates += 1
                }
                continue
            }
            counts.count(record.status)
            let arguments: StatementArguments = [
                record.id, record.file, record.offset, record.channel.rawValue, record.sender,
                record.receivedAt.map(Self.timestamp), record.status.rawValue, record.rule,
                record.reason.map(CardNumberMasker.mask), run, now, record.subject, record.text,
            ]
            try db.cachedStatement(sql: """
                INSERT INTO messages (id, file, byte_offset, channel, sender, received_at, status, rule, reason,
                                      run_id, processed_at, subject, text)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET status = excluded.status, rule = excluded.rule,
                    reason = excluded.reason, run_id = excluded.run_id, processed_at = excluded.processed_at,
                    subject = COALESCE(excluded.subject, subject), text = COALESCE(excluded.text, text)
                """).execute(arguments: arguments)
            let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM transactions WHERE message_id = ?"),
                                              arguments: [record.id])
            if let transaction = record.transaction {
                if let existing {
                    try update(existing, with: transaction, statements: statements, index: &index, db: db, now: now)
                } else {
                    // A message the search index holds (read before, unmatched then) gains a transaction.
                    let indexed = try SearchIndex.isIndexed(messageID: record.id, db)
                    if indexed.words { try SearchIndex.takeOut(messageID: record.id, db) }
                    // A message with a vector (`MeaningIndex`) changes meaning.
                    if indexed.meaning { try MeaningIndex.markChanged(messageID: record.id, db) }
                    if try insert(transaction, statements: statements, index: &index, hits: &hits, db: db, now: now) {
                        counts.duplicates += 1
                    }
                    if indexed.words { try SearchIndex.restore(messageID: record.id, db) }
                }
            } else if let existing {
                try remove(existing, db: db)
            }
        }
        for (row, count) in hits.sorted(by: { $0.key < $1.key }) {
            try countMappingHits(row, count, now: now, db: db)
        }
        return counts
    }

    /// Inserts a transaction, linked to the one it duplicates if any; true when it is a duplicate.
    /// Its categorization row's hit is counted in `hits`.
    private func insert(_ t: Transaction, statements: IntakeStatements, index: inout DuplicateIndex,
                        hits: inout [String: Int], db: Database, now: String) throws -> Bool {
        let accountID = try account(for: t, statements: statements, db: db)
        let amount = DuplicatePolicy.canonicalAmount(t)
        let contentKey = DuplicatePolicy.contentKey(t, amount: amount)
        let found = try findDuplicate(of: t, amount: amount, contentKey: contentKey, index: index, db: db)
        let fields = DuplicatePolicy.fieldCount(t)
        let insert = statements.transaction
        let values: [String?] = [
            t.messageID, t.idempotencyKey, contentKey, t.messageChannel.rawValue, t.sender,
            t.receivedAt.map(Self.timestamp), t.file,
        ]
        for (offset, value) in values.enumerated() { insert.bind(Int32(offset + 1), value) }
        insert.bind(8, t.offset)
        let more: [String?] = [
            t.rule, t.bank, t.direction?.rawValue, t.kind?.rawValue, t.amountText, amount, t.currency,
            t.date?.description, t.time?.description, t.merchant,
        ]
        for (offset, value) in more.enumerated() { insert.bind(Int32(offset + 9), value) }
        insert.bind(19, accountID)
        let rest: [String?] = [
            t.account?.type, t.account?.last4, t.balance, t.reference, t.channel, t.category, t.subcategory,
            t.category == nil ? nil : "rules",
        ]
        for (offset, value) in rest.enumerated() { insert.bind(Int32(offset + 20), value) }
        insert.bind(28, t.confidence)
        insert.bind(29, t.status.rawValue)
        insert.bind(30, fields)
        insert.bind(31, found?.primary)
        insert.bind(32, found?.reason)
        insert.bind(33, now)
        insert.bind(34, now)
        insert.bind(35, t.merchantRaw)
        try insert.execute()
        let id = db.lastInsertedRowID
        index.add(id: id, bank: t.bank, reference: t.reference, contentKey: contentKey, amount: amount,
                  currency: t.currency, direction: t.direction?.rawValue, channel: t.messageChannel.rawValue)
        if let row = t.categoryRow { hits[row, default: 0] += 1 }
        guard let found else { return false }
        // The record with the most fields is the primary; the others point at it. A statement
        // row is the bank's record: it is the primary of the alerts about it, whatever they hold.
        let takesOver = t.messageChannel == .statement
            ? !found.primaryIsStatement : !found.primaryIsStatement && fields > found.primaryFieldCount
        if takesOver {
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
    private func update(_ id: Int64, with t: Transaction, statements: IntakeStatements, index: inout DuplicateIndex,
                        db: Database, now: String) throws {
        let accountID = try account(for: t, statements: statements, db: db)
        let amount = DuplicatePolicy.canonicalAmount(t)
        let contentKey = DuplicatePolicy.contentKey(t, amount: amount)
        try db.cachedStatement(sql: """
            UPDATE transactions SET idempotency_key = ?, content_key = ?, rule = ?, bank = ?, direction = ?, kind = ?,
                amount = ?, amount_value = ?, currency = ?, date = ?, time = ?,
                merchant = CASE WHEN merchant_source = 'user' THEN merchant ELSE ? END, account_id = ?, account_type = ?,
                account_last4 = ?, balance = ?, reference = ?, channel = ?,
                category = CASE WHEN category_source = 'user' THEN category ELSE ? END,
                subcategory = CASE WHEN category_source = 'user' THEN subcategory ELSE ? END,
                category_source = CASE WHEN category_source = 'user' THEN 'user' WHEN ? IS NULL THEN NULL ELSE 'rules' END,
                confidence = ?, status = ?, field_count = ?, updated_at = ?, merchant_raw = ?
            WHERE id = ?
            """).execute(arguments: StatementArguments([
                t.idempotencyKey, contentKey, t.rule, t.bank, t.direction?.rawValue, t.kind?.rawValue,
                t.amountText, amount, t.currency, t.date?.description, t.time?.description, t.merchant,
                accountID,
                t.account?.type, t.account?.last4, t.balance, t.reference, t.channel, t.category, t.subcategory,
                t.category, t.confidence, t.status.rawValue, DuplicatePolicy.fieldCount(t), now, t.merchantRaw, id,
            ] as [(any DatabaseValueConvertible)?]))
        index.add(id: id, bank: t.bank, reference: t.reference, contentKey: contentKey, amount: amount,
                  currency: t.currency, direction: t.direction?.rawValue, channel: t.messageChannel.rawValue)
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
        try countMappingHits(row, 1, now: now, db: db)
    }

    /// `count` more hits for a categorization row in `mapping_stats`.
    func countMappingHits(_ row: String, _ count: Int, now: String, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO mapping_stats (row_id, hits, last_hit_at) VALUES (?, ?, ?)
            ON CONFLICT (row_id) DO UPDATE SET hits = hits + excluded.hits, last_hit_at = excluded.last_hit_at
            """).execute(arguments: [row, count, now])
    }

    /// The account row of a transaction's card or account, created on first sight.
    private func account(for t: Transaction, statements: IntakeStatements, db: Database) throws -> Int64? {
        guard let account = t.account else { return nil }
        let key = AccountKey(bank: t.bank, type: account.type, mask: account.last4)
        // A known row, unless this alert tells a card kind the row does not hold yet (or another:
        // the latest alert's word wins).
        if let known = accountIDs.withLock({ $0[key] }), account.cardKind == nil || account.cardKind == known.cardKind {
            return known.id
        }
        // A new account: a plain insert, whose row id SQLite keeps. Only a row already there (from an
        // earlier run, or told a card kind now) takes the upsert, whose RETURNING makes SQLite
        // gather the row apart: the reference corpus's 54,154 accounts were 12% of the writer's time.
        func bindRow(_ statement: BoundStatement) {
            statement.bind(1, t.bank)
            statement.bind(2, account.type)
            statement.bind(3, account.last4)
            statement.bind(4, t.currency)
            statement.bind(5, account.cardKind?.rawValue)
        }
        bindRow(statements.newAccount)
        try statements.newAccount.execute()
        if db.changesCount > 0 {
            let id = db.lastInsertedRowID
            accountIDs.withLock { $0[key] = (id, account.cardKind) }
            return id
        }
        bindRow(statements.account)
        guard let (id, kind) = try statements.account.executeReturningRow({ ($0.integer(0), $0.text(1)) }), let id else {
            return nil
        }
        accountIDs.withLock { $0[key] = (id, kind.flatMap(CardKind.init(rawValue:))) }
        return id
    }

    /// What tells an account row: its bank, type and mask.
    struct AccountKey: Hashable {
        let bank: String
        let type: String
        let mask: String
    }

    /// The hot path's statements, prepared once per write.
    struct IntakeStatements {
        let message: BoundStatement
        let transaction: BoundStatement
        let newAccount: BoundStatement
        let account: BoundStatement

        init(_ db: Database) throws {
            message = try BoundStatement(db, sql: """
                INSERT INTO messages (id, file, byte_offset, channel, sender, received_at, status, rule, reason,
                                      run_id, processed_at, subject, text)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                """)
            transaction = try BoundStatement(db, sql: """
                INSERT INTO transactions (message_id, idempotency_key, content_key, source_kind, sender, received_at,
                    file, byte_offset, rule, bank, direction, kind, amount, amount_value, currency, date, time, merchant,
                    account_id, account_type, account_last4, balance, reference, channel, category, subcategory,
                    category_source, confidence, status, field_count, duplicate_of, duplicate_reason, created_at,
                    updated_at, merchant_raw)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            newAccount = try BoundStatement(db, sql: """
                INSERT INTO accounts (bank, type, mask, currency, card_kind) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (bank, type, mask) DO NOTHING
                """)
            // A known account: the upsert returns the row's id and the card kind it holds.
            account = try BoundStatement(db, sql: """
                INSERT INTO accounts (bank, type, mask, currency, card_kind) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (bank, type, mask) DO UPDATE SET currency = COALESCE(accounts.currency, excluded.currency),
                    card_kind = COALESCE(excluded.card_kind, accounts.card_kind)
                RETURNING id, card_kind
                """)
        }
    }

    // MARK: - Duplicates

    struct DuplicateMatch {
        let primary: Int64
        let primaryFieldCount: Int
        /// Whether the primary is a statement row: the record, which an alert never replaces.
        let primaryIsStatement: Bool
        let reason: String
    }

    /// The primary transaction this one duplicates, by the layers of `DuplicatePolicy`; a layer
    /// whose key `index` says no row has is not searched.
    private func findDuplicate(of t: Transaction, amount: String?, contentKey key: String, index: DuplicateIndex,
                               db: Database) throws -> DuplicateMatch? {
        func primary(of row: Row, reason: String) throws -> DuplicateMatch {
            let id: Int64 = row["duplicate_of"] ?? row["id"]
            let primary = try Row.fetchOne(db.cachedStatement(sql: "SELECT field_count, source_kind FROM transactions WHERE id = ?"),
                                           arguments: [id])
            return DuplicateMatch(primary: id, primaryFieldCount: primary?["field_count"] ?? 0,
                                  primaryIsStatement: primary?["source_kind"] == MessageChannel.statement.rawValue, reason: reason)
        }
        // Layer 2: the same bank reference.
        if let reference = t.reference, !reference.isEmpty, index.mayHave(bank: t.bank, reference: reference),
           let row = try Row.fetchOne(db.cachedStatement(sql: """
               SELECT id, duplicate_of FROM transactions WHERE bank = ? AND reference = ? ORDER BY id LIMIT 1
               """), arguments: [t.bank, reference]) {
            return try primary(of: row, reason: "same \(t.bank) reference \(reference)")
        }
        // Layer 2: the same content; without a time in the text, arrivals close together too.
        for row in try !index.mayHave(contentKey: key) ? [] : Row.fetchAll(db.cachedStatement(sql: """
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
        // Layer 3: the same money over another channel, close in time; a statement row and an
        // alert about it, within a few days (a statement books a card payment days later).
        guard let amount, let currency = t.currency, let direction = t.direction,
              index.mayHaveMoney(amount: amount, currency: currency, direction: direction.rawValue,
                                 otherThan: t.messageChannel.rawValue) else {
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
            let source: String = row["source_kind"]
            let statement = MessageChannel.statement.rawValue
            if t.messageChannel == .statement || source == statement {
                // A statement's references (its own ids) are not the alerts' (a UPI reference).
                guard DuplicatePolicy.merchantsCompatible(t.merchant, row["merchant"]),
                      let days = Self.daysApart(t, row), days <= duplicates.statementWindowDays else { continue }
                return try primary(of: row, reason: "same account \(t.account?.last4 ?? "-"), \(direction.rawValue) "
                                   + "\(amount) \(currency), \(days) day\(days == 1 ? "" : "s") apart, "
                                   + "by \(source) and \(t.messageChannel.rawValue)")
            }
            let otherReference: String? = row["reference"]
            if let mine = t.reference, let theirs = otherReference, mine != theirs { continue }
            guard DuplicatePolicy.merchantsCompatible(t.merchant, row["merchant"]),
                  let apart = Self.secondsApart(t, row), apart <= duplicates.alertWindow else { continue }
            let minutes = Int((apart / 60).rounded())
            return try primary(of: row, reason: "same account \(t.account?.last4 ?? "-"), \(direction.rawValue) "
                               + "\(amount) \(currency), \(minutes) min apart, by \(source) and \(t.messageChannel.rawValue)")
        }
        return nil
    }

    /// How many days apart two transactions' dates are (an alert's date, else its arrival day);
    /// nil when one has no date.
    private static func daysApart(_ t: Transaction, _ row: Row) -> Int? {
        func day(_ text: String?) -> Int? {
            guard let text, text.count >= 10 else { return nil }
            let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return LocalDate(year: parts[0], month: parts[1], day: parts[2])?.daysSinceEpoch
        }
        let mine = day(t.date?.description) ?? day(t.receivedAt.map(timestamp))
        let theirs = day(row["date"]) ?? day(row["received_at"])
        guard let mine, let theirs else { return nil }
        return abs(mine - theirs)
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
