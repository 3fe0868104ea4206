import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle

/// Posts each new transaction as JSON to the configured URLs, with retries and backoff.
///
/// `notify` only queues (the request that stored the transaction does not wait); the service
/// delivers in order, to each URL in turn. A delivery that fails (no connection, a timeout, a
/// 5xx, 408 or 429) is tried again after `retryDelay`, then twice that, and so on, up to
/// `attempts` times; any other 4xx is the receiver's refusal and is not retried. Every failure
/// is logged with the URL and the transaction's ledger id (never its body).
public final class WebhookNotifier: Service, Sendable {
    /// One event to deliver: its ledger id, for the log, and its JSON body.
    struct Event: Sendable {
        let transactionID: Int64
        let body: Data
    }

    let urls: [String]
    let attempts: Int
    let retryDelay: Duration
    let timeout: TimeAmount
    let logger: Logger
    private let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    /// Events queued beyond this many are dropped (and logged): a receiver that is down for long
    /// must not make the service grow without bound.
    static let queueLimit = 10_000

    /// A notifier for these URLs.
    public init(urls: [String], attempts: Int = 5, retryDelay: Duration = .seconds(1), timeout: TimeAmount = .seconds(10),
                logger: Logger) {
        self.urls = urls
        self.attempts = max(1, attempts)
        self.retryDelay = retryDelay
        self.timeout = timeout
        self.logger = logger
        (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
    }

    /// Queues a new transaction for delivery.
    func notify(_ transaction: TransactionBody) {
        guard !urls.isEmpty, let id = transaction.id else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        struct Payload: Encodable {
            let event: String
            let transaction: TransactionBody
        }
        guard let body = try? encoder.encode(Payload(event: "transaction.created", transaction: transaction)) else { return }
        if case .dropped = continuation.yield(Event(transactionID: id, body: body)) {
            logger.error("webhooks: queue full, transaction \(id) not delivered")
        }
    }

    /// Delivers queued events until the service shuts down; then stops taking new ones.
    public func run() async throws {
        guard !urls.isEmpty else { return }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        await cancelWhenGracefulShutdown {
            for await event in self.stream {
                for url in self.urls { await self.deliver(event, to: url, client: client) }
            }
        }
        continuation.finish()
        try await client.shutdown()
    }

    private func deliver(_ event: Event, to url: String, client: HTTPClient) async {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "spendlex")
        request.body = .bytes(ByteBuffer(bytes: event.body))
        var delay = retryDelay
        for attempt in 1...attempts {
            let outcome: String
            do {
                let response = try await client.execute(request, timeout: timeout)
                let status = response.status.code
                if (200..<300).contains(status) { return }
                outcome = "HTTP \(status)"
                if (400..<500).contains(status), status != 408, status != 429 {
                    logger.error("webhook \(url): transaction \(event.transactionID) refused (\(outcome)); not retried")
                    return
                }
            } catch {
                outcome = "\(type(of: error))"
            }
            guard attempt < attempts, !Task.isCancelled else {
                logger.error("webhook \(url): transaction \(event.transactionID) not delivered after \(attempt) attempts (\(outcome))")
                return
            }
            logger.warning("webhook \(url): transaction \(event.transactionID) attempt \(attempt) failed (\(outcome)); retrying")
            do { try await Task.sleep(for: delay) } catch { return }
            delay *= 2
        }
    }
}
