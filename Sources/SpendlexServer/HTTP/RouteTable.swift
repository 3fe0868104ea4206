import Foundation
import Hummingbird

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

/// Registers routes on the router and remembers each one, so that the OpenAPI document can
/// be checked against what the server really serves.
final class RouteTable {
    typealias Handler = @Sendable (Request, ServiceRequestContext) async throws -> Response
    let router: Router<ServiceRequestContext>
    private(set) var routes: [RouteSpec] = []

    init(router: Router<ServiceRequestContext>) {
        self.router = router
    }

    func get(_ path: String, _ handler: @escaping Handler) { add(.get, path, handler) }
    func post(_ path: String, _ handler: @escaping Handler) { add(.post, path, handler) }
    func put(_ path: String, _ handler: @escaping Handler) { add(.put, path, handler) }
    func delete(_ path: String, _ handler: @escaping Handler) { add(.delete, path, handler) }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        routes.append(RouteSpec(method.rawValue, path))
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
