import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexServer
import Testing

/// Where schemathesis found the service and openapi.yaml disagreeing, and the service was the one
/// to change: each request below is what the fuzzer sent, and the answer is now the document's.
@Suite("the service agrees with openapi.yaml")
struct SchemaAgreementTests {
    /// A request and the status the document gives it.
    struct Case: CustomTestStringConvertible, Sendable {
        let method: HTTPRequest.Method
        let path: String
        let body: String
        let status: HTTPResponse.Status
        let code: String?

        var testDescription: String { "\(method) \(path) \(body) → \(status.code) \(code ?? "")" }
    }

    @Test("a raw email must start with a header field, after an optional mbox From line", arguments: [
        Case(method: .post, path: "/messages", body: #"{"email": "0"}"#, status: .unprocessableContent, code: "invalid_email"),
        Case(method: .post, path: "/parse", body: #"{"email": "\n\nSpent Rs.10"}"#, status: .unprocessableContent,
             code: "invalid_email"),
        // An mbox From line and nothing after it: no header.
        Case(method: .post, path: "/parse", body: #"{"email": "From :x"}"#, status: .unprocessableContent,
             code: "invalid_email"),
        Case(method: .post, path: "/parse", body: #"{"email": "From a@b Sat May  2 10:00:00 2026\nX :y"}"#,
             status: .ok, code: nil),
        Case(method: .post, path: "/parse", body: #"{"email": "Subject\t: hi\n\nbody"}"#, status: .ok, code: nil),
    ])
    func emailStartsWithHeader(_ test: Case) async throws {
        try await Self.expect(test)
    }

    @Test("null is not a value for a field the document does not declare nullable", arguments: [
        Case(method: .post, path: "/messages", body: #"{"text": "Hello", "sender": null}"#, status: .badRequest,
             code: "invalid_json"),
        Case(method: .post, path: "/parse", body: #"{"text": null, "email": "Subject: x\n\nbody"}"#, status: .badRequest,
             code: "invalid_json"),
        Case(method: .post, path: "/recommendations", body: #"{"query": "coffee", "amount": null}"#, status: .badRequest,
             code: "invalid_json"),
        Case(method: .put, path: "/preferences", body: #"{"alert_threshold": null}"#, status: .badRequest,
             code: "invalid_json"),
        Case(method: .post, path: "/rules/try", body: #"{"yaml": "", "samples": null}"#, status: .badRequest,
             code: "invalid_json"),
        Case(method: .post, path: "/rules/try", body: #"{"yaml": "", "samples": [{"text": "x", "sender": null}]}"#,
             status: .badRequest, code: "invalid_json"),
        Case(method: .post, path: "/wallet/cards", body: #"{"card": "amex-gold", "activated": null}"#, status: .badRequest,
             code: "invalid_json"),
    ])
    func nullIsNotLeftOut(_ test: Case) async throws {
        try await Self.expect(test)
    }

    @Test("values the document's patterns and formats refuse are refused", arguments: [
        // An empty id would make every message posted with it a duplicate of the first.
        Case(method: .post, path: "/messages", body: #"{"id": "", "text": "Hello"}"#, status: .unprocessableContent,
             code: "invalid_message"),
        // Digits of other scripts are numbers to Swift, not [0-9] to the document.
        Case(method: .post, path: "/recommendations", body: #"{"mcc": "５４１１"}"#, status: .unprocessableContent,
             code: "invalid_purchase"),
        Case(method: .post, path: "/wallet/cards", body: #"{"card": "amex-gold", "activated": ["+026-Q1"]}"#,
             status: .unprocessableContent, code: "invalid_card"),
        Case(method: .post, path: "/wallet/cards", body: #"{"card": "amex-gold", "anniversary": "2026-02-31"}"#,
             status: .unprocessableContent, code: "invalid_card"),
        Case(method: .put, path: "/preferences", body: #"{"alert_threshold": ".5"}"#, status: .unprocessableContent,
             code: "invalid_preferences"),
        Case(method: .put, path: "/preferences", body: #"{"alert_threshold": "-0"}"#, status: .unprocessableContent,
             code: "invalid_preferences"),
        Case(method: .put, path: "/preferences", body: #"{"alert_threshold": "1."}"#, status: .unprocessableContent,
             code: "invalid_preferences"),
        Case(method: .put, path: "/preferences", body: #"{"alert_threshold": "00.5"}"#, status: .ok, code: nil),
    ])
    func patternsAndFormats(_ test: Case) async throws {
        try await Self.expect(test)
    }

    @Test("a wrong `days` is a 400 even where `from` makes it unused")
    func daysChecked() async throws {
        try await Self.expect(Case(method: .get, path: "/transactions?days=false&from=2000-08-04", body: "",
                                   status: .badRequest, code: "invalid_field"))
    }

    @Test("the mappings as YAML stay valid YAML whatever the merchant holds (a C1 control, a newline)")
    func mappingsYAML() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let added = try await client.call(.post, "/categories/mappings", key: key,
                                              json: #"{"merchant": "B\u0080x\n\"q\" \\ \u2028", "category": "Transport"}"#)
            #expect(added.status == .created, "\(added.text)")
            let reply = try await client.execute(uri: "/categories/mappings?format=yaml", method: .get,
                                                 headers: [.init("X-API-Key")!: key]) { String(buffer: $0.body) }
            #expect(reply.contains(#"merchant: ["B\x80x\n\"q\" \\ \u2028"]"#), "\(reply)")
            #expect(!reply.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\u{2028}" })
        }
    }

    @Test("an edit's category is a string or left out; a subcategory, even null, needs its category")
    func editCategory() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let stored = try await client.call(.post, "/messages", key: key, json: MessagesRouteTests.metroSMS)
            let id = try #require(stored.at("transaction", "id") as? Int)
            let nullCategory = try await client.call(.put, "/transactions/\(id)", key: key, json: #"{"category": null}"#)
            #expect(nullCategory.status == .badRequest, "\(nullCategory.text)")
            #expect(nullCategory.errorCode == "invalid_json")
            let loneSubcategory = try await client.call(.put, "/transactions/\(id)", key: key,
                                                        json: #"{"subcategory": null}"#)
            #expect(loneSubcategory.status == .badRequest, "\(loneSubcategory.text)")
            #expect(loneSubcategory.errorCode == "invalid_field")
            let kept = try await client.call(.get, "/transactions/\(id)", key: key)
            #expect(kept["category"] as? String == "Transport")
        }
    }

    @Test("a spending correction is a decimal string, not negative", arguments: ["-0", "5.", ".5", "1e3"])
    func spendingAmount(_ amount: String) async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let card = try await client.call(.post, "/wallet/cards", key: key, json: #"{"card": "amex-gold"}"#)
            let id = try #require(card["id"] as? Int, "\(card.text)")
            let groups = try #require(test.service.rules.current.engine.rules.rules.cards
                .first { $0.id.value == "amex-gold" }?.rewards.map(\.id.value))
            let group = try #require(groups.first)
            let reply = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                              json: #"{"spent": {"\#(group)": "\#(amount)"}}"#)
            #expect(reply.status == .unprocessableContent, "\(reply.text)")
            #expect(reply.errorCode == "invalid_spending")
        }
    }

    /// Sends `test`'s request to a fresh service and checks the status and error code.
    static func expect(_ test: Case) async throws {
        let service = try TestService()
        let key = service.key
        try await service.live { client in
            let reply = try await client.call(test.method, test.path, key: key, json: test.body)
            #expect(reply.status == test.status, "\(reply.text)")
            if let code = test.code { #expect(reply.errorCode == code, "\(reply.text)") }
        }
    }
}
