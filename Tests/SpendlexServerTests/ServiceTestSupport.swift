import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import SpendlexServer
import SpendlexStore
import Testing
import SpendlexTestSupport

/// The repository's root, for its rules and grammars.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A unique name without digits: paths are printed with card numbers masked, and a UUID's digits
/// joined by its dashes can read as one (a run of 13 or more that passes the Luhn check): a test
/// comparing a printed path with its folder's then failed, once in a few hundred runs.
func digitFreeUniqueName() -> String {
    String(UUID().uuidString.map { character in
        character.wholeNumberValue.map { Character(UnicodeScalar(UInt8(ascii: "g") + UInt8($0))) } ?? character
    })
}

/// A temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = TestScratch.root.appendingPathComponent("spendlex-server-\(digitFreeUniqueName())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A service on a temporary ledger, with one API key.
struct TestService {
    let folder: TemporaryFolder
    let service: SpendlexService
    let key: String
    /// This service's own reload requests (not SIGHUP, which would reach every test's service).
    let reloads = ReloadRequests()

    /// The bundled rules unless `rules` says otherwise; polling for rule changes every
    /// `watch` (nil: only reload requests).
    init(rules: [String]? = nil, watch: Duration? = nil, maxBodyBytes: Int = 1 << 20,
         configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        folder = try TemporaryFolder()
        let paths = rules ?? [repositoryRoot.appendingPathComponent("rules").path,
                              repositoryRoot.appendingPathComponent("grammars").path]
        var configuration = ServiceConfiguration(
            storePath: folder.path("ledger.sqlite"), rulePaths: paths, maxBodyBytes: maxBodyBytes, watchInterval: watch)
        configuration.reloadRequests = reloads
        configure(&configuration)
        service = try SpendlexService(configuration: configuration)
        key = try service.keys!.create(name: "test").key
    }

    /// Runs `test` against the service listening on loopback, over real HTTP.
    func live<Value: Sendable>(logger given: Logger? = nil,
                               _ test: @Sendable (LiveClient) async throws -> Value) async throws -> Value {
        var logger = given ?? Logger(label: "spendlex-test")
        if given == nil { logger.logLevel = .warning }
        defer { folder.remove() }
        return try await service.makeApplication(logger: logger).liveTest(test)
    }
}

/// A response's status and its body as JSON.
struct JSONReply: @unchecked Sendable {
    let status: HTTPResponse.Status
    let text: String
    let json: Any?

    subscript(_ key: String) -> Any? { (json as? [String: Any])?[key] }

    /// A value at a path of object keys: `reply.at("transaction", "id")`.
    func at(_ keys: String...) -> Any? {
        var value: Any? = json
        for key in keys { value = (value as? [String: Any])?[key] }
        return value
    }

    /// The stable error code of an error reply.
    var errorCode: String? { at("error", "code") as? String }
}

extension LiveClient {
    /// Sends a request with the API key (if any) and a JSON body (if any).
    func call(_ method: HTTPRequest.Method, _ uri: String, key: String?, json body: String? = nil,
              headers extra: [(String, String)] = []) async throws -> JSONReply {
        var headers = HTTPFields()
        if let key { headers[.init("X-API-Key")!] = key }
        if body != nil { headers[.contentType] = "application/json" }
        for (name, value) in extra { headers[.init(name)!] = value }
        return try await execute(uri: uri, method: method, headers: headers,
                                 body: body.map { ByteBuffer(string: $0) }) { response in
            let text = String(buffer: response.body)
            return JSONReply(status: response.status, text: text,
                             json: try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
        }
    }
}

/// A JSON string literal of `text`.
func jsonString(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
}
