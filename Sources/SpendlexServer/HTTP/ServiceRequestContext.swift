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
    /// The API key the request came with, once `APIKeyMiddleware` has accepted it.
    public var apiKey: APIKeyRecord?

    /// A context for a request from `source`.
    public init(source: Source) {
        coreContext = .init(source: source)
    }
}

extension Request {
    /// The body as JSON of type `T`: 413 over the body limit, 400 `invalid_json` with the
    /// path of the fault (never the value, which may be a card number) when it does not decode.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: ServiceRequestContext) async throws -> T {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.invalidJSON(ErrorMiddleware.describe(error))
        }
    }
}

/// Runs blocking work (a SQLite read or write through GRDB, parsing) on NIO's thread pool, so
/// that it does not hold one of the few threads Swift concurrency runs every request on.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(work)
}
