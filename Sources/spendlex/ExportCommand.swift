import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexStore

extension ExportFormat: ExpressibleByArgument {}

/// `--store`, `--from`, `--to`: a ledger to read and the days to read from it.
struct LedgerRangeOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The SQLite ledger written by 'spendlex parse --store' (default: $SPENDLEX_STORE).", valueName: "file"))
    var storeOption: String?

    /// `--store`, else `SPENDLEX_STORE` (checked by `validate`).
    var store: String { storeOption ?? ProcessInfo.processInfo.environment["SPENDLEX_STORE"] ?? "" }

    @Option(name: .long, help: ArgumentHelp("First day, inclusive (YYYY-MM-DD).", valueName: "date"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Last day, inclusive (YYYY-MM-DD).", valueName: "date"))
    var to: String?

    func validate() throws {
        if store.isEmpty { throw ValidationError("no ledger given: pass --store FILE or set SPENDLEX_STORE") }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, LocalDate(iso: value) == nil {
                throw ValidationError("\(name) '\(value)' is not a day such as 2026-05-02")
            }
        }
        if let first = fromDate, let last = toDate, last < first {
            throw ValidationError("--to \(last) is before --from \(first)")
        }
    }

    var fromDate: LocalDate? { from.flatMap(LocalDate.init(iso:)) }
    var toDate: LocalDate? { to.flatMap(LocalDate.init(iso:)) }

    /// Opens the ledger; a missing or unreadable one is bad input (exit 65), never created here.
    func openLedger() throws -> Ledger {
        guard FileManager.default.fileExists(atPath: store) else {
            Stderr.write("error: no ledger at \(store) (make one with: spendlex parse INPUT... --store \(store))\n")
            throw ExitStatus.badInput
        }
        let ledger: Ledger
        do { ledger = try Ledger(path: store) } catch {
            Stderr.write("error: cannot open the ledger \(store): \(error)\n")
            throw ExitStatus.badInput
        }
        RulesChangedNote.check(ledger, path: store)
        return ledger
    }

    /// The statement balances of the range's statements: those of a statement whose every balance
    /// (opening at the end of the day before the range, closing inside it) falls in the range, so
    /// that an assertion never counts on transactions the export leaves out.
    func statementBalances() throws -> [StatedBalance] {
        let ledger = try openLedger()
        let all: [StatedBalance]
        do { all = try ledger.statementBalances() } catch {
            Stderr.write("error: reading the ledger \(store) failed: \(error)\n")
            throw ExitStatus.internalError
        }
        func inRange(_ balance: StatedBalance) -> Bool {
            let day = balance.opening ? LocalDate(daysSinceEpoch: balance.date.daysSinceEpoch + 1) ?? balance.date : balance.date
            return (fromDate.map { day >= $0 } ?? true) && (toDate.map { day <= $0 } ?? true)
        }
        let statements = Dictionary(grouping: all) { "\($0.file ?? "")\u{1F}\($0.bank)\u{1F}\($0.account?.last4 ?? "")" }
        return statements.values.filter { $0.allSatisfy(inRange) }.flatMap { $0 }
    }

    /// Reads the ledger's transactions in the range; a failed read is an internal error (exit 70).
    /// `all`: every date, whatever the range.
    func transactions(includeDuplicates: Bool = false, all: Bool = false) throws -> [StoredTransaction] {
        let ledger = try openLedger()
        do {
            return try ledger.transactions(all ? TransactionQuery(includeDuplicates: includeDuplicates)
                                               : TransactionQuery(from: fromDate, to: toDate, includeDuplicates: includeDuplicates))
        } catch {
            Stderr.write("error: reading the ledger \(store) failed: \(error)\n")
            throw ExitStatus.internalError
        }
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the ledger's transactions as CSV, JSON Lines, or a beancount or ledger-cli journal.",
        discussion: """
            Primaries only, unless --include-duplicates (csv and jsonl): a transaction reported by SMS and \
            by email is exported once. csv has the columns of 'spendlex parse --format csv'; jsonl the record \
            of 'spendlex parse' with ledger_id and duplicate_of (the primary's ledger_id). Journals declare \
            every account, and hold one balanced transaction per record in its own currency; records without \
            an amount, currency, date or direction are left out, named on stderr and in a closing comment.
            """
    )

    @OptionGroup var range: LedgerRangeOptions

    @Option(name: .long, help: "Output format: csv, jsonl, beancount or ledger.")
    var format: ExportFormat

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of stdout.", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Export duplicates too (csv and jsonl only), each with its duplicate_of.")
    var includeDuplicates = false

    func validate() throws {
        if includeDuplicates && format.isJournal {
            throw ValidationError("--include-duplicates is for csv and jsonl: a journal holds each transaction once")
        }
    }

    func run() throws {
        let transactions = try range.transactions(includeDuplicates: includeDuplicates)
        let balances = format.isJournal ? try range.statementBalances() : []
        let export = LedgerExporter(format: format).export(transactions, balances: balances)
        let out = try OutputStream(path: output)
        out.write(export.text)
        try out.finish(name: output ?? "the output")
        for item in export.leftOut {
            Stderr.write("warning: left out of the journal: \(item)\n")
        }
    }
}
