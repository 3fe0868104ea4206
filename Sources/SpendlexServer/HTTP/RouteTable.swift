import Foundation
import Hummingbird
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

/// Registers routes on the router and remembers each one, so that the OpenAPI document can
/// be checked against what the server really serves.
final class RouteTable {
    typealias Handler = @Sendable (Request, ServiceRequestContext) async throws -> Response
    let router: Router<ServiceRequestContext>
    let known = KnownRoutes()
    var routes: [RouteSpec] { known.all }

    init(router: Router<ServiceRequestContext>) {
        self.router = router
    }

    func get(_ path: String, _ handler: @escaping Handler) { add(.get, path, handler) }
    func post(_ path: String, _ handler: @escaping Handler) { add(.post, path, handler) }
    func put(_ path: String, _ handler: @escaping Handler) { add(.put, path, handler) }
    func delete(_ path: String, _ handler: @escaping Handler) { add(.delete, path, handler) }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        known.add(RouteSpec(method.rawValue, path))
        // Hummingbird writes a parameter `:id` where OpenAPI writes `{id}`.
        let routerPath = path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : String(part)
        }.joined(separator: "/")
        router.on(RouterPath(routerPath), method: method, use: handler)
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
