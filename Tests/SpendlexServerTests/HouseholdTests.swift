import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SpendlexServer
import SpendlexStore
import Synchronization
import Testing

/// Counts the password hashes made and checked, around a real (cheapened) Argon2id.
final class CountingHasher: PasswordHashing {
    let inner = Argon2idHasher.fastest
    private let counts = Mutex((hashes: 0, verifications: 0))

    var hashes: Int { counts.withLock { $0.hashes } }
    var verifications: Int { counts.withLock { $0.verifications } }

    func hash(_ password: String) throws -> String {
        counts.withLock { $0.hashes += 1 }
        return try inner.hash(password)
    }

    func verify(_ password: String, against hash: String) -> Bool {
        counts.withLock { $0.verifications += 1 }
        return inner.verify(password, against: hash)
    }
}

/// A household service in a temporary folder, with the bundled rules.
struct TestHousehold {
    let folder: TemporaryFolder
    let service: SpendlexService
    let hasher = CountingHasher()

    init(registration: RegistrationMode = .invite, throttle: LoginThrottle = LoginThrottle()) throws {
        folder = try TemporaryFolder()
        var configuration = ServiceConfiguration(
            storePath: folder.path("not-used.sqlite"),
            rulePaths: [repositoryRoot.appendingPathComponent("rules").path, repositoryRoot.appendingPathComponent("grammars").path],
            watchInterval: nil)
        configuration.reloadRequests = ReloadRequests()
        configuration.household = HouseholdConfiguration(folder: folder.path("household"), registration: registration,
                                                         hasher: hasher, throttle: throttle)
        service = try SpendlexService(configuration: configuration)
    }

    var household: Household { service.household! }

    /// Adds a person and returns their id and a key with `scope`.
    func person(_ email: String, scope: KeyScope = .write) throws -> (id: String, key: String) {
        let person = try household.add(email: email, password: "password of \(email)")
        return (person.id, try household.makeKey(personID: person.id, scope: scope, name: "test").key)
    }

    func live<Value: Sendable>(_ test: @Sendable (LiveClient) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "spendlex-test")
        logger.logLevel = .warning
        defer { folder.remove() }
        return try await service.makeApplication(logger: logger).liveTest(test)
    }
}

@Suite("several people on one service")
struct HouseholdTests {
    /// Ana's money, each with a mark no other test data holds: none may appear in Bo's answers.
    static let anaSMS = #"{"sender": "JD-ICICIT", "channel": "sms", "text": "ICICI Bank Acct XX123 debited for Rs 731.00 on 09-May-26; ZANZIBARCAFE credited. UPI:000000000000."}"#
    static let anaMarks = ["ZANZIBARCAFE", "GOLDFINCH", "4321"]

    /// Every route a person's key can reach with an id or that lists rows, called with Bo's key on
    /// Ana's data: a 404, or Bo's own (empty) rows, never Ana's. The routes are read from the
    /// service itself, so a route added later without a check here fails this test.
    @Test("one person's key on another's data: 404 or their own rows, on every route that takes an id or lists rows")
    func isolation() async throws {
        let test = try TestHousehold()
        let ana = try test.person("ana@example.com")
        let bo = try test.person("bo@example.com")
        // Ana has a budgets file; Bo has none.
        try #"budgets: [{category: "Food & Dining", limit: 20000, currency: INR}]"#
            .write(toFile: try test.household.folders.budgetsPath(of: ana.id), atomically: true, encoding: .utf8)
        let access = test.service.routeAccess()
        try await test.live { client in
            let stored = try await client.call(.post, "/messages", key: ana.key, json: Self.anaSMS)
            #expect(stored["status"] as? String == "stored", "\(stored.text)")
            let transaction = try #require(stored.at("transaction", "id") as? Int)
            let mapping = try await client.call(.post, "/categories/mappings", key: ana.key,
                                                json: #"{"merchant": "ZANZIBARCAFE", "category": "Shopping"}"#)
            let mappingID = try #require(mapping["id"] as? Int, "\(mapping.text)")
            let card = try await client.call(.post, "/wallet/cards", key: ana.key,
                                             json: #"{"card": "amex-gold", "last4": "4321", "nickname": "GOLDFINCH"}"#)
            let cardID = try #require(card["id"] as? Int, "\(card.text)")
            #expect(try await client.call(.put, "/preferences", key: ana.key, json: #"{"preferred_program": "amex-mr"}"#).status == .ok)
            let own = try await client.call(.put, "/rules/mine/anas.yaml", key: ana.key, json: "{\"yaml\": \(jsonString(Self.ownBank))}")
            #expect(own.status == .ok, "\(own.text)")

            // What Bo gets on each route, with Ana's ids where a route takes one.
            typealias Check = @Sendable (JSONReply) -> Void
            let notFound: Check = { reply in #expect(reply.status == .notFound, "\(reply.text)") }
            let checks: [RouteSpec: (body: String?, path: String, check: Check)] = [
                RouteSpec("GET", "/transactions/{id}"): (nil, "/transactions/\(transaction)", notFound),
                RouteSpec("PUT", "/transactions/{id}"): (#"{"note": "mine now"}"#, "/transactions/\(transaction)", notFound),
                RouteSpec("DELETE", "/transactions/{id}"): (nil, "/transactions/\(transaction)", notFound),
                RouteSpec("DELETE", "/categories/mappings/{id}"): (nil, "/categories/mappings/\(mappingID)", notFound),
                RouteSpec("GET", "/wallet/cards/{id}"): (nil, "/wallet/cards/\(cardID)", notFound),
                RouteSpec("PUT", "/wallet/cards/{id}"): (#"{"card": "amex-gold", "last4": "9999"}"#, "/wallet/cards/\(cardID)", notFound),
                RouteSpec("DELETE", "/wallet/cards/{id}"): (nil, "/wallet/cards/\(cardID)", notFound),
                RouteSpec("PUT", "/wallet/cards/{id}/spending"): (#"{"spent": {"groceries": "1"}}"#, "/wallet/cards/\(cardID)/spending", notFound),
                RouteSpec("GET", "/transactions"): (nil, "/transactions?days=36500", { #expect($0["total"] as? Int == 0) }),
                RouteSpec("GET", "/transactions/export/csv"): (nil, "/transactions/export/csv", {
                    #expect($0.text.split(separator: "\n").count == 1, "\($0.text)")
                }),
                RouteSpec("GET", "/search"): (nil, "/search?q=zanzibarcafe", { #expect($0["total"] as? Int == 0) }),
                RouteSpec("GET", "/ask"): (nil, "/ask?q=how%20much%20did%20I%20spend%20in%20May%202026&today=2026-06-01", {
                    #expect($0.status == .ok || $0.status == .unprocessableContent, "\($0.text)")
                    #expect(($0["figures"] as? [[String: Any]])?.allSatisfy { ($0["amount"] as? String) == "0" } ?? true, "\($0.text)")
                }),
                RouteSpec("GET", "/categories/mappings"): (nil, "/categories/mappings", { #expect(($0["mappings"] as? [Any])?.isEmpty == true) }),
                RouteSpec("POST", "/categories/mappings"): (#"{"merchant": "SOMEWHERE", "category": "Travel"}"#, "/categories/mappings", {
                    #expect($0.status == .created)
                }),
                RouteSpec("GET", "/reports/summary"): (nil, "/reports/summary?period=year", { #expect($0.status == .ok) }),
                RouteSpec("GET", "/recurring"): (nil, "/recurring", { #expect($0.status == .ok) }),
                RouteSpec("GET", "/budgets"): (nil, "/budgets", { #expect($0.errorCode == "no_budgets", "\($0.text)") }),
                RouteSpec("GET", "/wallet/cards"): (nil, "/wallet/cards", { #expect(($0["cards"] as? [Any])?.isEmpty == true) }),
                RouteSpec("POST", "/wallet/cards"): (#"{"card": "amex-gold", "last4": "1111"}"#, "/wallet/cards", { #expect($0.status == .created) }),
                RouteSpec("GET", "/preferences"): (nil, "/preferences", { #expect($0["preferred_program"] is NSNull) }),
                RouteSpec("PUT", "/preferences"): (#"{"alert_threshold": "0.5"}"#, "/preferences", { #expect($0.status == .ok) }),
                RouteSpec("POST", "/recommendations"): (#"{"query": "groceries for $10", "date": "2026-05-02"}"#, "/recommendations", {
                    // Bo's wallet has only the card Bo added above, never Ana's.
                    #expect($0.status == .ok, "\($0.text)")
                }),
                // The same message as Ana's is new to Bo's ledger: no duplicate of Ana's transaction.
                RouteSpec("POST", "/messages"): (Self.anaSMS, "/messages", { #expect($0["status"] as? String == "stored", "\($0.text)") }),
                RouteSpec("POST", "/messages/batch"): ("{\"messages\": [\(Self.anaSMS)]}", "/messages/batch", {
                    #expect(($0["results"] as? [[String: Any]])?.first?["status"] as? String == "duplicate", "\($0.text)")
                }),
                // Ana's mapping (ZANZIBARCAFE → Shopping) does not categorize Bo's messages.
                RouteSpec("POST", "/parse"): (Self.anaSMS, "/parse", {
                    #expect($0.at("transaction", "category") as? String != "Shopping", "\($0.text)")
                }),
                RouteSpec("POST", "/sync"): (nil, "/sync", { #expect($0.errorCode == "no_mailboxes") }),
                RouteSpec("GET", "/me"): (nil, "/me", { #expect($0.at("person", "email") as? String == "bo@example.com") }),
                // Ana's own rule file is not Bo's to read, replace or remove.
                RouteSpec("GET", "/rules/mine"): (nil, "/rules/mine", { #expect($0["files"] as? [String] == []) }),
                RouteSpec("DELETE", "/rules/mine/{file}"): (nil, "/rules/mine/anas.yaml", notFound),
                RouteSpec("PUT", "/rules/mine/{file}"): (#"{"yaml": "grammar: bos\nfragments: {BO: 'x'}\n"}"#, "/rules/mine/bos.yaml", {
                    #expect($0.status == .ok, "\($0.text)")
                }),
            ]
            // Every route reaching a person's data has a check; the others reach none.
            for (route, rule) in access {
                if case .person = rule {
                    #expect(checks[route] != nil, "no isolation check for \(route)")
                } else {
                    #expect(["/", "/health", "/rules", "/rules/try", "/categories", "/me", "/auth/login", "/auth/register",
                             "/auth/logout", "/people", "/people/{person}", "/invitations"].contains(route.path)
                                || route.path.hasPrefix("/playground"), "\(route)")
                }
            }
            // Bo's calls in an order where Bo owns nothing yet when Ana's ids are tried (ids are
            // per ledger: Bo's first transaction is his own number 1), and Bo's own copy of Ana's
            // message comes last.
            let order = ["/transactions/{id}", "/categories/mappings/{id}", "/wallet/cards/{id}/spending", "/wallet/cards/{id}", "/rules/mine",
                         "/rules/mine/{file}",
                         "/transactions", "/transactions/export/csv", "/search", "/ask", "/categories/mappings", "/reports/summary",
                         "/recurring", "/budgets", "/wallet/cards", "/preferences", "/recommendations", "/parse", "/sync", "/me",
                         "/messages", "/messages/batch"]
            let methods = ["GET", "PUT", "DELETE", "POST"]
            let sequence = checks.keys.sorted {
                (order.firstIndex(of: $0.path) ?? order.count, methods.firstIndex(of: $0.method) ?? 4)
                    < (order.firstIndex(of: $1.path) ?? order.count, methods.firstIndex(of: $1.method) ?? 4)
            }
            #expect(Set(sequence.map(\.path)).isSubset(of: Set(order)))
            for route in sequence {
                let call = checks[route]!
                let reply = try await client.call(HTTPRequest.Method(rawValue: route.method)!, call.path, key: bo.key, json: call.body)
                call.check(reply)
                if route.path != "/messages" && route.path != "/messages/batch" && route.path != "/parse" {
                    for mark in Self.anaMarks {
                        #expect(!reply.text.lowercased().contains(mark.lowercased()), "\(route) showed Ana's \(mark): \(reply.text)")
                    }
                }
            }
            // Ana's data is as she left it.
            #expect(try await client.call(.get, "/transactions?days=36500", key: ana.key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/transactions/\(transaction)", key: ana.key)["note"] is NSNull)
            #expect((try await client.call(.get, "/categories/mappings", key: ana.key)["mappings"] as? [Any])?.count == 1)
            #expect(try await client.call(.get, "/wallet/cards/\(cardID)", key: ana.key)["nickname"] as? String == "GOLDFINCH")
            #expect(try await client.call(.get, "/preferences", key: ana.key)["preferred_program"] as? String == "amex-mr")
            #expect(try await client.call(.get, "/budgets", key: ana.key).status == .ok)
            #expect(try await client.call(.get, "/rules/mine", key: ana.key)["files"] as? [String] == ["anas.yaml"])
        }
    }

    @Test("a read key cannot write on any write route, and the operator's key reads no person's data")
    func scopes() async throws {
        let test = try TestHousehold()
        let ana = try test.person("ana@example.com")
        let reader = try test.household.makeKey(personID: ana.id, scope: .read, name: "widget").key
        let operatorKey = try test.household.makeKey(personID: nil, scope: .admin, name: "operator").key
        let access = test.service.routeAccess()
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: ana.key, json: Self.anaSMS)
            for (route, rule) in access {
                let path = route.path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{person}", with: ana.id)
                    .replacingOccurrences(of: "{file}", with: "any.yaml")
                let method = HTTPRequest.Method(rawValue: route.method)!
                switch rule {
                case .person(.write):
                    let reply = try await client.call(method, path, key: reader, json: "{}")
                    #expect(reply.status == .forbidden && reply.errorCode == "insufficient_scope", "\(route): \(reply.text)")
                case .person:
                    let reply = try await client.call(method, path, key: operatorKey, json: "{}")
                    #expect(reply.status == .forbidden && reply.errorCode == "operator_key", "\(route): \(reply.text)")
                    #expect(!reply.text.contains("ZANZIBARCAFE"))
                case .admin:
                    for key in [reader, ana.key] {
                        let reply = try await client.call(method, path, key: key, json: "{}")
                        #expect(reply.status == .forbidden, "\(route): \(reply.text)")
                    }
                case .open, .shared:
                    break
                }
                if case .person = rule {
                    let reply = try await client.call(method, path, key: operatorKey, json: "{}")
                    #expect(reply.errorCode == "operator_key", "\(route)")
                }
            }
            // The read key reads.
            #expect(try await client.call(.get, "/transactions?days=36500", key: reader)["total"] as? Int == 1)
            #expect(try await client.call(.post, "/parse", key: reader, json: Self.anaSMS).status == .ok)
            // The operator lists people, never their money.
            let people = try await client.call(.get, "/people", key: operatorKey)
            #expect((people["people"] as? [[String: Any]])?.map { $0["email"] as? String } == ["ana@example.com"])
        }
    }

    @Test("1,000 wrong passwords from one address: 429 after the limit, no hash checked then; the right one works after the window")
    func throttling() async throws {
        // A clock the test moves on: the window passes when the test says, however slow the machine.
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        let test = try TestHousehold(throttle: LoginThrottle(limit: 10, addressLimit: 2_000, window: .seconds(900),
                                                             clock: { start + elapsed.withLock { $0 } }))
        _ = try test.person("ana@example.com")
        let hasher = test.hasher
        try await test.live { client in
            let started = hasher.verifications
            var statuses: [HTTPResponse.Status: Int] = [:]
            var retryAfter: Set<String> = []
            for attempt in 0..<1_000 {
                let reply = try await client.execute(
                    uri: "/auth/login", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"email": "ana@example.com", "password": "guess \#(attempt)"}"#)) { response in
                    (response.status, response.headers[.retryAfter])
                }
                statuses[reply.0, default: 0] += 1
                if let after = reply.1 { retryAfter.insert(after) }
            }
            #expect(statuses[.unauthorized] == 10)
            #expect(statuses[.tooManyRequests] == 990)
            #expect(!retryAfter.isEmpty && retryAfter.allSatisfy { (Int($0) ?? 0) >= 1 })
            // Refused attempts cost no Argon2id: only the 10 within the limit were checked.
            #expect(hasher.verifications - started == 10)
            // The right password is refused too while the window lasts…
            let right = #"{"email": "ana@example.com", "password": "password of ana@example.com"}"#
            #expect(try await client.call(.post, "/auth/login", key: nil, json: right).status == .tooManyRequests)
            // …and works once it has passed.
            elapsed.withLock { $0 = .seconds(901) }
            let login = try await client.call(.post, "/auth/login", key: nil, json: right)
            #expect(login.status == .ok, "\(login.text)")
            let key = try #require(login["key"] as? String)
            #expect(try await client.call(.get, "/me", key: key).at("person", "email") as? String == "ana@example.com")
        }
    }

    @Test("an unknown e-mail costs one password check, as a wrong password does, and gets the same answer")
    func noEnumeration() async throws {
        let test = try TestHousehold()
        _ = try test.person("ana@example.com")
        let hasher = test.hasher
        try await test.live { client in
            let before = hasher.verifications
            let wrong = try await client.call(.post, "/auth/login", key: nil, json: #"{"email": "ana@example.com", "password": "not her password"}"#)
            let afterWrong = hasher.verifications
            let unknown = try await client.call(.post, "/auth/login", key: nil, json: #"{"email": "nobody@example.com", "password": "not her password"}"#)
            let afterUnknown = hasher.verifications
            #expect(afterWrong - before == 1)
            #expect(afterUnknown - afterWrong == 1)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrong.text == unknown.text)
        }
    }

    @Test("registration: invite-only takes a valid invitation once; a taken address and a bad code get one answer")
    func registration() async throws {
        let test = try TestHousehold(registration: .invite)
        let code = try test.household.invite(email: nil)
        try await test.live { client in
            let noCode = try await client.call(.post, "/auth/register", key: nil, json: #"{"email": "cy@example.com", "password": "long enough"}"#)
            #expect(noCode.errorCode == "invitation_required")
            let made = try await client.call(.post, "/auth/register", key: nil,
                                             json: #"{"email": "cy@example.com", "password": "long enough", "invitation": "\#(code)", "device": "phone"}"#)
            #expect(made.status == .created, "\(made.text)")
            #expect(made.at("person", "email") as? String == "cy@example.com")
            let again = try await client.call(.post, "/auth/register", key: nil,
                                              json: #"{"email": "dee@example.com", "password": "long enough", "invitation": "\#(code)"}"#)
            let forged = try await client.call(.post, "/auth/register", key: nil,
                                               json: #"{"email": "dee@example.com", "password": "long enough", "invitation": "inv_nothing"}"#)
            #expect(again.errorCode == "cannot_register" && forged.text == again.text, "\(again.text) \(forged.text)")
            let short = try await client.call(.post, "/auth/register", key: nil, json: #"{"email": "e@example.com", "password": "short"}"#)
            #expect(short.status == .unprocessableContent)
            let key = try #require(made["key"] as? String)
            #expect(try await client.call(.post, "/auth/logout", key: key).status == .noContent)
            #expect(try await client.call(.get, "/me", key: key).errorCode == "key_revoked")
        }
    }

    @Test("guessing invitation codes is throttled as logins are: 429 after the limit, no password hashed then")
    func registrationThrottled() async throws {
        let test = try TestHousehold(registration: .invite, throttle: LoginThrottle(limit: 3, addressLimit: 5))
        let hasher = test.hasher
        // The household made one hash at start: its decoy for unknown e-mails.
        let before = hasher.hashes
        try await test.live { client in
            var statuses: [HTTPResponse.Status] = []
            for guess in 0..<8 {
                let reply = try await client.call(.post, "/auth/register", key: nil,
                                                  json: #"{"email": "eve\#(guess)@example.com", "password": "long enough", "invitation": "inv_\#(guess)"}"#)
                statuses.append(reply.status)
            }
            #expect(statuses == Array(repeating: .conflict, count: 5) + Array(repeating: .tooManyRequests, count: 3), "\(statuses)")
            #expect(hasher.hashes - before == 5)
        }
    }

    @Test("removing a person leaves none of their rows or files")
    func removal() async throws {
        let test = try TestHousehold()
        let ana = try test.person("ana@example.com")
        let bo = try test.person("bo@example.com")
        let operatorKey = try test.household.makeKey(personID: nil, scope: .admin, name: "operator").key
        let folders = test.household.folders
        let directory = test.household.directory
        try await test.live { client in
            for key in [ana.key, bo.key] { _ = try await client.call(.post, "/messages", key: key, json: Self.anaSMS) }
            _ = try await client.call(.post, "/wallet/cards", key: ana.key, json: #"{"card": "amex-gold", "last4": "4321"}"#)
            try "budgets: []".write(toFile: try folders.budgetsPath(of: ana.id), atomically: true, encoding: .utf8)
            let anaFolder = folders.root.appendingPathComponent("people").appendingPathComponent(ana.id)
            #expect(FileManager.default.fileExists(atPath: anaFolder.appendingPathComponent("ledger.sqlite").path))
            #expect(try await client.call(.delete, "/people/\(ana.id)", key: operatorKey).status == .noContent)
            #expect(try await client.call(.delete, "/people/\(ana.id)", key: operatorKey).status == .notFound)
            #expect(!FileManager.default.fileExists(atPath: anaFolder.path))
            #expect(try directory.person(id: ana.id) == nil)
            #expect(try directory.keys(personID: ana.id).isEmpty)
            #expect(try directory.login(email: "ana@example.com") == nil)
            // No row of hers in the directory's tables, in any column.
            let dump = try String(contentsOfFile: folders.directoryPath, encoding: .isoLatin1)
            #expect(!dump.contains(ana.id) && !dump.contains("ana@example.com"))
            #expect(try await client.call(.get, "/transactions", key: ana.key).status == .unauthorized)
            // Bo is untouched.
            #expect(try await client.call(.get, "/transactions?days=36500", key: bo.key)["total"] as? Int == 1)
        }
    }

    /// A bank file of Ana's own, for a credit union the bundled rules do not know (the playground
    /// tests' file).
    static let ownBank = PlaygroundTests.bank()

    @Test("a person's own rule files apply to their messages alone; a file that breaks their set is refused and not kept")
    func ownRules() async throws {
        let test = try TestHousehold()
        let ana = try test.person("ana@example.com")
        let bo = try test.person("bo@example.com")
        let message = #"{"sender": "SAMPLECU", "text": "SampleCU: card purchase of $41.20 at HARDWARE BARN."}"#
        try await test.live { client in
            let saved = try await client.call(.put, "/rules/mine/samplecu.yaml", key: ana.key, json: "{\"yaml\": \(jsonString(Self.ownBank))}")
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(saved["banks"] as? [String] == ["samplecu"])
            let hers = try await client.call(.post, "/parse", key: ana.key, json: message)
            #expect(hers["rule"] as? String == "samplecu.card.debit", "\(hers.text)")
            #expect(hers.at("transaction", "merchant") as? String == "HARDWARE BARN")
            let his = try await client.call(.post, "/parse", key: bo.key, json: message)
            #expect(his["rule"] as? String != "samplecu.card.debit", "\(his.text)")
            #expect((try await client.call(.get, "/rules", key: bo.key)["banks"] as? [[String: Any]])?.contains { $0["id"] as? String == "samplecu" } == false)
            #expect((try await client.call(.get, "/rules", key: ana.key)["banks"] as? [[String: Any]])?.contains { $0["id"] as? String == "samplecu" } == true)

            // A broken file: 422 with its location under mine/, nothing saved, her set unchanged.
            let broken = try await client.call(.put, "/rules/mine/broken.yaml", key: ana.key,
                                               json: #"{"yaml": "bank: Broken\nid: broken\nparsers:\n  - id: broken.x\n    pattern: '(unclosed'\n"}"#)
            #expect(broken.status == .unprocessableContent && broken.errorCode == "invalid_rules", "\(broken.text)")
            #expect((broken.at("error", "message") as? String)?.contains("mine/broken.yaml:") == true, "\(broken.text)")
            #expect(!broken.text.contains(test.folder.url.path))
            #expect(try await client.call(.get, "/rules/mine", key: ana.key)["files"] as? [String] == ["samplecu.yaml"])
            #expect(try await client.call(.put, "/rules/mine/..%2Fescape.yaml", key: ana.key, json: #"{"yaml": ""}"#).status != .ok)
            #expect(try await client.call(.get, "/rules/mine", key: bo.key)["files"] as? [String] == [])

            #expect(try await client.call(.delete, "/rules/mine/samplecu.yaml", key: ana.key).status == .noContent)
            #expect(try await client.call(.delete, "/rules/mine/samplecu.yaml", key: ana.key).status == .notFound)
            #expect(try await client.call(.post, "/parse", key: ana.key, json: message)["rule"] as? String != "samplecu.card.debit")
        }
    }

    @Test("50 people posting at once: every message stored once, in its owner's ledger only")
    func manyAtOnce() async throws {
        let test = try TestHousehold()
        let people = try (0..<50).map { try test.person("person\($0)@example.com") }
        let service = test.service
        var logger = Logger(label: "spendlex-test")
        logger.logLevel = .warning
        let port = Mutex(0)
        let ready = AsyncStream<Void>.makeStream()
        let application = service.makeApplication(logger: logger) { bound in
            port.withLock { $0 = bound }
            ready.continuation.yield()
        }
        defer { test.folder.remove() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.runService() }
            for await _ in ready.stream { break }
            let base = "http://127.0.0.1:\(port.withLock { $0 })"
            // A connection per person, and room to wait for one on a loaded machine (the pool's
            // wait counts against the connect timeout, 10 s by default).
            var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(600), read: .seconds(600)))
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 50
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            // Each person posts 4 messages: 3 of their own (their number in the amount) and one every
            // person posts, all at once. The client is shut down whatever happens (its deinit traps
            // otherwise); a request may wait long on a loaded machine: what counts is what is stored.
            do {
                try await withThrowingTaskGroup(of: Void.self) { posts in
                    for (index, person) in people.enumerated() {
                        for message in 0..<4 {
                            posts.addTask {
                                let text = message == 3 ? Self.anaSMS
                                    : #"{"sender": "JD-ICICIT", "channel": "sms", "text": "ICICI Bank Acct XX123 debited for Rs \#(index + 1)\#(message)7.00 on 0\#(message + 1)-May-26; SHOP\#(index) credited. UPI:10000000000\#(message)."}"#
                                var request = HTTPClientRequest(url: base + "/messages")
                                request.method = .POST
                                request.headers.add(name: "X-API-Key", value: person.key)
                                request.headers.add(name: "Content-Type", value: "application/json")
                                request.body = .bytes(ByteBuffer(string: text))
                                let response = try await client.execute(request, timeout: .seconds(600))
                                let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
                                #expect(response.status == .created, "person \(index) message \(message): \(response.status) \(body)")
                            }
                        }
                    }
                    try await posts.waitForAll()
                }
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            group.cancelAll()
        }
        for (index, person) in people.enumerated() {
            let ledger = try test.household.tenant(of: person.id).ledger
            let stored = try ledger.transactions()
            #expect(stored.count == 4, "person \(index): \(stored.count)")
            let merchants = Set(stored.compactMap(\.merchant))
            #expect(merchants.allSatisfy { $0 == "ZANZIBARCAFE" || $0 == "SHOP\(index)" }, "person \(index): \(merchants)")
        }
    }
}
