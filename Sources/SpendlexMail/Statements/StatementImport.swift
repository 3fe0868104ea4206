import Foundation
import SpendlexEngine
import SpendlexRules

/// What importing statement files gave: a record per entry (a transaction, or an error naming
/// the field), the lines skipped with why, the files that could not be read, and the balance
/// checks that failed. Every entry is accounted for.
public struct StatementImportResult: Sendable {
    /// An empty result.
    public init() {}

    /// One record per entry read, in file and entry order.
    public var records: [MessageRecord] = []
    /// Problems, one line each (`file:line: ...`): skipped lines, entries that failed, balances
    /// that do not add up, unreadable files.
    public var problems: [String] = []
    /// Files that could not be read at all.
    public var unreadable: [String] = []
    /// Statements whose balances do not add up.
    public var unbalanced: [String] = []
    /// Entries read, by format.
    public var entriesByFormat: [String: Int] = [:]
    /// The balances the statements state, or that their running balances give: the exports'
    /// balance assertions.
    public var balances: [StatedBalance] = []

    /// How many entries were read, and how many of them are transactions (the rest are errors).
    public var entryCount = 0
    public var transactionCount = 0

    /// The transactions among the records.
    public var transactions: [Transaction] { records.compactMap(\.transaction) }
}

/// Reads statement files into records through an engine worker, and checks their balances.
public enum StatementImport {
    /// Reads every file; `account` stands for the account number where a statement names none.
    /// Every record is kept in the result.
    public static func run(files: [String], options: StatementOptions, account: String?,
                           worker: RuleEngine.Worker) -> StatementImportResult {
        var records: [MessageRecord] = []
        var result = run(files: files, options: options, account: account, worker: worker) { records += $0 }
        result.records = records
        return result
    }

    /// Reads every file, handing the records to `sink` in batches of `batchSize` as they are read
    /// (a file's last batch before the next file's first); the result holds everything but the
    /// records. A CSV in UTF-8 is read row by row (`StatementReader.stream`), so that a file of
    /// millions of rows is imported in memory that does not grow with it.
    public static func run(files: [String], options: StatementOptions, account: String?, worker: RuleEngine.Worker,
                           batchSize: Int = 4096, sink: ([MessageRecord]) -> Void) -> StatementImportResult {
        var result = StatementImportResult()
        for path in files {
            var batch: [MessageRecord] = []
            batch.reserveCapacity(batchSize)
            var check = BalanceCheck(path: path)
            var counted = (entries: 0, transactions: 0)
            let statement: Statement
            do {
                statement = try StatementReader.stream(path: path, options: options) { entry in
                    batch.append(record(entry, account: account, worker: worker, check: &check, result: &result))
                    counted.entries += 1
                    if batch.last?.transaction != nil { counted.transactions += 1 }
                    if batch.count >= batchSize {
                        sink(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                // Read as far as it could be (a read error in a large file): what was read is kept.
                if !batch.isEmpty { sink(batch) }
                result.entryCount += counted.entries
                result.transactionCount += counted.transactions
                result.unreadable.append(path)
                result.problems.append(error.description)
                continue
            }
            if !batch.isEmpty { sink(batch) }
            finish(statement, check: check, entries: counted.entries, transactions: counted.transactions, to: &result)
        }
        return result
    }

    /// Reads one statement's entries into `result`, and checks its balances.
    public static func add(_ statement: Statement, path: String, account: String?, worker: RuleEngine.Worker,
                           to result: inout StatementImportResult) {
        var check = BalanceCheck(path: path)
        var transactions = 0
        for entry in statement.entries {
            let record = record(entry, account: account, worker: worker, check: &check, result: &result)
            if record.transaction != nil { transactions += 1 }
            result.records.append(record)
        }
        finish(statement, check: check, entries: statement.entries.count, transactions: transactions, to: &result)
    }

    /// An entry's record (a transaction, or an error naming the field), its transaction added to
    /// the balance check.
    private static func record(_ entry: StatementEntry, account: String?, worker: RuleEngine.Worker,
                               check: inout BalanceCheck, result: inout StatementImportResult) -> MessageRecord {
        var entry = entry
        if entry.account == nil { entry.account = account }
        let outcome = worker.read(entry)
        let path = entry.file ?? check.path
        if let transaction = outcome.transaction {
            check.add(entry, transaction)
        } else {
            result.problems.append("\(path):\(entry.line): error: \(outcome.reason)")
        }
        return MessageRecord(id: entry.id, file: path, channel: .statement, sender: entry.bank,
                             status: outcome.transaction == nil ? .error : .transaction, rule: "statement.\(entry.format)",
                             reason: outcome.transaction == nil ? "line \(entry.line): \(outcome.reason)" : nil,
                             transaction: outcome.transaction)
    }

    /// A statement's counts, skipped lines and balances into `result`, once its entries are read.
    private static func finish(_ statement: Statement, check: BalanceCheck, entries: Int, transactions: Int,
                               to result: inout StatementImportResult) {
        result.problems += statement.skipped
        result.entriesByFormat[statement.format.rawValue, default: 0] += entries
        result.entryCount += entries
        result.transactionCount += transactions
        if let why = check.problem(statement) {
            result.unbalanced.append(check.path)
            result.problems.append(why)
        } else {
            result.balances += check.statedBalances(statement)
        }
    }

    /// Where a statement's balances stop adding up, for rows given in date order (see `BalanceCheck`).
    static func balanceProblem(_ statement: Statement, _ rows: [(entry: StatementEntry, transaction: Transaction)],
                               path: String) -> String? {
        var check = BalanceCheck(path: path)
        for (entry, transaction) in rows { check.add(entry, transaction) }
        return check.problem(statement)
    }

    /// A signed amount as written with `mark`: "-1.234,56", "1234.56".
    static func value(_ text: String?, _ mark: AmountNormalizer.DecimalMark) -> Decimal? {
        guard let text else { return nil }
        let negative = text.hasPrefix("-")
        guard let parsed = try? AmountNormalizer(decimalMark: mark).normalize(negative ? String(text.dropFirst()) : text)
        else { return nil }
        let magnitude = abs(parsed.value)
        return negative || parsed.sign == .negative || parsed.sign == .debit ? -magnitude : magnitude
    }
}

/// A statement's balance checks, fed its transactions one at a time in the file's order, which
/// may be the dates' or the reverse (banks export newest first as often as oldest first): both
/// are followed, and the one the first and last dates say is used.
///
/// In date order, each row that states its balance must state the one before it (the previous
/// stated balance, or the opening balance, moved by the rows between) plus its credit or less
/// its debit; the first row where that fails is named. The closing balance must be the opening
/// balance plus every row. Nothing per row is kept: two running balances and the first and last
/// transactions.
struct BalanceCheck {
    let path: String
    /// What the balances need of a transaction: of the first and the last in the file's order
    /// (copying whole transactions, row after row, was a tenth of a large import).
    private struct Edge {
        let date: LocalDate?
        let amount: Decimal?
        let direction: Direction?
        let balance: String?
        let currency: String?
        let bank: String
        let account: Transaction.AccountReference?

        init(_ transaction: Transaction) {
            (date, amount, direction, balance) = (transaction.date, transaction.amount, transaction.direction, transaction.balance)
            (currency, bank, account) = (transaction.currency, transaction.bank, transaction.account)
        }
    }
    /// The first and last transactions in the file's order, and the sum of all (credits positive).
    private var first: Edge?
    private var last: Edge?
    private var total: Decimal = 0
    private var rows = 0
    /// Oldest first: the balance before the next row (nil until one is known), and the first failure.
    private var forward: Decimal?
    private var forwardStarted = false
    private var forwardProblem: Failure?
    /// Newest first: the last stated row seen (the next newer one in date order), the rows seen
    /// since (older than it) summed, and the oldest failure found so far.
    private var pending: (balance: Decimal, signed: Decimal, line: Int, transaction: Transaction)?
    private var since: Decimal = 0
    private var backwardProblem: Failure?

    init(path: String) {
        self.path = path
    }

    private static func signed(_ transaction: Transaction) -> Decimal {
        guard let amount = transaction.amount else { return 0 }
        return transaction.direction == .debit ? -amount : amount
    }

    /// A row whose stated balance does not follow, and the balance before it: said only when it
    /// is the one reported (most rows fail the order the file is not in).
    private struct Failure {
        let line: Int
        let previous: Decimal
        let transaction: Transaction
        let stated: Decimal
    }

    private func failure(line: Int, previous: Decimal, _ transaction: Transaction, stated: Decimal) -> Failure {
        Failure(line: line, previous: previous, transaction: transaction, stated: stated)
    }

    private func said(_ failure: Failure) -> String {
        "\(path):\(failure.line): error: the balances stop adding up here: \(failure.previous) "
            + "\(failure.transaction.direction == .debit ? "less" : "plus") \(failure.transaction.amountText ?? "?") is "
            + "\(failure.previous + Self.signed(failure.transaction)), the statement says \(failure.stated)"
    }

    mutating func add(_ entry: StatementEntry, _ transaction: Transaction) {
        let signed = Self.signed(transaction)
        last = Edge(transaction)
        if first == nil { first = last }
        total += signed
        rows += 1
        let stated = StatementImport.value(transaction.balance, .point)
        // Oldest first (the opening balance is added by `problem`, which knows it: until then the
        // rows before the first stated balance are summed in `beforeFirstStated`).
        if let stated {
            if let previous = forward, forwardProblem == nil, previous + signed != stated {
                forwardProblem = failure(line: entry.line, previous: previous, transaction, stated: stated)
            }
            if !forwardStarted { firstStated = (entry.line, transaction, stated, beforeFirstStated) }
            forwardStarted = true
            forward = stated
        } else if forwardStarted {
            forward = forward.map { $0 + signed }
        } else {
            beforeFirstStated += signed
        }
        // Newest first.
        if let stated {
            if let newer = pending, stated + since + newer.signed != newer.balance {
                backwardProblem = failure(line: newer.line, previous: stated + since, newer.transaction, stated: newer.balance)
            }
            pending = (stated, signed, entry.line, transaction)
            since = 0
        } else {
            since += signed
        }
    }

    /// Oldest first, the rows before the first stated balance summed, and that row.
    private var beforeFirstStated: Decimal = 0
    private var firstStated: (line: Int, transaction: Transaction, balance: Decimal, before: Decimal)?

    /// Whether the file lists its rows newest first.
    private var newestFirst: Bool {
        guard let firstDate = first?.date, let lastDate = last?.date else { return false }
        return firstDate > lastDate
    }

    /// Where the statement's balances stop adding up; nil when they add up or it states none.
    func problem(_ statement: Statement) -> String? {
        let opening = StatementImport.value(statement.opening?.amount, statement.decimalMark)
        if newestFirst {
            // The oldest stated row, against the opening balance and the rows older than it.
            if let opening, let oldest = pending, opening + since + oldest.signed != oldest.balance {
                return said(failure(line: oldest.line, previous: opening + since, oldest.transaction, stated: oldest.balance))
            }
            if let backwardProblem { return said(backwardProblem) }
        } else {
            if let opening, let stated = firstStated, opening + stated.before + Self.signed(stated.transaction) != stated.balance {
                return said(failure(line: stated.line, previous: opening + stated.before, stated.transaction, stated: stated.balance))
            }
            if let forwardProblem { return said(forwardProblem) }
        }
        guard let opening, let closing = StatementImport.value(statement.closing?.amount, statement.decimalMark) else { return nil }
        guard opening + total != closing else { return nil }
        return "\(path): error: the closing balance \(closing) is not the opening balance \(opening) plus the "
            + "\(rows) entries (\(opening + total)): an entry is missing or misread"
    }

    /// The opening and closing balances of a statement whose balances add up: the ones it
    /// states, else the ones its rows' running balances give (before the first row, after the
    /// last). None without a currency or a date.
    func statedBalances(_ statement: Statement) -> [StatedBalance] {
        guard var oldest = first, var newest = last else { return [] }
        if newestFirst { swap(&oldest, &newest) }
        guard let currency = oldest.currency, let firstDate = oldest.date, let lastDate = newest.date else { return [] }
        func stated(_ balance: StatementBalance?) -> (amount: Decimal, date: LocalDate)? {
            guard let balance, let text = balance.date, let amount = StatementImport.value(balance.amount, statement.decimalMark),
                  let date = try? DateNormalizer(format: balance.dateFormat).normalize(text, reference: nil) else { return nil }
            guard balance.atStartOfDay else { return (amount, date) }
            guard let before = LocalDate(daysSinceEpoch: date.daysSinceEpoch - 1) else { return nil }
            return (amount, before)
        }
        func balance(_ amount: Decimal, _ date: LocalDate, opening: Bool) -> StatedBalance {
            StatedBalance(bank: oldest.bank, account: oldest.account, currency: currency, date: date, amount: amount,
                          opening: opening, file: path)
        }
        var result: [StatedBalance] = []
        let before = LocalDate(daysSinceEpoch: firstDate.daysSinceEpoch - 1)
        if let (amount, date) = stated(statement.opening) {
            result.append(balance(amount, date, opening: true))
        } else if let running = StatementImport.value(oldest.balance, .point), let amount = oldest.amount, let before {
            result.append(balance(running - (oldest.direction == .debit ? -amount : amount), before, opening: true))
        } else if let (closing, _) = stated(statement.closing), let before {
            // Only a closing balance (OFX's LEDGERBAL): the statement's entries are the whole
            // period, so it opened at the closing balance less them.
            result.append(balance(closing - total, before, opening: true))
        }
        if let (amount, date) = stated(statement.closing) {
            result.append(balance(amount, date, opening: false))
        } else if let running = StatementImport.value(newest.balance, .point) {
            result.append(balance(running, lastDate, opening: false))
        }
        return result
    }
}
