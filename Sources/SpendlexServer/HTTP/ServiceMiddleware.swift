import Foundation
import Hummingbird
import Logging
import NIOCore
import SpendlexEngine
import SpendlexStore

/// Turns every failure into an `APIError` with a stable code; anything unexpected is logged
/// and answered as a bare 500, so no internal detail or stack trace reaches a client.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let routes: KnownRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            if error.status.code >= 500 {
                context.logger.error("""
                    \(request.method) \(CardNumberMasker.mask(request.uri.path)): \(error.status.code) \(error.code): \
                    \(error.cause ?? error.message)
                    """)
            }
            throw error
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                let allowed = routes.methods(for: request.uri.path)
                guard allowed.isEmpty else {
                    var error = APIError(.methodNotAllowed, "method_not_allowed",
                                         "\(request.uri.path) takes \(allowed.joined(separator: ", ")), not \(request.method)")
                    error.headers[.allow] = allowed.joined(separator: ", ")
                    throw error
                }
                throw APIError(.notFound, "no_route", "no route for \(request.method) \(request.uri.path)")
            case .contentTooLarge:
                throw Self.tooLarge(context)
            default:
                throw APIError(error.status, "http_\(error.status.code)", error.body ?? error.status.reasonPhrase)
            }
        } catch is NIOTooManyBytesError {
            throw Self.tooLarge(context)
        } catch let error as DecodingError {
            throw APIError.invalidJSON(Self.describe(error))
        } catch {
            context.logger.error("""
                \(request.method) \(CardNumberMasker.mask(request.uri.path)): 500 internal_error: \
                \(String(describing: type(of: error))): \(CardNumberMasker.mask(String(describing: error)))
                """)
            throw APIError.internalError
        }
    }

    static func tooLarge(_ context: Context) -> APIError {
        APIError(.contentTooLarge, "body_too_large", "the request body is larger than \(context.maxUploadSize) bytes")
    }

    /// A decoding error in words, with the JSON path of the fault (never the value).
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context.codingPath)) is invalid"
        @unknown default: return "the body is not valid JSON"
        }
    }
}

/// Sets the body limit and body timeout of every request, and refuses at once a request whose declared
/// Content-Length is over it (without reading the body).
struct RequestLimitMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let maxBodyBytes: Int
    let bodyTimeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.maxUploadSize = maxBodyBytes
        context.bodyTimeout = bodyTimeout
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes {
            throw ErrorMiddleware.tooLarge(context)
        }
        return try await next(request, context)
    }
}

/// Requires a valid `X-API-Key` on every route but `/health` and the login and registration
/// routes: 401 without a key or with an unknown one, 403 with a revoked one. Keys are checked by
/// their SHA-256 hash. Sets the request's `Caller`: for a service serving one ledger, that
/// ledger with every right; for a household, the key's person, scope and data.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let hosting: Hosting
    /// Paths open without a key.
    static let openPaths: Set<String> = ["/health", "/auth/login", "/auth/register"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.openPaths.contains(request.uri.path) || request.uri.path == "/playground"
            || request.uri.path.hasPrefix("/playground/assets/") {
            return try await next(request, context)
        }
        guard let presented = request.headers.first(where: { $0.name.canonicalName == "x-api-key" })?.value,
              !presented.isEmpty else {
            throw APIError(.unauthorized, "unauthorized", "an X-API-Key header is required")
        }
        var context = context
        context.caller = try await Self.caller(presenting: presented, to: hosting)
        return try await next(request, context)
    }

    /// Who a presented key is: a key in force gives its caller; a revoked one 403, an unknown one 401.
    static func caller(presenting key: String, to hosting: Hosting) async throws -> Caller {
        let check: APIKeyCheck<Caller>
        do {
            check = try await offloaded {
                switch hosting {
                case .one(let tenant, let keys):
                    // The one ledger's keys reach all of it, to write.
                    return switch try keys.check(key) {
                    case .valid(let record): .valid(Caller(personID: nil, scope: .write, keyID: record.id, tenant: tenant))
                    case .revoked: .revoked
                    case .unknown: .unknown
                    }
                case .household(let household):
                    switch try household.key(presented: key) {
                    case .valid(let record):
                        let tenant = try record.personID.map(household.tenant(of:))
                        return .valid(Caller(personID: record.personID, scope: record.scope, keyID: record.id, tenant: tenant))
                    case .revoked: return .revoked
                    case .unknown: return .unknown
                    }
                }
            }
        } catch { throw APIError.storeFailed(error) }
        switch check {
        case .valid(let caller): return caller
        case .revoked: throw APIError(.forbidden, "key_revoked", "this API key was revoked")
        case .unknown: throw APIError(.unauthorized, "unauthorized", "unknown API key")
        }
    }
}

/// Logs each request once it is answered: method, path (card numbers masked; never the query,
/// the headers, the API key or the body), status and time taken. Hummingbird's own request log
/// would write the path as sent.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let path = CardNumberMasker.mask(request.uri.path)
        do {
            let response = try await next(request, context)
            log(request.method, path, response.status.code, since: start, context: context)
            return response
        } catch let error as any HTTPResponseError {
            log(request.method, path, error.status.code, since: start, context: context)
            throw error
        }
    }

    private func log(_ method: HTTPRequest.Method, _ path: String, _ status: Int, since start: ContinuousClock.Instant,
                     context: Context) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info("\(method) \(path) \(status) \(String(format: "%.1f", milliseconds)) ms")
    }
}
