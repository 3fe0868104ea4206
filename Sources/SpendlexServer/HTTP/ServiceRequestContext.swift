import Foundation
import Hummingbird
import NIOPosix
import SpendlexStore

/// What the service knows about one request besides the request itself.
public struct ServiceRequestContext: RequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The largest request body accepted, in bytes: beyond it, 413. Set by `RequestLimitMiddleware`.
    public var maxUploadSize: Int = 1 << 20
    /// How long reading a request's body may take: beyond it, 408. Set by `RequestLimitMiddleware`.
    public var bodyTimeout: Duration = .seconds(60)
    /// Who is asking, once `APIKeyMiddleware` has accepted their key.
    public var caller: Caller?

    /// The client's IP address ("" when unknown): what failed logins are counted by, besides the account.
    public var clientAddress: String = ""

    /// A context for a request from `source`.
    public init(source: Source) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? ""
    }
}

/// Who a request comes from: whose key, what it may do, whose data it reaches.
public struct Caller: Sendable {
    /// The key's person; nil for the operator's key, and for a service serving one ledger.
    public var personID: String?
    /// What the key may do.
    public var scope: KeyScope
    /// The key's row id (`POST /auth/logout` revokes it).
    public var keyID: Int64
    /// The data the key reaches: the person's, or the one ledger's; nil for the operator's key.
    var tenant: Tenant?
}

extension ServiceRequestContext {
    /// The caller's data: 403 `operator_key` for the operator's key, which reads no person's data.
    func tenant() throws(APIError) -> Tenant {
        guard let tenant = caller?.tenant else {
            throw APIError(.forbidden, "operator_key", "the operator's key manages people and reads no person's data")
        }
        return tenant
    }

    /// The caller's ledger (`tenant()`).
    func ledger() throws(APIError) -> Ledger { try tenant().ledger }
}

extension Request {
    /// The body as JSON of type `T`: 415 when it is declared as something else than JSON, 413
    /// over the body limit, 408 when it takes longer than `context.bodyTimeout` to arrive (a
    /// client trickling it byte by byte), 400 `invalid_json` with the path of the fault (never
    /// the value, which may be a card number) when it does not decode.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: ServiceRequestContext) async throws -> T {
        if let declared = headers[.contentType], !Self.isJSON(declared) {
            throw APIError(.unsupportedMediaType, "unsupported_media_type",
                           "the body must be JSON (Content-Type: application/json), not \(declared)")
        }
        let buffer = try await collectBody(context: context)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.invalidJSON(ErrorMiddleware.describe(error))
        }
    }

    /// Whether a Content-Type names JSON: `application/json` or a `+json` type, any parameters.
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// The whole body, within the body limit and the body timeout.
    private func collectBody(context: ServiceRequestContext) async throws -> ByteBuffer {
        let body = self.body
        let limit = context.maxUploadSize
        let timeout = context.bodyTimeout
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: limit) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw APIError(.requestTimeout, "body_timeout", "the request body did not arrive within \(timeout)")
            }
            return buffer
        }
    }
}

/// Runs blocking work (a SQLite read or write through GRDB, parsing) on NIO's thread pool, so
/// that it does not hold one of the few threads Swift concurrency runs every request on.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(work)
}
