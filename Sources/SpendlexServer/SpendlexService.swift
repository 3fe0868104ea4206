import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SpendlexEngine
import SpendlexMail
import SpendlexRules
import SpendlexMeaning
import SpendlexStore
import SpendlexSync

/// How the service is set up: where it listens, its ledger, rules and wallet, its limits.
public struct ServiceConfiguration: Sendable {
    /// The address to bind: loopback unless told otherwise.
    public var host: String
    /// The TCP port; 0 picks a free one.
    public var port: Int
    /// The SQLite ledger (created if needed).
    public var storePath: String
    /// Rule files and folders: bank files, grammars, the categories file, card files.
    public var rulePaths: [String]
    /// The wallet file the card advisor starts from, if any.
    public var walletPath: String?
    /// The person's budgets file, read at each GET /budgets (edits apply at once); nil:
    /// budgets.yaml beside the ledger.
    public var budgetsPath: String?
    /// The largest request body accepted, in bytes.
    public var maxBodyBytes: Int
    /// How often the rule files are checked for changes; nil: never (SIGHUP still reloads).
    public var watchInterval: Duration?
    /// What else reloads the rules; nil: SIGHUP (tests give each service its own source).
    public var reloadRequests: ReloadRequests?
    /// The version `GET /` reports.
    public var version: String
    /// Where each new transaction is POSTed as JSON (webhooks); none by default.
    public var webhookURLs: [String] = []
    /// The wait before a failed webhook delivery is tried again; it doubles at each try.
    public var webhookRetryDelay: Duration = .seconds(1)
    /// How long a connection may stay without a whole request part arriving (a request line
    /// and headers sent a byte at a time, or nothing at all) before it is closed.
    public var idleTimeout: Duration = .seconds(30)
    /// How long a request's body may take to arrive; beyond it, 408.
    public var bodyTimeout: Duration = .seconds(60)
    /// The most connections open at once; further ones wait in the listen backlog.
    public var maxConnections: Int = 1024
    /// How often the ledger's WAL size is checked; over `walLimit` bytes it is checkpointed
    /// and truncated.
    public var checkpointInterval: Duration = .seconds(10)
    /// The WAL size, in bytes, above which the service checkpoints it.
    public var walLimit: Int = 16 << 20
    /// PCRE2's backtracking steps for one pattern on one message (see `RuleEngine.matchLimit`).
    public var matchLimit: UInt32 = RuleEngine.defaultMatchLimit
    /// How deep a posted e-mail's multiparts may nest before the rest is skipped.
    public var maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth
    /// The IMAP mailboxes `POST /sync` fetches (the person's settings, `mailboxes:`).
    public var mailboxes: [PersonConfig.Mailbox] = []
    /// How often the mailboxes are fetched without being asked; nil: only on `POST /sync`.
    public var syncInterval: Duration?
    /// Set to host several people, each with a ledger of their own, instead of the one ledger at
    /// `storePath` (which is then not opened).
    public var household: HouseholdConfiguration?
    /// Set when serving the rule playground (`spendlex playground`): its page and rules folder.
    public var playground: PlaygroundConfiguration?
    /// Where the embedding model for search by meaning is looked for (`EmbeddingModel.defaultFolder()`:
    /// `SPENDLEX_MODEL_DIR`, else the user's data folder); without it `GET /search` ranks by words.
    public var embeddingModelFolder: String = EmbeddingModel.defaultFolder()

    /// A configuration; everything but the ledger has a default.
    public init(host: String = "127.0.0.1", port: Int = 8001, storePath: String,
                rulePaths: [String] = ["rules", "grammars"], walletPath: String? = nil, maxBodyBytes: Int = 1 << 20,
                watchInterval: Duration? = .seconds(1), version: String = "0.1.0") {
        self.host = host
        self.port = port
        self.storePath = storePath
        self.rulePaths = rulePaths
        self.walletPath = walletPath
        self.maxBodyBytes = maxBodyBytes
        self.watchInterval = watchInterval
        self.version = version
    }
}

/// How a service hosts several people (`serve --people FOLDER`).
public struct HouseholdConfiguration: Sendable {
    /// The data folder: `people.sqlite` (the directory) and `people/<id>/` (a ledger each).
    public var folder: String
    /// Who may register.
    public var registration: RegistrationMode
    /// How passwords are hashed (Argon2id; tests count or cheapen it).
    public var hasher: any PasswordHashing
    /// Failed logins allowed.
    public var throttle: LoginThrottle

    /// A household in `folder`; invitations only, Argon2id with libsodium's interactive limits,
    /// 10 failed logins an account and 100 an address in 15 minutes.
    public init(folder: String, registration: RegistrationMode = .invite, hasher: any PasswordHashing = Argon2idHasher(),
                throttle: LoginThrottle = LoginThrottle()) {
        self.folder = folder
        self.registration = registration
        self.hasher = hasher
        self.throttle = throttle
    }
}

/// Whose data a service serves: one ledger with its keys, or a household of people.
public enum Hosting: Sendable {
    /// One ledger; every key reaches all of it.
    case one(Tenant, keys: APIKeys)
    /// Several people, each with a ledger of their own and keys that reach only it.
    case household(Household)
}

/// Errors starting the service.
public enum ServiceError: Error, CustomStringConvertible {
    /// The rule files have errors: the service does not start on a broken set.
    case rules(RuleLoadError)
    /// The ledger, or a household's directory, could not be opened.
    case store(path: String, reason: String)
    /// The wallet file has errors (formatted diagnostics), or could not be imported.
    case wallet(String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .rules(let error): "the rules have errors:\n\(error.formatted)"
        case .store(let path, let reason): "cannot open the ledger \(path): \(reason)"
        case .wallet(let reason): "the wallet file: \(reason)"
        }
    }
}

/// The HTTP service: Hummingbird 2 routes over the live rules, the ledger and the card advisor.
public struct SpendlexService: Sendable {
    /// How it is set up.
    public let configuration: ServiceConfiguration
    /// Whose data it serves.
    public let hosting: Hosting
    /// The rules it parses with, reloaded while it runs (shared by everyone it hosts).
    public let rules: LiveRules
    /// Fetches the configured mailboxes, one sync at a time (`POST /sync`, `--sync-every`).
    let syncer: MailboxSyncer

    /// The one ledger it stores into and serves from; nil for a household.
    public var ledger: Ledger? {
        if case .one(let tenant, _) = hosting { return tenant.ledger }
        return nil
    }

    /// The one ledger's API keys; nil for a household (its keys are in its directory).
    public var keys: APIKeys? {
        if case .one(_, let keys) = hosting { return keys }
        return nil
    }

    /// The people it hosts; nil when it serves one ledger.
    public var household: Household? {
        if case .household(let household) = hosting { return household }
        return nil
    }

    /// Opens the ledger (or the household's directory) and compiles the rules; throws when
    /// either fails.
    public init(configuration: ServiceConfiguration) throws(ServiceError) {
        self.configuration = configuration
        do { rules = try LiveRules(paths: configuration.rulePaths, matchLimit: configuration.matchLimit) } catch {
            throw .rules(error)
        }
        syncer = MailboxSyncer(mailboxes: configuration.mailboxes)
        if let household = configuration.household {
            do {
                hosting = .household(try Household(folder: URL(fileURLWithPath: household.folder),
                                                   registration: household.registration, hasher: household.hasher,
                                                   throttle: household.throttle, rules: rules,
                                                   maxMIMEDepth: configuration.maxMIMEDepth))
            } catch {
                throw .store(path: household.folder, reason: "\(error)")
            }
            return
        }
        let ledger: Ledger
        do { ledger = try Ledger(path: configuration.storePath) } catch {
            throw .store(path: configuration.storePath, reason: "\(error)")
        }
        let budgetsPath = configuration.budgetsPath
            ?? URL(fileURLWithPath: configuration.storePath).deletingLastPathComponent().appendingPathComponent("budgets.yaml").path
        hosting = .one(Tenant(personID: nil, ledger: ledger, rules: rules, budgetsPath: budgetsPath,
                              maxMIMEDepth: configuration.maxMIMEDepth),
                       keys: APIKeys(ledger: ledger))
        if let walletPath = configuration.walletPath { try importWallet(walletPath, into: ledger) }
    }

    /// Imports a wallet file (`spendlex recommend`'s) into the ledger's wallet when that has
    /// no card yet: the file is where the wallet over HTTP starts. Its `spent` figures become
    /// spending corrections as of today; its preferences are taken where none are stored.
    private func importWallet(_ path: String, into ledger: Ledger) throws(ServiceError) {
        let ruleSet = rules.current.engine.rules.rules
        do {
            guard try ledger.walletCards().isEmpty else { return }
            let (loaded, diagnostics, source) = WalletFileReader.load(path: path, cards: ruleSet.cards,
                                                                      programs: ruleSet.pointPrograms)
            guard let loaded, !diagnostics.containsErrors else {
                let sources = source.map { [path: $0] } ?? [:]
                throw ServiceError.wallet(DiagnosticFormatter(sources: sources).format(diagnostics.sortedByLocation()))
            }
            for card in loaded.cards {
                let record = try ledger.addWalletCard(WalletCardFields(
                    card: card.card.value, last4: card.last4, nickname: card.nickname,
                    anniversary: card.anniversary?.description,
                    statementDay: card.statementDay, activated: card.activated))
                if !card.spent.isEmpty, let asOf = LocalDay(iso: today().description) {
                    try ledger.setWalletSpending(card: record.id, card.spent.mapValues {
                        SpendingCorrection(amount: $0.value, asOf: asOf)
                    })
                }
            }
            let stored = try ledger.preferences()
            var preferences: [String: String?] = [:]
            if stored[PreferencesBody.preferredProgramKey] == nil, let program = loaded.preferences.preferredProgram {
                preferences[PreferencesBody.preferredProgramKey] = program
            }
            if stored[PreferencesBody.alertThresholdKey] == nil {
                preferences[PreferencesBody.alertThresholdKey] = "\(loaded.preferences.alertThreshold)"
            }
            try ledger.setPreferences(preferences)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .wallet("cannot import \(path) into the ledger: \(error)")
        }
    }

    /// The router with every route and the middleware (errors, body limit, API keys, request log),
    /// and the routes it registered.
    public func makeRouter() -> (router: Router<ServiceRequestContext>, routes: [RouteSpec]) {
        makeRouter(webhooks: nil)
    }

    /// Who may call each route (what the router checks before a handler runs).
    public func routeAccess() -> [RouteSpec: RouteAccess] {
        let table = RouteTable(router: Router(context: ServiceRequestContext.self))
        addRoutes(to: table, webhooks: nil)
        return table.access
    }

    func makeRouter(webhooks: WebhookNotifier?) -> (router: Router<ServiceRequestContext>, routes: [RouteSpec]) {
        let router = Router(context: ServiceRequestContext.self)
        let table = RouteTable(router: router)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ErrorMiddleware(routes: table.known))
        router.add(middleware: RequestLimitMiddleware(maxBodyBytes: configuration.maxBodyBytes,
                                                      bodyTimeout: configuration.bodyTimeout))
        router.add(middleware: APIKeyMiddleware(hosting: hosting))
        addRoutes(to: table, webhooks: webhooks)
        return (router, table.routes)
    }

    private func addRoutes(to table: RouteTable, webhooks: WebhookNotifier?) {
        addServiceRoutes(to: table)
        addPeopleRoutes(to: table)
        addMessageRoutes(to: table, webhooks: webhooks)
        addTransactionRoutes(to: table)
        addSearchRoutes(to: table)
        addCategoryRoutes(to: table)
        addWalletRoutes(to: table)
        addRuleRoutes(to: table)
        addOwnRuleRoutes(to: table)
        addPlaygroundRoutes(to: table)
        addSyncRoutes(to: table)
    }

    /// The application: the router on the configured address, and the rule watcher.
    public func makeApplication(logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        var services: [any Service] = [RuleWatcher(rules: rules, interval: configuration.watchInterval,
                                                  requests: configuration.reloadRequests ?? .hangup, logger: logger)]
        if let ledger {
            services.append(LedgerCheckpointer(ledger: ledger, interval: configuration.checkpointInterval,
                                               threshold: configuration.walLimit, logger: logger))
        }
        if let interval = configuration.syncInterval, !configuration.mailboxes.isEmpty, let ledger {
            services.append(MailboxSyncService(syncer: syncer, rules: rules, ledger: ledger, interval: interval, logger: logger))
        }
        var webhooks: WebhookNotifier?
        // A household's transactions are its people's: no operator URL hears of them.
        if !configuration.webhookURLs.isEmpty, household == nil {
            let notifier = WebhookNotifier(urls: configuration.webhookURLs, retryDelay: configuration.webhookRetryDelay,
                                           logger: logger)
            services.append(notifier)
            webhooks = notifier
        }
        let idle = configuration.idleTimeout.components
        return Application(
            router: makeRouter(webhooks: webhooks).router,
            server: .http1(configuration: .init(idleTimeout: .nanoseconds(idle.seconds * 1_000_000_000
                                                                          + idle.attoseconds / 1_000_000_000))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "spendlex",
                                 availableConnectionsDelegate: .maximum(configuration.maxConnections, logger: logger)),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// The names of the log levels `run(logLevel:)` takes.
    public static let logLevels = Logger.Level.allCases.map(\.rawValue)

    /// Runs until SIGINT or SIGTERM, logging to stderr at `logLevel` (`info` if unknown);
    /// `onServerRunning` gets the port once the server listens.
    public func run(logLevel: String, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "spendlex") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        try await makeApplication(logger: logger, onServerRunning: onServerRunning).runService()
    }
}
