import Foundation
import SpendlexEngine

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

    /// The transactions among the records.
    public var transactions: [Transaction] { records.compactMap(\.transaction) }
}

/// Reads statement files into records through an engine worker, and checks their balances.
public enum StatementImport {
    /// Reads every file; `account` stands for the account number where a statement names none.
    public static func run(files: [String], options: StatementOptions, account: String?,
                           worker: RuleEngine.Worker) -> StatementImportResult {
        var result = StatementImportResult()
        for path in files {
            let statement: Statement
            do {
                statement = try StatementReader.read(path: path, options: options)
            } catch {
                result.unreadable.append(path)
                result.problems.append(error.description)
                continue
            }
            add(statement, path: path, account: account, worker: worker, to: &result)
        }
        return result
    }

    /// Reads one statement's entries into `result`, and checks its balances.
    public static func add(_ statement: Statement, path: String, account: String?, worker: RuleEngine.Worker,
                           to result: inout StatementImportResult) {
        result.problems += statement.skipped
        result.entriesByFormat[statement.format.rawValue, default: 0] += statement.entries.count
        var transactions: [(entry: StatementEntry, transaction: Transaction)] = []
        for var entry in statement.entries {
            if entry.account == nil { entry.account = account }
            let outcome = worker.read(entry)
            let record = MessageRecord(id: entry.id, file: path, channel: .statement, sender: entry.bank,
                                       status: outcome.transaction == nil ? .error : .transaction, rule: "statement.\(entry.format)",
                                       reason: outcome.transaction == nil ? "line \(entry.line): \(outcome.reason)" : nil,
                                       transaction: outcome.transaction)
            if let transaction = outcome.transaction {
                transactions.append((entry, transaction))
            } else {
                result.problems.append("\(path):\(entry.line): error: \(outcome.reason)")
            }
            result.records.append(record)
        }
        // Banks export newest first as often as oldest first: balances run in date order.
        if let first = transactions.first?.transaction.date, let last = transactions.last?.transaction.date, first > last {
            transactions.reverse()
        }
        if let why = balanceProblem(statement, transactions, path: path) {
            result.unbalanced.append(path)
            result.problems.append(why)
        } else {
            result.balances += statedBalances(statement, transactions, path: path)
        }
    }

    /// The opening and closing balances of a statement whose balances add up: the ones it
    /// states, else the ones its rows' running balances give (before the first row, after the
    /// last). None without a currency or a date.
    static func statedBalances(_ statement: Statement, _ rows: [(entry: StatementEntry, transaction: Transaction)],
                               path: String) -> [StatedBalance] {
        guard let first = rows.first?.transaction, let last = rows.last?.transaction, let currency = first.currency,
              let firstDate = first.date, let lastDate = last.date else { return [] }
        func stated(_ balance: StatementBalance?) -> (amount: Decimal, date: LocalDate)? {
            guard let balance, let text = balance.date, let amount = value(balance.amount, statement.decimalMark),
                  let date = try? DateNormalizer(format: balance.dateFormat).normalize(text, reference: nil) else { return nil }
            guard balance.atStartOfDay else { return (amount, date) }
            guard let before = LocalDate(daysSinceEpoch: date.daysSinceEpoch - 1) else { return nil }
            return (amount, before)
        }
        func balance(_ amount: Decimal, _ date: LocalDate, opening: Bool) -> StatedBalance {
            StatedBalance(bank: first.bank, account: first.account, currency: currency, date: date, amount: amount,
                          opening: opening, file: path)
        }
        var result: [StatedBalance] = []
        let before = LocalDate(daysSinceEpoch: firstDate.daysSinceEpoch - 1)
        if let (amount, date) = stated(statement.opening) {
            result.append(balance(amount, date, opening: true))
        } else if let running = value(first.balance, .point), let amount = first.amount, let before {
            result.append(balance(running - (first.direction == .debit ? -amount : amount), before, opening: true))
        } else if let (closing, _) = stated(statement.closing), let before {
            // Only a closing balance (OFX's LEDGERBAL): the statement's entries are the whole
            // period, so it opened at the closing balance less them.
            let total = rows.reduce(Decimal(0)) { sum, row in
                sum + (row.transaction.amount.map { row.transaction.direction == .debit ? -$0 : $0 } ?? 0)
            }
            result.append(balance(closing - total, before, opening: true))
        }
        if let (amount, date) = stated(statement.closing) {
            result.append(balance(amount, date, opening: false))
        } else if let running = value(last.balance, .point) {
            result.append(balance(running, lastDate, opening: false))
        }
        return result
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

    /// Where a statement's balances stop adding up: the first row whose stated balance is not
    /// the one before it plus its credit or less its debit, or a closing balance that is not the
    /// opening balance plus the rows. nil when they add up or the statement states none.
    static func balanceProblem(_ statement: Statement, _ rows: [(entry: StatementEntry, transaction: Transaction)],
                               path: String) -> String? {
        func signed(_ t: Transaction) -> Decimal {
            guard let amount = t.amount else { return 0 }
            return t.direction == .debit ? -amount : amount
        }
        // `asWritten`: a balance as the statement writes it; else the plain form of a transaction's.
        func value(_ text: String?, asWritten: Bool = true) -> Decimal? {
            Self.value(text, asWritten ? statement.decimalMark : .point)
        }
        // Row by row, where rows state their balance.
        var previous: Decimal? = value(statement.opening?.amount)
        for (entry, transaction) in rows {
            guard let stated = value(transaction.balance, asWritten: false) else {
                previous = previous.map { $0 + signed(transaction) }
                continue
            }
            if let previous, previous + signed(transaction) != stated {
                return "\(path):\(entry.line): error: the balances stop adding up here: \(previous) "
                    + "\(transaction.direction == .debit ? "less" : "plus") \(transaction.amountText ?? "?") is "
                    + "\(previous + signed(transaction)), the statement says \(stated)"
            }
            previous = stated
        }
        guard let opening = value(statement.opening?.amount), let closing = value(statement.closing?.amount) else { return nil }
        let total = rows.reduce(opening) { $0 + signed($1.transaction) }
        guard total != closing else { return nil }
        return "\(path): error: the closing balance \(closing) is not the opening balance \(opening) plus the "
            + "\(rows.count) entries (\(total)): an entry is missing or misread"
    }
}
