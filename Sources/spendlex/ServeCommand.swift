import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the ledger, parsing and the card advisor over HTTP (JSON).",
        discussion: """
            Binds to loopback (127.0.0.1) unless --host says otherwise. Every route but /health needs an \
            X-API-Key header with a key from `spendlex keys create`. The rules reload without a restart on \
            SIGHUP and when a rule file changes; a set with errors is refused and the previous one keeps \
            serving. POST /sync fetches the IMAP mailboxes listed in spendlex.yaml beside the ledger, and \
            --sync-every does so on a timer. The routes are described in openapi.yaml.

            With --people FOLDER instead of --store, it hosts several people, each with a ledger of their \
            own: they register or log in (POST /auth/register, /auth/login) and their keys reach their own \
            data only; `spendlex people` adds, removes and exports them and makes the operator's key.
            """
    )

    @Option(name: .customLong("store"), help: ArgumentHelp("The SQLite ledger (created if needed) (default: $SPENDLEX_STORE).", valueName: "file"))
    var storeOption: String?

    /// `--store`, else `SPENDLEX_STORE`; "" when neither (refused by `validate`).
    var store: String { storeOption ?? ProcessInfo.processInfo.environment["SPENDLEX_STORE"] ?? "" }

    @Option(name: .customLong("people"), help: ArgumentHelp(
        "Host several people: the household's data folder (a directory and a ledger each), instead of --store.",
        valueName: "folder"))
    var people: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --people: who may register: open (anyone), invite (with a code from `spendlex people invite`) or closed.",
        valueName: "mode"))
    var registration: String = RegistrationMode.invite.rawValue

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The TCP port.")
    var port = 8001

    @Option(name: .long, help: ArgumentHelp(
        "Rule files or folders: bank files, grammars, categories, cards (repeat for several).", valueName: "path"))
    var rules: [String] = []

    @Option(name: .long, help: ArgumentHelp("The wallet file the card advisor starts from.", valueName: "file"))
    var wallet: String?

    @Option(name: .long, help: ArgumentHelp(
        "The budgets file GET /budgets reads (default: $SPENDLEX_BUDGETS, else budgets.yaml beside the ledger).", valueName: "file"))
    var budgets: String?

    @Option(name: .customLong("max-body"), help: ArgumentHelp("The largest request body accepted.", valueName: "bytes"))
    var maxBody = 1 << 20

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Close a connection that sends no whole request line, header block or body chunk for this long (slow clients).",
        valueName: "seconds"))
    var idleTimeout = 30.0

    @Option(name: .customLong("body-timeout"), help: ArgumentHelp(
        "Answer 408 to a request whose body takes longer than this to arrive.", valueName: "seconds"))
    var bodyTimeout = 60.0

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "The most connections served at once; more wait to be accepted.", valueName: "n"))
    var maxConnections = 1024

    @Option(name: .customLong("match-limit"), help: ArgumentHelp(
        "PCRE2's backtracking steps for one pattern on one message; a message that needs more is answered as an error naming the rule. Default 1000000.",
        valueName: "steps"))
    var matchLimit: UInt32 = RuleEngine.defaultMatchLimit

    @Option(name: .customLong("max-mime-depth"), help: ArgumentHelp(
        "How deep a posted e-mail's multiparts may nest; deeper ones are skipped. Default 20.", valueName: "levels"))
    var maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(name: .long, help: ArgumentHelp(
        "POST each new transaction as JSON to this URL, retried with backoff (repeat for several).", valueName: "url"))
    var webhook: [String] = []

    @Option(name: .customLong("sync-every"), help: ArgumentHelp(
        "Fetch the mailboxes of spendlex.yaml (beside the ledger) this often, as POST /sync does: 30s, 15m, 1h.",
        valueName: "interval"))
    var syncEvery: String?

    /// `15m` → 900 seconds; `30s`, `2h`, a bare number of seconds.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        if let unit = text.last, let scale = units[unit] {
            return Double(text.dropLast()).map { $0 * scale }
        }
        return Double(text)
    }

    func validate() throws {
        if let syncEvery {
            guard let seconds = Self.seconds(syncEvery), seconds >= 1, seconds.isFinite else {
                throw ValidationError("--sync-every '\(syncEvery)' is not an interval such as 30s, 15m or 1h (at least 1s)")
            }
        }
        if let people {
            if people.isEmpty { throw ValidationError("--people needs a folder") }
            if storeOption != nil { throw ValidationError("--people hosts a ledger per person: give it or --store, not both") }
            // What belongs to one person's ledger has no owner in a household; webhooks would send
            // everyone's transactions to the operator's URL.
            for (given, option) in [(wallet != nil, "--wallet"), (budgets != nil, "--budgets"), (!webhook.isEmpty, "--webhook"),
                                    (syncEvery != nil, "--sync-every")] where given {
                throw ValidationError("\(option) is for a service serving one ledger, not with --people")
            }
            guard RegistrationMode(rawValue: registration) != nil else {
                throw ValidationError("--registration must be open, invite or closed")
            }
        } else if store.isEmpty {
            throw ValidationError("no ledger given: pass --store FILE (or --people FOLDER) or set SPENDLEX_STORE")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        for url in webhook where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--webhook '\(url)' is not an http:// or https:// URL")
        }
        guard maxBody > 0 else { throw ValidationError("--max-body must be positive") }
        guard idleTimeout >= 0.001, idleTimeout.isFinite else { throw ValidationError("--idle-timeout must be at least 0.001") }
        guard bodyTimeout >= 0.001, bodyTimeout.isFinite else { throw ValidationError("--body-timeout must be at least 0.001") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive") }
        guard matchLimit >= 1 else { throw ValidationError("--match-limit must be at least 1") }
        guard maxMIMEDepth >= 1 else { throw ValidationError("--max-mime-depth must be at least 1") }
        guard SpendlexService.logLevels.contains(logLevel) else {
            throw ValidationError("--log-level must be one of \(SpendlexService.logLevels.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let service: SpendlexService
        let rulePaths = people == nil ? RememberedCategories.paths(try BundledRules.paths(given: rules), ledger: store)
            : try BundledRules.paths(given: rules)
        let mailboxes = people == nil ? try PersonSettings.load(ledger: store)?.mailboxes ?? [] : []
        do {
            var configuration = ServiceConfiguration(
                host: host, port: port, storePath: store, rulePaths: rulePaths, walletPath: wallet, maxBodyBytes: maxBody,
                version: Spendlex.configuration.version)
            configuration.webhookURLs = webhook
            configuration.budgetsPath = budgets ?? ProcessInfo.processInfo.environment["SPENDLEX_BUDGETS"].flatMap { $0.isEmpty ? nil : $0 }
            configuration.idleTimeout = .milliseconds(Int64((idleTimeout * 1000).rounded()))
            configuration.bodyTimeout = .milliseconds(Int64((bodyTimeout * 1000).rounded()))
            configuration.maxConnections = maxConnections
            configuration.matchLimit = matchLimit
            configuration.maxMIMEDepth = maxMIMEDepth
            configuration.mailboxes = mailboxes
            if let people, let mode = RegistrationMode(rawValue: registration) {
                configuration.household = HouseholdConfiguration(folder: people, registration: mode)
            }
            if let syncEvery, let seconds = Self.seconds(syncEvery) {
                if configuration.mailboxes.isEmpty {
                    Stderr.write("warning: --sync-every: no mailboxes in \(PersonSettings.path(ledger: store)); nothing will be fetched\n")
                }
                configuration.syncInterval = .milliseconds(Int64((seconds * 1000).rounded()))
            }
            service = try SpendlexService(configuration: configuration)
        } catch {
            Stderr.write("error: \(error)\n")
            if case .rules = error { throw ExitStatus.findings }
            throw ExitStatus.badInput
        }
        let host = host
        do {
            try await service.run(logLevel: logLevel) { port in
                Stderr.write("spendlex serving on http://\(host):\(port)\n")
            }
        } catch {
            // The address taken, or the server failing while it ran.
            Stderr.write("error: cannot serve on \(host):\(port): \(error)\n")
            throw ExitStatus.internalError
        }
    }
}
