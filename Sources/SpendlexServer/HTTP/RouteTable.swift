import Foundation
import Hummingbird
import SpendlexStore
import Synchronization

/// One route: its method and its path in OpenAPI form (`/transactions/{id}`).
public struct RouteSpec: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// `GET`, `POST`, `PUT`, `DELETE`.
    public let method: String
    /// The path, parameters in braces.
    public let path: String

    /// A route by method and path.
    public init(_ method: String, _ path: String) {
        self.method = method
        self.path = path
    }

    /// `GET /transactions/{id}`.
    public var description: String { "\(method) \(path)" }

    public static func < (a: RouteSpec, b: RouteSpec) -> Bool { (a.path, a.method) < (b.path, b.method) }
}

/// The routes registered, for telling "no such path" (404) from "not with this method" (405).
final class KnownRoutes: Sendable {
    private let specs = Mutex<[RouteSpec]>([])

    func add(_ spec: RouteSpec) { specs.withLock { $0.append(spec) } }

    /// Every route, in registration order.
    var all: [RouteSpec] { specs.withLock { $0 } }

    /// The methods registered for a request path (`{id}` in a route matches any one segment).
    func methods(for path: String) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return all.filter { spec in
            let pattern = spec.path.split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == parts.count && zip(pattern, parts).allSatisfy { want, got in
                want == got || (want.hasPrefix("{") && want.hasSuffix("}") && !got.isEmpty)
            }
        }.map(\.method)
    }
}

/// Who may call a route, checked before its handler runs.
public enum RouteAccess: Sendable, Equatable {
    /// Anyone, without a key (`/health`, login, registration).
    case open
    /// Any key with at least this scope, the operator's too: what is shared (the rules, the
    /// declared categories, the caller's own key).
    case shared(KeyScope)
    /// A person's key with at least this scope, on their own data; the operator's key gets 403.
    case person(KeyScope)
    /// The operator's key only: managing people.
    case admin

    /// GET reads a person's data, every other method changes it: the default of a route.
    static func person(for method: HTTPRequest.Method) -> RouteAccess {
        method == .get ? .person(.read) : .person(.write)
    }

    /// Whether a caller may call the route; throws 403 with why not.
    func check(_ caller: Caller?) throws(APIError) {
        switch self {
        case .open:
            return
        case .shared(let scope), .person(let scope):
            guard let caller else { throw APIError(.unauthorized, "unauthorized", "an X-API-Key header is required") }
            if case .person = self, caller.tenant == nil {
                throw APIError(.forbidden, "operator_key", "the operator's key manages people and reads no person's data")
            }
            guard caller.scope >= scope else {
                throw APIError(.forbidden, "insufficient_scope", "this key's scope is \(caller.scope.rawValue); this route needs \(scope.rawValue)")
            }
        case .admin:
            guard let caller, caller.scope == .admin, caller.tenant == nil else {
                throw APIError(.forbidden, "insufficient_scope", "this route is the operator's: it needs the operator's admin key")
            }
        }
    }
}

/// Registers routes on the router and remembers each one, so that the OpenAPI document can
/// be checked against what the server really serves, and who may call each.
final class RouteTable {
    typealias Handler = @Sendable (Request, ServiceRequestContext) async throws -> Response
    let router: Router<ServiceRequestContext>
    let known = KnownRoutes()
    var routes: [RouteSpec] { known.all }
    /// Who may call each route.
    private(set) var access: [RouteSpec: RouteAccess] = [:]

    init(router: Router<ServiceRequestContext>) {
        self.router = router
    }

    func get(_ path: String, access: RouteAccess? = nil, _ handler: @escaping Handler) { add(.get, path, access, handler) }
    func post(_ path: String, access: RouteAccess? = nil, _ handler: @escaping Handler) { add(.post, path, access, handler) }
    func put(_ path: String, access: RouteAccess? = nil, _ handler: @escaping Handler) { add(.put, path, access, handler) }
    func delete(_ path: String, access: RouteAccess? = nil, _ handler: @escaping Handler) { add(.delete, path, access, handler) }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ given: RouteAccess?, _ handler: @escaping Handler) {
        let spec = RouteSpec(method.rawValue, path)
        known.add(spec)
        let access = given ?? .person(for: method)
        self.access[spec] = access
        // Hummingbird writes a parameter `:id` where OpenAPI writes `{id}`.
        let routerPath = path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : String(part)
        }.joined(separator: "/")
        router.on(RouterPath(routerPath), method: method) { request, context in
            try access.check(context.caller)
            return try await handler(request, context)
        }
    }
}

/// JSON responses with the service's encoder.
enum JSONResponse {
    /// `value` as JSON with `status`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
