import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SpendlexServer
import Synchronization
import Testing

/// Webhooks: each new transaction POSTed as JSON to the configured URLs, retried with backoff.
@Suite("webhooks")
struct WebhookTests {
    /// What the receiving end got; it answers 503 to the first `failFirst` requests.
    final class Receiver: Sendable {
        let failFirst: Int
        let bodies = Mutex<[String]>([])
        let attempts = Mutex(0)

        init(failFirst: Int) {
            self.failFirst = failFirst
        }

        func application() -> some ApplicationProtocol {
            let router = Router()
            router.post("/hook") { [self] request, _ -> Response in
                let buffer = try await request.body.collect(upTo: 1 << 20)
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                if attempt <= failFirst { return Response(status: .serviceUnavailable) }
                bodies.withLock { $0.append(String(buffer: buffer)) }
                return Response(status: .ok)
            }
            var logger = Logger(label: "receiver")
            logger.logLevel = .warning
            return Application(router: router, logger: logger)
        }
    }

    @Test("a new transaction is POSTed once delivered, after a failed attempt; duplicates are not sent")
    func deliveredWithRetry() async throws {
        let receiver = Receiver(failFirst: 1)
        try await receiver.application().liveTest { hookClient in
            let port = try #require(hookClient.port)
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            var configuration = ServiceConfiguration(
                storePath: folder.path("ledger.sqlite"),
                rulePaths: [repositoryRoot.appendingPathComponent("rules").path,
                            repositoryRoot.appendingPathComponent("grammars").path])
            configuration.webhookURLs = ["http://localhost:\(port)/hook"]
            configuration.webhookRetryDelay = .milliseconds(50)
            configuration.reloadRequests = ReloadRequests()
            let service = try SpendlexService(configuration: configuration)
            let key = try service.keys!.create(name: "test").key
            var logger = Logger(label: "spendlex-test")
            logger.logLevel = .critical
            try await service.makeApplication(logger: logger).liveTest { client in
                let stored = try await client.call(.post, "/messages", key: key, json: MessagesRouteTests.metroSMS)
                let id = try #require(stored.at("transaction", "id") as? Int)
                _ = try await client.call(.post, "/messages", key: key, json: MessagesRouteTests.metroSMS)  // a duplicate
                // A bound, not a timing: under load the retry may take a while.
                let deadline = Date().addingTimeInterval(120)
                while receiver.bodies.withLock({ $0.isEmpty }) && Date() < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await Task.sleep(for: .milliseconds(300))
                let bodies = receiver.bodies.withLock { $0 }
                #expect(bodies.count == 1)
                #expect(receiver.attempts.withLock { $0 } == 2)
                let first = try #require(bodies.first)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
                #expect(json["event"] as? String == "transaction.created")
                let transaction = try #require(json["transaction"] as? [String: Any])
                #expect(transaction["id"] as? Int == id)
                #expect(transaction["amount"] as? String == "14.00")
            }
        }
    }
}
