import Foundation
import SpendlexEngine

/// What importing statement files gave: a record per entry (a transaction, or an error naming
/// the field), the lines skipped with why, the files that could not be read, and the balance
/// checks that failed. Every entry is accounted for.
public struct StatementImportResult: Sendable {
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
            if let why = balanceProblem(statement, transactions, path: path) {
                result.unbalanced.append(path)
                result.problems.append(why)
            }
        }
        return result
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
            guard let text else { return nil }
            let negative = text.hasPrefix("-")
            guard let parsed = try? AmountNormalizer(decimalMark: asWritten ? statement.decimalMark : .point)
                .normalize(negative ? String(text.dropFirst()) : text) else { return nil }
            let magnitude = abs(parsed.value)
            return negative || parsed.sign == .negative || parsed.sign == .debit ? -magnitude : magnitude
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
