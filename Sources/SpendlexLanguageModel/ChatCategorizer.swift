import AsyncHTTPClient
import Foundation
import NIOCore
import SpendlexRules

/// Asks an OpenAI-compatible chat model for the categories of merchants, from the closed list
/// the categories file declares: one request per batch, `temperature` 0, one answer a line
/// ("MERCHANT => Category / Subcategory"). Every answer is checked against the list; one that
/// names no declared category (or a subcategory of another) is dropped, never guessed at.
public struct ChatCategorizer: Sendable {
    public let settings: PersonConfig.LanguageModel
    public let categories: CategoryList

    /// What the model answered, per merchant, and what was refused.
    public struct Answers: Sendable {
        /// Merchant (as asked) → category and subcategory.
        public var categories: [String: (category: String, subcategory: String?)] = [:]
        /// Answers that named nothing declared, as written.
        public var refused: [String] = []
    }

    /// Failures to reach the model or to read its reply.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(settings: PersonConfig.LanguageModel, categories: CategoryList) {
        self.settings = settings
        self.categories = categories
    }

    /// The categories of `merchants`, asked `settings.batchSize` at a time.
    public func categorize(_ merchants: [String]) async throws -> Answers {
        var answers = Answers()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            var start = 0
            while start < merchants.count {
                let batch = Array(merchants[start..<min(merchants.count, start + settings.batchSize)])
                let reply = try await ask(batch, client: client)
                let read = Self.read(reply, asked: batch, categories: categories)
                answers.categories.merge(read.categories) { first, _ in first }
                answers.refused += read.refused
                start += settings.batchSize
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        return answers
    }

    /// The instructions: the closed list, and the answer's form.
    func prompt() -> String {
        let list = categories.entries.filter { $0.name != "Uncategorized" }.map { entry in
            entry.subcategories.isEmpty ? "- \(entry.name)" : "- \(entry.name): \(entry.subcategories.joined(separator: ", "))"
        }.joined(separator: "\n")
        return """
            You categorize the merchants of a person's card and bank transactions. Use only these categories and \
            subcategories:
            \(list)
            For each merchant the user sends (one a line), answer one line: the merchant exactly as given, then " => ", \
            then the category, and " / " and the subcategory when one fits. When you do not know the merchant, answer \
            "MERCHANT => unknown". Answer nothing else.
            """
    }

    private func ask(_ merchants: [String], client: HTTPClient) async throws -> String {
        let body: [String: Any] = [
            "model": settings.model, "temperature": 0,
            "messages": [["role": "system", "content": prompt()], ["role": "user", "content": merchants.joined(separator: "\n")]],
        ]
        var request = HTTPClientRequest(url: settings.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let variable = settings.apiKeyVariable, let key = ProcessInfo.processInfo.environment[variable], !key.isEmpty {
            request.headers.add(name: "Authorization", value: "Bearer \(key)")
        }
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        let response: HTTPClientResponse
        do { response = try await client.execute(request, timeout: .seconds(Int64(settings.timeout))) } catch {
            throw Failure(description: "cannot reach the language model at \(settings.url): \(error)")
        }
        let data = try await response.body.collect(upTo: 4 << 20)
        guard response.status == .ok else {
            throw Failure(description: "the language model at \(settings.url) answered \(response.status.code)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.readableBytesView)) as? [String: Any],
              let choices = object["choices"] as? [[String: Any]],
              let message = choices.first?["message"] as? [String: Any], let content = message["content"] as? String else {
            throw Failure(description: "the language model's reply is not a chat completion (no choices[0].message.content)")
        }
        return content
    }

    /// The answers in `reply` to the merchants `asked`: lines "MERCHANT => Category / Sub";
    /// a merchant not asked, "unknown", or a category not declared is not taken.
    static func read(_ reply: String, asked: [String], categories: CategoryList) -> Answers {
        var answers = Answers()
        let askedByKey = Dictionary(asked.map { ($0.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for line in reply.split(whereSeparator: \.isNewline) {
            let parts = line.components(separatedBy: "=>")
            guard parts.count == 2 else { continue }
            let merchant = parts[0].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "-*\"")))
            let answer = parts[1].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ".\"")))
            guard let asked = askedByKey[merchant.uppercased()], answer.lowercased() != "unknown" else { continue }
            let named = answer.components(separatedBy: "/").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let entry = categories.entries.first(where: { $0.name.caseInsensitiveCompare(named[0]) == .orderedSame }),
                  entry.name != "Uncategorized" else {
                answers.refused.append(String(line))
                continue
            }
            var subcategory: String?
            if named.count > 1, !named[1].isEmpty {
                guard let sub = entry.subcategories.first(where: { $0.caseInsensitiveCompare(named[1]) == .orderedSame }) else {
                    answers.refused.append(String(line))
                    continue
                }
                subcategory = sub
            }
            answers.categories[asked] = (entry.name, subcategory)
        }
        return answers
    }
}
