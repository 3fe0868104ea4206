import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read bank statements into transactions: OFX/QFX, QIF, MT940, CAMT.053, CSV, XLSX and PDF.",
        discussion: """
            The format is read from each file's content. A CSV needs a header row naming a date column \
            and an amount column (or debit and credit columns), in any of the common languages, or a \
            statement profile's header; so does a spreadsheet's first sheet and a PDF's table (read \
            through pdftotext, poppler-utils; a locked PDF's password in SPENDLEX_PDF_PASSWORD). Every \
            entry becomes a transaction (normalized and categorized as a parsed message) or an error \
            naming the field; skipped lines are listed with why on stderr. Balances the statement states \
            are checked: the first row where they stop adding up is an error. With --store, entries go to \
            the ledger, and a statement row and the alert about it (same account, amount and direction, \
            dates within 3 days, merchant alike) are linked, the statement row the primary.
            """
    )

    @OptionGroup var rules: RuleOptions

    @Option(name: .long, help: ArgumentHelp(
        "The bank's id, as the rule files name it (hdfc, chase): what alerts from that bank share. Default: the statement's own, else 'statement'.",
        valueName: "id"))
    var bank: String?

    @Option(name: .long, help: ArgumentHelp(
        "The account or card number (its last digits are kept) for statements that name none (CSV, QIF).",
        valueName: "number"))
    var account: String?

    @Flag(name: .long, help: "The statements are of a credit card, not a bank account.")
    var card = false

    @Option(name: .long, help: ArgumentHelp(
        "ISO country code: the order of numeric dates a file leaves open, and the currency of a CSV without one.",
        valueName: "cc"))
    var country: String?

    @Option(name: .long, help: ArgumentHelp(
        "Read CSVs by this statement profile (rules/statements); by default the profile whose header the file has, else the header's own names.",
        valueName: "id"))
    var profile: String?

    @Option(name: .long, help: "Output format: jsonl, csv, csv-full or table.")
    var format: OutputFormat = .jsonl

    @Option(name: .shortAndLong, help: ArgumentHelp("Write transactions here instead of stdout.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write the entries to this SQLite ledger (created if needed); entries already in it are skipped.",
        valueName: "file"))
    var store: String?

    @Flag(name: .long, help: "Do not print the summary on stderr.")
    var quiet = false

    @Argument(help: ArgumentHelp("Statement files.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one statement file") }
        if let country, country.count != 2 { throw ValidationError("--country takes a two-letter ISO code") }
    }

    func run() throws {
        let engine = try rules.engine(ledger: store)
        let options = StatementOptions(bank: bank, country: country?.uppercased(), accountType: card ? "card" : "account",
                                       profiles: engine.rules.rules.statementProfiles, profile: profile)
        // Records are printed and stored a batch at a time as the statements are read: nothing
        // of a large statement is held.
        let printTransactions = store == nil || output != nil || format != .jsonl
        let out = printTransactions ? try OutputStream(path: output) : nil
        let writer = TransactionWriter(format: format)
        out?.write(bytes: Array(writer.header.utf8))
        var ledger: Ledger?
        var run: Int64?
        if let store {
            do { ledger = try Ledger(path: store) } catch {
                throw ValidationError("cannot open the ledger \(store): \(error)")
            }
            run = try ledger?.beginRun(inputs: files)
        }
        // The ledger is written by a thread of its own while the statements are read.
        let intake = ledger.map { LedgerIntake(ledger: $0, run: run) }
        var rows: [UInt8] = []
        let result = StatementImport.run(files: files, options: options, account: account, worker: engine.makeWorker()) { batch in
            if let out {
                rows.removeAll(keepingCapacity: true)
                for record in batch { if let transaction = record.transaction { writer.appendRow(transaction, to: &rows) } }
                out.write(bytes: rows)
            }
            intake?.submit(batch)
        }
        for problem in result.problems { Stderr.write(problem + "\n") }
        try out?.finish(name: output ?? "the output")
        var stored = RunCounts()
        if let ledger, let run, let intake {
            do {
                let (counts, failure) = intake.finish()
                if let failure { throw failure }
                stored = counts
                stored.skipped = result.entryCount - counts.messages
                try ledger.record(result.balances)
                try ledger.finishRun(run, counts: stored)
                SearchIndexing.afterStoring(ledger, quiet: quiet)
            } catch {
                try? ledger.finishRun(run, counts: RunCounts(), failure: "writing the ledger failed: \(error)")
                Stderr.write("error: writing the ledger failed: \(error)\n")
                throw ExitStatus.internalError
            }
        }
        if !quiet {
            let errors = result.entryCount - result.transactionCount
            let formats = result.entriesByFormat.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            var summary = "\(files.count) file\(files.count == 1 ? "" : "s"): \(result.entryCount) entries"
            if !formats.isEmpty { summary += " (\(formats))" }
            summary += ", \(result.transactionCount) transactions, \(errors) errors"
            if !result.unreadable.isEmpty { summary += ", \(result.unreadable.count) unreadable" }
            if !result.unbalanced.isEmpty { summary += ", \(result.unbalanced.count) not adding up" }
            Stderr.write(summary + "\n")
            if let store {
                Stderr.write("ledger \(store): \(stored.transactions) transactions stored, \(stored.duplicates) linked as "
                             + "duplicates, \(stored.skipped) already in the ledger\n")
            }
        }
        if !result.unreadable.isEmpty || !result.unbalanced.isEmpty || result.entryCount > result.transactionCount {
            throw ExitStatus.badInput
        }
    }
}
