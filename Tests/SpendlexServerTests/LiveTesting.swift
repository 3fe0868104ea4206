import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs `test` against this application listening on a free port of localhost, over real HTTP,
    /// as HummingbirdTesting's `.live` does, but with a client that waits `timeout` for each answer.
    /// `.live` waits 20 seconds, fixed: in CI every suite runs at once on two cores, and a request
    /// that compiles the bundled rules in a debug build was seen taking longer (`readTimeout` with
    /// nothing wrong, PlaygroundTests, 2026-11-28). A server that never answers still fails the test.
    func liveTest<Value: Sendable>(timeout: Duration = .seconds(300),
                                   _ test: @Sendable (LiveClient) async throws -> Value) async throws -> Value {
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let application = OnFreePort(base: self, listening: listening)
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var next = ports.makeAsyncIterator()
            guard let port = await next.next() else { throw LiveTestError.notListening }
            let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: timeout))
            client.connect()
            let value: Value
            do {
                value = try await test(LiveClient(client: client, port: port))
            } catch {
                try? await client.shutdown()
                await services.triggerGracefulShutdown()
                throw error
            }
            try await client.shutdown()
            await services.triggerGracefulShutdown()
            return value
        }
    }
}

enum LiveTestError: Error {
    /// The server stopped before it listened.
    case notListening
}

/// An application as it is, but bound to a free port of localhost, which it reports once listening.
private struct OnFreePort<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    let listening: AsyncStream<Int>.Continuation

    var responder: Responder {
        get async throws { try await base.responder }
    }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration.with(address: .hostname("localhost", port: 0)) }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        listening.yield(channel.localAddress?.port ?? 0)
        listening.finish()
    }
}

/// A client of a live test server: HummingbirdTesting's single-connection client, keeping the
/// connection alive between requests as `.live`'s does. (`TestClientProtocol` cannot be adopted
/// here: its `TestResponse` has no public initializer.)
struct LiveClient: Sendable {
    let client: TestClient
    /// The server's port.
    let port: Int?

    /// Sends a request and returns its response.
    @discardableResult
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> LiveResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
        return LiveResponse(status: response.status, headers: response.headers, body: response.body ?? ByteBuffer())
    }

    /// Sends a request and returns what `read` makes of its response.
    func execute<Value>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                        _ read: (LiveResponse) async throws -> Value) async throws -> Value {
        try await read(execute(uri: uri, method: method, headers: headers, body: body))
    }
}

/// A response as a live test reads it.
struct LiveResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}
