import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexServer
import Testing
import Yams

/// openapi.yaml lists exactly the routes the server registers, every one of them is served,
/// and the document is valid OpenAPI.
@Suite("openapi.yaml")
struct OpenAPITests {
    static let document = repositoryRoot.appendingPathComponent("openapi.yaml")

    /// (method, path) of every operation in the document.
    static func documentedRoutes() throws -> [RouteSpec] {
        let text = try String(contentsOf: document, encoding: .utf8)
        let root = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(root["paths"] as? [String: Any])
        var routes: [RouteSpec] = []
        for (path, item) in paths {
            let operations = try #require(item as? [String: Any])
            for method in ["get", "put", "post", "delete", "patch", "head", "options"] where operations[method] != nil {
                routes.append(RouteSpec(method.uppercased(), path))
            }
        }
        return routes.sorted()
    }

    @Test("the routes documented are the routes registered, both ways")
    func sameRoutes() throws {
        let test = try TestService()
        defer { test.folder.remove() }
        let registered = Set(test.service.makeRouter().routes)
        let documented = Set(try Self.documentedRoutes())
        #expect(registered.count == test.service.makeRouter().routes.count, "a route registered twice")
        #expect(documented.subtracting(registered).sorted() == [], "documented but not served")
        #expect(registered.subtracting(documented).sorted() == [], "served but not documented")
    }

    @Test("every documented route is routed by the live server (no no_route answer)")
    func everyRouteServed() async throws {
        let routes = try Self.documentedRoutes()
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            // Logging out revokes the key: last.
            for route in routes.sorted(by: { ($0.path == "/auth/logout" ? 1 : 0) < ($1.path == "/auth/logout" ? 1 : 0) }) {
                let path = route.path.replacingOccurrences(of: "{id}", with: "999999").replacingOccurrences(of: "{person}", with: "nobody")
                    .replacingOccurrences(of: "{file}", with: "any.yaml").replacingOccurrences(of: "{name}", with: "any.js")
                let reply = try await client.call(HTTPRequest.Method(route.method)!, path, key: key,
                                                  json: ["POST", "PUT"].contains(route.method) ? "{}" : nil)
                #expect(reply.errorCode != "no_route", "\(route): \(reply.text)")
                #expect(reply.status != .internalServerError, "\(route): \(reply.text)")
            }
        }
    }

    /// openapi-spec-validator (PyPI), found on PATH; CI installs it (.ci/run).
    static let validator: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/openapi-spec-validator"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    @Test("openapi-spec-validator accepts the document",
          .enabled(if: validator != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                   "openapi-spec-validator is not installed (pip install openapi-spec-validator)"))
    func validates() throws {
        let validator = try #require(Self.validator, "CI must have openapi-spec-validator (see .ci/run)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: validator)
        process.arguments = [Self.document.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("OK"), "\(text)")
    }
}
