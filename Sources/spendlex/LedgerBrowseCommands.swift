import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexRules
import SpendlexMeaning
import SpendlexStore

/// `--store FILE` for the commands that read or edit the ledger; `SPENDLEX_STORE` when not given.
struct StoreOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The SQLite ledger written by 'spendlex parse --store' (default: $SPENDLEX_STORE).", valueName: "file"))
    var store: String?

    /// The ledger's path: `--store`, else `SPENDLEX_STORE`; a usage error naming both when neither is set.
    func path() throws -> String {
        if let store { return store }
        if let fromEnvironment = ProcessInfo.processInfo.environment["SPENDLEX_STORE"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        throw ValidationError("no ledger given: pass --store FILE or set SPENDLEX_STORE")
    }

    /// Opens the ledger; a missing or unreadable one is bad input (exit 65), never created here.
    func open() throws -> Ledger {
        let path = try path()
        guard FileManager.default.fileExists(atPath: path) else {
            Stderr.write("error: no ledger at \(path) (make one with: spendlex parse INPUT... --store \(path))\n")
            throw ExitStatus.badInput
        }
        let ledger: Ledger
        do { ledger = try Ledger(path: path) } catch {
            Stderr.write("error: cannot open the ledger \(path): \(error)\n")
            throw ExitStatus.badInput
        }
        RulesChangedNote.check(ledger, path: path)
        return ledger
    }
}

/// How a listing is written: a table for a person, JSON Lines or CSV for a program. The
/// default is the table on a terminal and JSON Lines into a pipe or a file.
enum ListingFormat: String, ExpressibleByArgument, CaseIterable {
    case table, jsonl, csv

    static var forStandardOutput: ListingFormat { isatty(STDOUT_FILENO) == 1 ? .table : .jsonl }
}

/// Columns sized to their widest cell (up to a cap), amounts right-aligned.
struct TextTable {
    struct Column {
        var title: String
        var maxWidth: Int
        var rightAligned = false
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) { self.columns = columns }

    var text: String {
        let widths = columns.indices.map { index in
            min(columns[index].maxWidth, rows.map { $0[index].count }.reduce(columns[index].title.count, max))
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (index, cell) in cells.enumerated() {
                var text = cell.replacingOccurrences(of: "\n", with: " ")
                if text.count > widths[index] { text = String(text.prefix(widths[index] - 1)) + "…" }
                let pad = String(repeating: " ", count: widths[index] - text.count)
                out += (columns[index].rightAligned ? pad + text : text + pad) + "  "
            }
            while out.last == " " { out.removeLast() }
            return out + "\n"
        }
        return line(columns.map(\.title)) + rows.map(line).joined()
    }
}

/// A stored transaction's cells in the listings: the amount signed by its direction.
enum TransactionCells {
    static func amount(_ t: StoredTransaction) -> String {
        guard let text = t.amountText else { return "-" }
        let sign = t.direction == .debit ? "-" : t.direction == .credit ? "+" : ""
        return sign + text + (t.currency.map { " " + $0 } ?? "")
    }

    static func account(_ t: StoredTransaction) -> String {
        t.bank + (t.account.map { " \($0.type) \($0.last4)" } ?? "")
    }

    static func category(_ t: StoredTransaction) -> String {
        t.categoryName + (t.subcategory.map { " / " + $0 } ?? "")
    }
}

struct Transactions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions",
        abstract: "List the ledger's transactions, with filters.",
        discussion: """
            Oldest first (--newest-first for the other way). Duplicates are left out unless \
            --include-duplicates. On a terminal the list is a table; into a pipe or a file it is JSON Lines \
            (the record of 'spendlex export --format jsonl', with ledger ids), unless --format says otherwise.
            """
    )

    @OptionGroup var store: StoreOption

    @Option(name: .long, help: ArgumentHelp("First day, inclusive (YYYY-MM-DD).", valueName: "date"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Last day, inclusive (YYYY-MM-DD).", valueName: "date"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("Only the card or account ending in these digits.", valueName: "digits"))
    var account: String?

    @Option(name: .long, help: ArgumentHelp("Only this category (\"Uncategorized\" for none).", valueName: "name"))
    var category: String?

    @Option(name: .long, help: ArgumentHelp("Only merchants containing this text (any case).", valueName: "text"))
    var merchant: String?

    @Option(name: .long, help: ArgumentHelp("Only amounts of at least this much.", valueName: "amount"))
    var min: String?

    @Option(name: .long, help: ArgumentHelp("Only amounts of at most this much.", valueName: "amount"))
    var max: String?

    @Option(name: .long, help: ArgumentHelp("Only this status: ok, review or pending.", valueName: "status"))
    var status: String?

    @Option(name: .long, help: ArgumentHelp("Only this kind: purchase, refund, transfer, withdrawal, ...", valueName: "kind"))
    var kind: String?

    @Option(name: .long, help: ArgumentHelp("Only debits or only credits.", valueName: "debit|credit"))
    var direction: String?

    @Flag(name: .long, help: "Include the transactions linked to a primary as its duplicates.")
    var includeDuplicates = false

    @Flag(name: .long, help: "Newest first.")
    var newestFirst = false

    @Option(name: .long, help: ArgumentHelp("At most this many.", valueName: "count"))
    var limit: Int?

    @Option(name: .long, help: "table, jsonl or csv (default: table on a terminal, jsonl otherwise).")
    var format: ListingFormat?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, LocalDate(iso: value) == nil { throw ValidationError("\(name) '\(value)' is not a day such as 2026-05-02") }
        }
        for (name, value) in [("--min", min), ("--max", max)] {
            if let value, Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")) == nil || value.contains(",") {
                throw ValidationError("\(name) '\(value)' is not an amount such as 1250 or 12.50")
            }
        }
        if let status, Transaction.Status(rawValue: status) == nil { throw ValidationError("--status must be ok, review or pending") }
        if let direction, Direction(rawValue: direction) == nil { throw ValidationError("--direction must be debit or credit") }
        if let limit, limit < 0 { throw ValidationError("--limit must be at least 0") }
    }

    var query: TransactionQuery {
        var query = TransactionQuery(from: from.flatMap(LocalDate.init(iso:)), to: to.flatMap(LocalDate.init(iso:)),
                                     includeDuplicates: includeDuplicates)
        query.accountLast4 = account
        query.category = category
        query.merchant = merchant
        let posix = Locale(identifier: "en_US_POSIX")
        query.minAmount = min.flatMap { Decimal(string: $0, locale: posix) }
        query.maxAmount = max.flatMap { Decimal(string: $0, locale: posix) }
        query.status = status.flatMap(Transaction.Status.init(rawValue:))
        query.kind = kind
        query.direction = direction.flatMap(Direction.init(rawValue:))
        query.newestFirst = newestFirst
        query.limit = limit
        return query
    }

    func run() throws {
        let ledger = try store.open()
        let found: [StoredTransaction]
        do { found = try ledger.transactions(query) } catch {
            Stderr.write("error: reading the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        switch format ?? .forStandardOutput {
        case .jsonl: print(LedgerExporter(format: .jsonl).rows(found), terminator: "")
        case .csv: print(LedgerExporter(format: .csv).export(found).text, terminator: "")
        case .table:
            var table = TextTable([
                .init(title: "ID", maxWidth: 8, rightAligned: true), .init(title: "DATE", maxWidth: 10),
                .init(title: "ACCOUNT", maxWidth: 22), .init(title: "MERCHANT", maxWidth: 30),
                .init(title: "CATEGORY", maxWidth: 28), .init(title: "AMOUNT", maxWidth: 20, rightAligned: true),
                .init(title: "STATUS", maxWidth: 8),
            ])
            for t in found {
                table.rows.append([String(t.id), t.date?.description ?? "-", TransactionCells.account(t), t.merchant ?? "-",
                                   TransactionCells.category(t), TransactionCells.amount(t),
                                   t.duplicateOf.map { "dup of \($0)" } ?? t.status.rawValue])
            }
            print(table.text + "\(found.count) transaction\(found.count == 1 ? "" : "s")")
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show one transaction with the message it came from, cited.",
        discussion: """
            ID is a transaction's ledger id (the ID column of 'spendlex transactions', 'ledger_id' in JSON) \
            or a stored message's id. The message is cited by file and byte offset (or its Message-ID), \
            sender and arrival time, and its text is shown as the parser read it, card numbers masked.
            """
    )

    @OptionGroup var store: StoreOption

    @Argument(help: "A transaction's ledger id, or a message id.")
    var id: String

    @Option(name: .long, help: "text or json.")
    var format: ShowFormat = .text

    enum ShowFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func run() throws {
        let ledger = try store.open()
        var transaction: StoredTransaction?
        var message: StoredMessage?
        var duplicates: [Int64] = []
        do {
            if let ledgerID = Int64(id) { transaction = try ledger.transaction(id: ledgerID) }
            if let transaction {
                message = try ledger.message(id: transaction.messageID)
                duplicates = try ledger.duplicates(of: transaction.id)
            } else {
                message = try ledger.message(id: id)
                if let message { transaction = try ledger.transaction(forMessage: message.id) }
                if let transaction { duplicates = try ledger.duplicates(of: transaction.id) }
            }
        } catch {
            Stderr.write("error: reading the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        guard transaction != nil || message != nil else {
            Stderr.write("error: the ledger has no transaction or message '\(id)'\n")
            throw ExitStatus.badInput
        }
        switch format {
        case .json: print(ShowJSON.object(transaction: transaction, message: message, duplicates: duplicates))
        case .text: print(Self.text(transaction: transaction, message: message, duplicates: duplicates), terminator: "")
        }
    }

    static func text(transaction: StoredTransaction?, message: StoredMessage?, duplicates: [Int64], citesMessage: Bool = true) -> String {
        var out = ""
        func field(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            out += "  " + name.padding(toLength: 11, withPad: " ", startingAt: 0) + value + "\n"
        }
        if let t = transaction {
            out += "Transaction \(t.id): \(t.status.rawValue), confidence \(String(format: "%.2f", t.confidence))\n"
            field("date", [t.date?.description, t.time?.description].compactMap { $0 }.joined(separator: " "))
            field("amount", [t.direction?.rawValue, t.amountText, t.currency].compactMap { $0 }.joined(separator: " "))
            field("merchant", t.merchant.map { $0 + (t.merchantSource == "user" ? "  (set by you)" : "") })
            field("category", t.category.map { _ in
                TransactionCells.category(t) + (t.categorySource == "user" ? "  (set by you)"
                    : t.categoryProbability.map { String(format: "  (learned, %.2f sure)", $0) } ?? "")
            })
            if t.categoryProbability == nil, t.categorySource != "user", let learned = t.learned {
                field("guess", "\(learned.label), \(String(format: "%.2f", learned.probability)) sure: for review "
                      + "(spendlex explain --transaction \(t.id))")
            }
            field("account", TransactionCells.account(t))
            field("kind", t.kind?.rawValue)
            field("channel", t.channel)
            field("balance", t.balanceText)
            field("reference", t.reference)
            field("note", t.note)
            field("rule", t.rule)
            if let primary = t.duplicateOf {
                field("duplicate", "of \(primary)" + (t.duplicateReason.map { " (\($0))" } ?? ""))
            } else if t.notDuplicate {
                field("duplicate", "none (said by you)")
            }
            if !duplicates.isEmpty { field("duplicates", duplicates.map(String.init).joined(separator: ", ")) }
        }
        if let m = message {
            if !out.isEmpty { out += "\n" }
            out += "Message \(m.id)\n"
            field("cited", m.citation)
            field("channel", m.channel)
            field("sender", m.sender)
            field("received", m.receivedAt.map(TransactionWriter.timestamp))
            field("subject", m.subject)
            if transaction == nil {
                field("status", m.status + (m.reason.map { ": \($0)" } ?? ""))
            }
            if let text = m.text {
                out += "\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n"
            } else {
                out += "\n    (the ledger holds no text for this message: stored before texts were kept, or ignored)\n"
            }
        } else if let t = transaction, citesMessage {
            out += "\nMessage \(t.messageID): not in the ledger\n"
        }
        return out
    }
}

/// `spendlex show --format json`: the transaction as `export --format jsonl` writes it, the message
/// with its citation, and the ledger ids of the transaction's duplicates.
enum ShowJSON {
    static func object(transaction: StoredTransaction?, message: StoredMessage?, duplicates: [Int64]) -> String {
        var parts: [String] = []
        if let transaction {
            var line = LedgerExporter(format: .jsonl).rows([transaction])
            if line.hasSuffix("\n") { line.removeLast() }
            parts.append("\"transaction\":" + line)
        } else {
            parts.append("\"transaction\":null")
        }
        if let m = message {
            let fields: [(String, String?)] = [
                ("id", m.id), ("citation", m.citation), ("file", m.file), ("offset", m.offset.map(String.init)),
                ("channel", m.channel), ("sender", m.sender), ("received_at", m.receivedAt.map(TransactionWriter.timestamp)),
                ("subject", m.subject), ("status", m.status), ("rule", m.rule), ("reason", m.reason), ("text", m.text),
            ]
            let body = fields.map { name, value -> String in
                let encoded: String
                if name == "offset" { encoded = value ?? "null" } else { encoded = value.map(jsonString) ?? "null" }
                return "\"\(name)\":\(encoded)"
            }.joined(separator: ",")
            parts.append("\"message\":{\(body)}")
        } else {
            parts.append("\"message\":null")
        }
        parts.append("\"duplicates\":[" + duplicates.map(String.init).joined(separator: ",") + "]")
        return "{" + parts.joined(separator: ",") + "}"
    }

    static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Correct a transaction: its category, merchant or note, or say it duplicates nothing.",
        discussion: """
            What is set here is the person's: a later run over the same messages, 'spendlex categorize \
            --recompute' or a reparse never undoes it. The category must be one the categories file declares.
            """
    )

    @OptionGroup var store: StoreOption

    @OptionGroup var rules: RuleOptions

    @Argument(help: "The transaction's ledger id.")
    var id: Int64

    @Option(name: .long, help: ArgumentHelp("CATEGORY or CATEGORY/SUBCATEGORY.", valueName: "category"))
    var category: String?

    @Option(name: .long, help: ArgumentHelp("The merchant's name.", valueName: "name"))
    var merchant: String?

    @Option(name: .long, help: ArgumentHelp("A note of your own.", valueName: "text"))
    var note: String?

    @Flag(name: .long, help: "Remove the note.")
    var clearNote = false

    @Flag(name: .long, help: ArgumentHelp(
        "With --category: remember it for the merchant, as a row of your own categories file (categories.yaml beside the ledger), checked to change no other example's category."))
    var remember = false

    @Flag(name: .long, help: "It duplicates nothing: undo its link to a primary, and keep it unlinked.")
    var notDuplicate = false

    func validate() throws {
        if note != nil && clearNote { throw ValidationError("--note and --clear-note cannot be used together") }
        if let merchant, merchant.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--merchant cannot be empty") }
        if category == nil && merchant == nil && note == nil && !clearNote && !notDuplicate {
            throw ValidationError("nothing to change: give --category, --merchant, --note, --clear-note or --not-duplicate")
        }
        if remember && category == nil { throw ValidationError("--remember remembers a --category for the merchant: give one") }
    }

    func run() throws {
        var edit = TransactionEdit(merchant: merchant?.trimmingCharacters(in: .whitespaces), notDuplicate: notDuplicate)
        if let note { edit.note = .some(note) } else if clearNote { edit.note = .some(nil) }
        if let category {
            let parts = category.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let subcategory = parts.count > 1 ? parts[1] : nil
            let declared = try rules.engine().rules.rules.categories
            guard let declaration = declared.first(where: { $0.name.value == parts[0] }) else {
                throw ValidationError("unknown category '\(parts[0])'; declared: " + declared.map(\.name.value).joined(separator: ", "))
            }
            if let subcategory, !declaration.subcategories.contains(where: { $0.value == subcategory }) {
                throw ValidationError("'\(parts[0])' has no subcategory '\(subcategory)'")
            }
            edit.category = (parts[0], subcategory)
        }
        let ledger = try store.open()
        let edited: StoredTransaction?
        do {
            guard try ledger.edit(transaction: id, edit) else {
                Stderr.write("error: the ledger has no transaction \(id)\n")
                throw ExitStatus.badInput
            }
            edited = try ledger.transaction(id: id)
        } catch let exit as ExitCode { throw exit } catch {
            Stderr.write("error: writing the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        if let edited {
            print(Show.text(transaction: edited, message: nil, duplicates: [], citesMessage: false), terminator: "")
        }
        if remember, let category = edit.category {
            guard let merchant = edited?.merchant, !merchant.isEmpty else {
                Stderr.write("error: transaction \(id) names no merchant to remember\n")
                throw ExitStatus.badInput
            }
            let row = RememberedCategories.Row(merchant: merchant, category: category.name, subcategory: category.subcategory)
            let file = try RememberedCategories.remember(row, ledger: try store.path(), bundled: try BundledRules.paths(given: rules.rules))
            print("remembered: \(merchant) is \([category.name, category.subcategory].compactMap { $0 }.joined(separator: " / ")), in \(file)")
        }
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the stored messages and transactions by their words and their meaning, with citations.",
        discussion: """
            By default both rankings are fused: the full-text index's (every word must be there, in the merchant, \
            category, note, subject, text or sender, any case, accents ignored, as the start of a word: "amazon" \
            finds AMAZONPAY; a word in the merchant or a note counts more than one in the text) and the meaning's \
            (a multilingual embedding model: "food delivery" finds SWIGGY, "pago de luz" the electricity bill, \
            "paisa bheja" money sent), hits whose merchant holds every word typed first. --exact ranks by words \
            alone, --semantic by meaning alone. Without the embedding model (scripts/dev model installs it) the \
            words alone rank, with a one-line notice. An argument of several words ("pune metro", quoted for the \
            shell) is a phrase of exact words; -word for a word that must not be there (after '--', so that it is \
            not read as an option: spendlex search -- netflix -refund). Each hit cites its message (file and byte \
            offset, or Message-ID) and shows the words around the match between « ».
            """
    )

    @OptionGroup var store: StoreOption

    @Argument(parsing: .remaining, help: "The words to find.")
    var words: [String]

    @Flag(help: "How to rank: --semantic (by meaning alone) or --exact (by words alone); both fused by default.")
    var mode: RankingFlag?

    enum RankingFlag: String, EnumerableFlag { case semantic, exact }

    @Option(name: .long, help: ArgumentHelp("At most this many hits.", valueName: "count"))
    var limit: Int = 20

    @Option(name: .long, help: "text, jsonl.")
    var format: SearchFormat?

    enum SearchFormat: String, ExpressibleByArgument, CaseIterable { case text, jsonl }

    func validate() throws {
        if words.isEmpty { throw ValidationError("give the words to find: spendlex search swiggy march") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        // An argument of several words is a phrase: the shell took away the quotes that said so
        // (`spendlex search "pune metro"`).
        let query = SearchQuery(words.map { word in
            word.contains(" ") && !word.contains("\"") ? "\"\(word)\"" : word
        }.joined(separator: " "))
        let meaning = words.joined(separator: " ")
        let asked: SearchMode = switch mode { case .semantic: .semantic; case .exact: .exact; case nil: .hybrid }
        var embedder: EmbeddingModel?
        if asked != .exact {
            let (model, missing) = SearchIndexing.model()
            if let missing {
                if asked == .semantic {
                    Stderr.write("error: --semantic needs the embedding model: \(missing)\n")
                    throw ExitStatus.findings
                }
                Stderr.write("note: searching by words only: \(missing)\n")
            }
            embedder = model
        }
        if query.match == nil {
            throw ValidationError("nothing to find in '\(words.joined(separator: " "))': give a word")
        }
        let ledger = try store.open()
        let results: SearchResults
        do {
            results = try ledger.search(meaning, words: query, mode: asked, embedder: embedder, limit: limit)
        } catch {
            Stderr.write("error: searching the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        let (hits, total) = (results.hits, results.total)
        switch format ?? (isatty(STDOUT_FILENO) == 1 ? .text : .jsonl) {
        case .jsonl:
            for hit in hits { print(Self.jsonLine(hit)) }
        case .text:
            for (index, hit) in hits.enumerated() {
                var head = "\(index + 1). "
                if let t = hit.transaction {
                    head += "transaction \(t.id)  \(t.date?.description ?? "-")  \(TransactionCells.amount(t))  \(t.merchant ?? "-")"
                    if let primary = t.duplicateOf { head += "  (duplicate of \(primary))" }
                } else {
                    head += "message (\(hit.message.status))"
                }
                if hit.score == nil, let similarity = hit.similarity { head += String(format: "  [meaning %.2f]", similarity) }
                print(head)
                print("   " + hit.snippet.replacingOccurrences(of: "\n", with: " "))
                print("   cited: \(hit.message.citation)" + (hit.message.sender.map { "  from \($0)" } ?? "")
                      + (hit.message.receivedAt.map { "  at " + TransactionWriter.timestamp($0) } ?? ""))
            }
            let how = switch results.mode { case .hybrid: "by words and meaning"; case .semantic: "by meaning"; case .exact: "by words" }
            print("\(hits.count) of \(total) hit\(total == 1 ? "" : "s"), \(how)")
        }
    }

    static func jsonLine(_ hit: SearchHit) -> String {
        var transaction = "null"
        if let t = hit.transaction {
            transaction = LedgerExporter(format: .jsonl).rows([t])
            if transaction.hasSuffix("\n") { transaction.removeLast() }
        }
        let m = hit.message
        let message = "{\"id\":\(ShowJSON.jsonString(m.id)),\"citation\":\(ShowJSON.jsonString(m.citation)),"
            + "\"file\":\(m.file.map(ShowJSON.jsonString) ?? "null"),\"offset\":\(m.offset.map(String.init) ?? "null"),"
            + "\"sender\":\(m.sender.map(ShowJSON.jsonString) ?? "null"),"
            + "\"received_at\":\(m.receivedAt.map { ShowJSON.jsonString(TransactionWriter.timestamp($0)) } ?? "null"),"
            + "\"status\":\(ShowJSON.jsonString(m.status))}"
        return "{\"score\":\(hit.score.map { String($0) } ?? "null"),\"similarity\":\(hit.similarity.map { String($0) } ?? "null"),\"snippet\":\(ShowJSON.jsonString(hit.snippet)),\"message\":\(message),\"transaction\":\(transaction)}"
    }
}

struct Balances: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Each account's latest known balance, and the gaps a missed alert leaves.",
        discussion: """
            The balance an alert stated ("Avl bal Rs 5,000") is kept with its transaction: for each account \
            (bank, card or account, currency) the latest one, what it is (a balance, a card's available limit, \
            an amount owed: told by how consecutive alerts chain), when, and its ledger id; the latest \
            statement closing balance beside it. A gap is two stated balances that the transactions between \
            them do not explain: an alert that never came, or a fee; the amount unexplained is given. Exports \
            to beancount and ledger-cli assert these balances (padding, with a comment, where a gap is).
            """
    )

    @OptionGroup var store: StoreOption

    @Option(name: .long, help: "text or json.")
    var format: Show.ShowFormat = .text

    func run() throws {
        let ledger = try store.open()
        let balances: AccountBalances
        do {
            balances = AccountBalances(transactions: try ledger.transactions(), statementBalances: try ledger.statementBalances())
        } catch {
            Stderr.write("error: reading the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        print(format == .json ? balances.json() : balances.text(), terminator: "")
    }
}

struct Recurring: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Subscriptions, bills and other payments that repeat, found in the ledger.",
        discussion: """
            Found from merchant, amount and cadence alone (weekly, fortnightly, monthly, quarterly, yearly), with \
            room for a payment a few days late and for a price that changed and then held: each with its typical \
            (latest) amount, the last and next expected date, its price changes, the occurrences it missed, whether \
            it still runs, and the ledger ids it was found from. Ordinary shopping, however often, is not one: its \
            amounts wander and its days fall at no cadence.
            """
    )

    @OptionGroup var store: StoreOption

    @Option(name: .long, help: "text or json.")
    var format: Show.ShowFormat = .text

    func run() throws {
        let ledger = try store.open()
        let recurring: RecurringPayments
        do { recurring = RecurringPayments(transactions: try ledger.transactions()) } catch {
            Stderr.write("error: reading the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        print(format == .json ? recurring.json() : recurring.text(), terminator: "")
    }
}

struct Ask: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a question about your money from the ledger, with the transactions it counted.",
        discussion: """
            Read without a network, in English or Spanish: how much was spent (on a category, at a \
            merchant, in a period), received, how many transactions, the biggest purchases, income against \
            spending by month. The answer gives the figure per currency (never added across currencies), the \
            query it ran, the merchants and the ledger ids it counted (spendlex show ID cites each one's \
            message). A phrase no merchant's name holds ("cab rides", "gym") is read by meaning with the \
            embedding model, when installed: the category its nearest merchants share, or those merchants, \
            always shown. A question it cannot read gets "I can't answer that" with examples of what it can \
            (exit 1).
            """
    )

    @OptionGroup var store: StoreOption

    @OptionGroup var rules: RuleOptions

    @Argument(help: "The question, e.g. \"how much did I spend on groceries in March?\"")
    var question: [String]

    @Option(name: .long, help: ArgumentHelp("The day periods are counted from (default: today).", valueName: "yyyy-mm-dd"))
    var today: String?

    @Option(name: .long, help: "text or json.")
    var format: Show.ShowFormat = .text

    func validate() throws {
        if question.isEmpty { throw ValidationError("ask a question: spendlex ask \"how much did I spend on groceries in March?\"") }
        if let today, LocalDate(iso: today) == nil { throw ValidationError("--today '\(today)' is not a day such as 2026-05-02") }
    }

    func run() throws {
        let day = today.flatMap(LocalDate.init(iso:)) ?? Recommend.today()
        let categories = CategoryList.of(try RuleLoader.load(paths: try BundledRules.paths(given: rules.rules)).0)
        let text = question.joined(separator: " ")
        let read: Question
        switch QuestionReader.read(text, today: day, categories: categories) {
        case .success(let question): read = question
        case .failure(let refusal):
            Stderr.write("\(refusal)\n")
            throw ExitStatus.findings
        }
        let ledger = try store.open()
        let answer: Answer
        // The model only matters for a merchant phrase no merchant's name holds; loading it is cheap
        // (its weights are mapped, not read).
        let embedder = read.merchant == nil ? nil : SearchIndexing.model().0
        do { answer = try ledger.answer(read, embedder: embedder) } catch {
            Stderr.write("error: reading the ledger failed: \(error)\n")
            throw ExitStatus.internalError
        }
        switch format {
        case .json: print(answer.json)
        case .text:
            if let notice = answer.notice { Stderr.write("note: \(notice)\n") }
            print(answer.text)
            if let reading = answer.reading {
                let nearest = reading.nearest.prefix(5).map { neighbour in
                    "\(neighbour.merchant) (\(neighbour.label ?? "uncategorized"), \(String(format: "%.3f", neighbour.similarity)))"
                }.joined(separator: ", ")
                let taken = !reading.stoodOut
                    ? "took nothing: no merchant's meaning stands out from the rest (median \(String(format: "%.3f", reading.median)))"
                    : "took " + (reading.category.map { "the category \($0)" } ?? "the merchants " + reading.merchants.joined(separator: ", "))
                print("read by meaning: no merchant's name holds \"\(reading.phrase)\"; \(taken); nearest: \(nearest)")
            }
            print("query: \(answer.query)")
            if !answer.merchants.isEmpty {
                let shown = answer.merchants.prefix(10).map { "\($0.name) (\($0.transactions))" }.joined(separator: ", ")
                print("merchants: " + shown + (answer.merchants.count > 10 ? ", and \(answer.merchants.count - 10) more" : ""))
            }
            let shown = answer.citations.prefix(50).map(String.init).joined(separator: ", ")
            print("counted: " + (answer.citations.isEmpty ? "none" : shown + (answer.citations.count > 50 ? ", … (\(answer.citations.count) in all; --format json lists them)" : "")))
        }
    }
}
