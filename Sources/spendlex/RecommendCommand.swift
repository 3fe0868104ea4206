import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexRules
import SpendlexServer
import SpendlexStore

struct Recommend: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommend",
        abstract: "Recommend the card of your wallet that earns the most on a purchase.",
        discussion: """
            QUERY is plain English or Spanish: "groceries at Whole Foods for $150", "cena en Nobu 200 dólares", \
            "gas", "Netflix subscription". Flags override what the query says. Spending so far in each cap \
            period comes from --store (transactions on each card's last four digits), else from the wallet's \
            'spent'. Exits 64 on bad usage, 65 when the wallet is missing, empty or invalid, 1 when the card \
            rules have errors.
            """
    )

    @Argument(help: ArgumentHelp("What you are buying, where, for how much.", valueName: "query"))
    var query: String?

    @Option(name: .long, help: ArgumentHelp("The wallet file (default: $SPENDLEX_WALLET, else wallet.yaml).", valueName: "file"))
    var wallet: String?

    @Option(name: .long, help: ArgumentHelp(
        "A ledger (SQLite) with the spending so far, and the wallet the service keeps (default: $SPENDLEX_STORE).",
        valueName: "db"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("The day of the purchase (default: today).", valueName: "yyyy-mm-dd"))
    var date: String?

    @Option(name: .long, help: ArgumentHelp("Output: text or json.", valueName: "format"))
    var format: String = "text"

    @Option(name: .long, help: "The merchant.") var merchant: String?
    @Option(name: .long, help: "A category or subcategory (Groceries, Food & Dining, ...); wins over the merchant's.")
    var category: String?
    @Option(name: .long, help: "The merchant category code (four digits).") var mcc: String?
    @Option(name: .long, help: "The amount.") var amount: String?
    @Option(name: .long, help: "The currency of the amount (ISO 4217).") var currency: String?
    @Flag(name: .long, help: "The purchase is made online.") var online = false

    @Flag(name: .long, help: "Show every card's reward rows and values, the winner and the losers with why.")
    var explain = false

    @Option(name: .long, help: ArgumentHelp("Card rule files, points files and the categories file.", valueName: "path"))
    var rules: [String] = []

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
        if query == nil, merchant == nil, category == nil, mcc == nil {
            throw ValidationError("say what you are buying: a QUERY, or --merchant, --category or --mcc")
        }
        if let amount, PurchaseQueryParser.money(amount) == nil { throw ValidationError("--amount '\(amount)' is not an amount") }
        if let mcc, mcc.count != 4 || !mcc.allSatisfy(\.isNumber) { throw ValidationError("--mcc must be four digits") }
        if let date, LocalDate(iso: date) == nil { throw ValidationError("--date '\(date)' is not a date (yyyy-mm-dd)") }
        if let store, !FileManager.default.fileExists(atPath: store) { throw ValidationError("no ledger at '\(store)'") }
    }

    /// The card, points and categories files of the bundled rules (found as `BundledRules` finds them).
    func rulePaths() throws -> [String] {
        if !rules.isEmpty { return rules }
        guard let folder = try BundledRules.paths(given: []).first(where: { $0.hasSuffix("rules") }) else {
            throw ValidationError("no rules folder found: pass --rules")
        }
        return [folder + "/cards", folder + "/points.yaml", folder + "/categories.yaml"]
    }

    /// `--store`, else `SPENDLEX_STORE` when that ledger exists.
    var storePath: String? {
        if let store { return store }
        guard let path = ProcessInfo.processInfo.environment["SPENDLEX_STORE"], !path.isEmpty,
              FileManager.default.fileExists(atPath: path) else { return nil }
        return path
    }

    func run() throws {
        let (ruleSet, loadDiagnostics) = RuleLoader.load(paths: try rulePaths())
        // The categories file's tables resolve merchants, as they categorize parsed transactions.
        let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
        let categories = CategoryList.of(ruleSet)
        if let category, categories.resolve(category) == nil {
            throw ValidationError("unknown category '\(category)'; known: \(categories.allNames.joined(separator: ", "))")
        }
        let diagnostics = (loadDiagnostics + compileDiagnostics).filter { $0.severity == .error }
        if !diagnostics.isEmpty {
            Stderr.write(DiagnosticFormatter(sources: ruleSet.sources).format(diagnostics.sortedByLocation()))
            throw ExitStatus.findings
        }
        let store = storePath
        let named = wallet ?? ProcessInfo.processInfo.environment["SPENDLEX_WALLET"]
        let walletPath = named ?? "wallet.yaml"
        let loaded: Wallet
        if named == nil, !FileManager.default.fileExists(atPath: walletPath) {
            // No wallet file: the wallet the service keeps in the ledger, else how to make one.
            let cards: [WalletCardRecord]
            let preferences: [String: String]
            do {
                let ledger = try store.map { try Ledger(path: $0) }
                cards = try ledger?.walletCards() ?? []
                preferences = try ledger?.preferences() ?? [:]
            } catch {
                Stderr.write("spendlex: cannot read the wallet in the ledger '\(store ?? "")': \(error)\n")
                throw ExitStatus.internalError
            }
            guard !cards.isEmpty else {
                Stderr.write("""
                    error: no wallet: no wallet.yaml here, no --wallet or SPENDLEX_WALLET\(store.map { ", and no cards in the ledger \($0)" } ?? "").
                    Write one (examples/wallet.yaml shows every field: each card's id in rules/cards, its last digits) and \
                    pass --wallet FILE, or add cards to the ledger through the service (POST /wallet/cards) and pass --store.

                    """)
                throw ExitStatus.badInput
            }
            loaded = advisorWallet(cards: cards, preferences: preferences)
        } else {
            let (read, walletDiagnostics, source) = WalletFileReader.load(path: walletPath, cards: ruleSet.cards,
                                                                          programs: ruleSet.pointPrograms)
            if !walletDiagnostics.isEmpty {
                let sources = source.map { [walletPath: $0] } ?? [:]
                Stderr.write(DiagnosticFormatter(sources: sources).format(walletDiagnostics.sortedByLocation()))
            }
            guard let read, !walletDiagnostics.containsErrors else { throw ExitStatus.badInput }
            loaded = read
        }

        let request = PurchaseRequest(query: query, merchant: merchant, category: category, mcc: mcc, amount: amount,
                                      currency: currency, online: online)
        let advisor = CardAdvisor(rules: compiled)
        let purchase = advisor.resolve(request)
        let day = date.flatMap(LocalDate.init(iso:)) ?? Self.today()
        let ledger: Ledger?
        do {
            ledger = try store.map { try Ledger(path: $0) }
        } catch {
            Stderr.write("spendlex: cannot open the ledger '\(store ?? "")': \(error)\n")
            throw ExitStatus.internalError
        }
        let advice: Advice
        do {
            advice = try advisor.advise(purchase, wallet: loaded, on: day, spending: ledger)
        } catch let error as AdvisorError {
            Stderr.write("\(walletPath): error: \(error)\n")
            throw ExitStatus.badInput
        } catch {
            Stderr.write("spendlex: cannot read the spending so far: \(error)\n")
            throw ExitStatus.internalError
        }
        if format == "json" {
            print(AdviceWriter.json(advice), terminator: "")
        } else {
            print(explain ? AdviceWriter.explain(advice) : AdviceWriter.text(advice), terminator: "")
        }
    }

    static func today() -> LocalDate {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .current, from: Date())
        return LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)!
    }
}
