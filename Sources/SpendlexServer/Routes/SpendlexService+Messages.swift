import Foundation
import Hummingbird
import SpendlexMail

extension SpendlexService {
    /// The most messages one `POST /messages/batch` takes.
    static let maxBatchMessages = 500

    /// `POST /messages` (parse, categorize, store), `POST /messages/batch`, `POST /parse` (no storing).
    func addMessageRoutes(to table: RouteTable, webhooks: WebhookNotifier?) {
        table.post("/messages") { request, context in
            let intake = try context.tenant().intake.with(webhooks: webhooks)
            let input = try await request.decodeJSON(MessageInput.self, context: context)
            let result = try await offloaded { try intake.ingest(input) }
            return try JSONResponse.make(result, status: result.status == "stored" ? .created : .ok)
        }
        table.post("/messages/batch") { request, context in
            let intake = try context.tenant().intake.with(webhooks: webhooks)
            let batch = try await request.decodeJSON(MessageBatchInput.self, context: context)
            guard batch.messages.count <= Self.maxBatchMessages else {
                throw APIError(.contentTooLarge, "batch_too_large", "at most \(Self.maxBatchMessages) messages a batch")
            }
            // Each message ends as one result, in order; a message that is itself invalid gets an
            // error result and the others go on.
            let results = try await offloaded {
                try batch.messages.enumerated().map { index, input in
                    do { return try intake.ingest(input) } catch let error as APIError where error.status == .unprocessableContent {
                        return MessageResult(status: "error", messageID: input.id ?? "#\(index)", reason: error.message)
                    }
                }
            }
            let counts = Dictionary(results.map { ($0.status, 1) }, uniquingKeysWith: +)
            struct Body: Encodable {
                let results: [MessageResult]
                let counts: [String: Int]
            }
            return try JSONResponse.make(Body(results: results, counts: counts))
        }
        // Parses with the caller's mappings, stores nothing: a read.
        table.post("/parse", access: .person(.read)) { request, context in
            let intake = try context.tenant().intake
            let input = try await request.decodeJSON(MessageInput.self, context: context)
            return try JSONResponse.make(try await offloaded { try intake.parse(input) })
        }
    }
}
