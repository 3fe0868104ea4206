import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexServer
import Testing

/// The wallet, preferences and the card advisor over HTTP.
@Suite("wallet and advisor routes")
struct AdvisorRoutesTests {
    static let groceries = #"{"query": "groceries at Whole Foods for $150", "date": "2026-05-02"}"#

    @Test("wallet cards: add, list, change, correct the spending, remove; bad cards refused")
    func wallet() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let unknown = try await client.call(.post, "/wallet/cards", key: key, json: #"{"card": "no-such-card"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorCode == "invalid_card")
            let badDigits = try await client.call(.post, "/wallet/cards", key: key, json: #"{"card": "amex-gold", "last4": "12"}"#)
            #expect(badDigits.errorCode == "invalid_card")
            let added = try await client.call(.post, "/wallet/cards", key: key,
                                              json: #"{"card": "amex-gold", "last4": "1234", "nickname": "Gold"}"#)
            #expect(added.status == .created, "\(added.text)")
            let id = try #require(added["id"] as? Int)
            #expect((try await client.call(.get, "/wallet/cards", key: key)["cards"] as? [Any])?.count == 1)
            let changed = try await client.call(.put, "/wallet/cards/\(id)", key: key,
                                                json: #"{"card": "amex-gold", "last4": "1234", "nickname": "Amex", "statement_day": 20}"#)
            #expect(changed["nickname"] as? String == "Amex")
            #expect(changed["statement_day"] as? Int == 20)
            let badGroup = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key, json: #"{"spent": {"nope": "1"}}"#)
            #expect(badGroup.errorCode == "invalid_spending")
            let float = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key, json: #"{"spent": {"groceries": "1e3"}}"#)
            #expect(float.errorCode == "invalid_spending")
            let spent = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                              json: #"{"spent": {"groceries": "24950.50"}, "as_of": "2026-05-01"}"#)
            #expect(spent.at("spent", "groceries") as? String == "24950.5")
            #expect(spent.at("spent_as_of", "groceries") as? String == "2026-05-01")
            let badDay = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                               json: #"{"spent": {"groceries": "1"}, "as_of": "May"}"#)
            #expect(badDay.errorCode == "invalid_spending")
            #expect(try await client.call(.get, "/wallet/cards/\(id)", key: key)["nickname"] as? String == "Amex")
            #expect(try await client.call(.delete, "/wallet/cards/\(id)", key: key).status == .noContent)
            #expect(try await client.call(.get, "/wallet/cards/\(id)", key: key).status == .notFound)
        }
    }

    @Test("POST /recommendations: the advisor's answer, with the wallet's cards and the manual spending correction")
    func recommendations() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let empty = try await client.call(.post, "/recommendations", key: key, json: Self.groceries)
            #expect(empty.status == .unprocessableContent)
            #expect(empty.errorCode == "empty_wallet")
            #expect(try await client.call(.post, "/recommendations", key: key, json: "{}").errorCode == "invalid_purchase")
            let added = try await client.call(.post, "/wallet/cards", key: key, json: #"{"card": "amex-gold", "last4": "1234"}"#)
            let id = try #require(added["id"] as? Int)
            let advice = try await client.call(.post, "/recommendations", key: key, json: Self.groceries)
            #expect(advice.status == .ok, "\(advice.text)")
            #expect(advice.at("primaryRecommendation", "cardId") as? String == "amex-gold")
            #expect(advice.at("primaryRecommendation", "isLimitReached") as? Bool == false)
            // A correction of the spending so far: the groceries cap (25000 a year) is used up.
            _ = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                      json: #"{"spent": {"groceries": "25000"}, "as_of": "2026-05-01"}"#)
            let capped = try await client.call(.post, "/recommendations", key: key, json: Self.groceries)
            #expect(capped.at("primaryRecommendation", "isLimitReached") as? Bool == true, "\(capped.text)")
        }
    }

    @Test("a spending correction holds for its cap period: it replaces the ledger's sum up to its day, later spending adds")
    func correctionAsOf() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            // $1,250.00 of groceries on the card ending 4821, on 2026-01-05.
            let chase = #"{"channel": "email", "sender": "Chase <no.reply.alerts@chase.com>", "subject": "Your $1,250.00 transaction with WHOLE FOODS MARKET", "received_at": "2026-01-05T23:10:00Z", "text": "You spent $1,250.00 at WHOLE FOODS MARKET with your Chase Sapphire card ending in 4821. Date Jan 5, 2026"}"#
            let stored = try await client.call(.post, "/messages", key: key, json: chase)
            #expect(stored.at("transaction", "subcategory") as? String == "Groceries", "\(stored.text)")
            let card = try await client.call(.post, "/wallet/cards", key: key, json: #"{"card": "amex-gold", "last4": "4821"}"#)
            let id = try #require(card["id"] as? Int)
            func spendingSoFar() async throws -> Double? {
                let advice = try await client.call(.post, "/recommendations", key: key, json: Self.groceries)
                return advice.at("primaryRecommendation", "currentSpending") as? Double
            }
            #expect(try await spendingSoFar() == 1250)
            // As of New Year's Day: the figure, plus the ledger's spending after it.
            _ = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                      json: #"{"spent": {"groceries": "23000"}, "as_of": "2026-01-01"}"#)
            #expect(try await spendingSoFar() == 24250)
            // As of a day after the purchase: the figure alone.
            _ = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                      json: #"{"spent": {"groceries": "23000"}, "as_of": "2026-01-10"}"#)
            #expect(try await spendingSoFar() == 23000)
            // As of last year: another cap period, so the ledger's sum counts.
            _ = try await client.call(.put, "/wallet/cards/\(id)/spending", key: key,
                                      json: #"{"spent": {"groceries": "23000"}, "as_of": "2025-12-31"}"#)
            #expect(try await spendingSoFar() == 1250)
        }
    }

    @Test("preferences: defaults, a change, and bad values refused")
    func preferences() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let initial = try await client.call(.get, "/preferences", key: key)
            #expect(initial["preferred_program"] is NSNull)
            #expect(initial["alert_threshold"] as? String == "0.85")
            let set = try await client.call(.put, "/preferences", key: key,
                                            json: #"{"preferred_program": "amex-mr", "alert_threshold": "0.9"}"#)
            #expect(set.status == .ok, "\(set.text)")
            #expect(set["preferred_program"] as? String == "amex-mr")
            #expect(set["alert_threshold"] as? String == "0.9")
            let bad = try await client.call(.put, "/preferences", key: key, json: #"{"preferred_program": "nope", "alert_threshold": "0.9"}"#)
            #expect(bad.errorCode == "invalid_preferences")
            let over = try await client.call(.put, "/preferences", key: key, json: #"{"alert_threshold": "1.5"}"#)
            #expect(over.errorCode == "invalid_preferences")
            #expect(try await client.call(.get, "/preferences", key: key)["alert_threshold"] as? String == "0.9")
        }
    }

    @Test("--wallet FILE seeds an empty ledger wallet, once")
    func walletImport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wallet = folder.path("wallet.yaml")
        try """
            cards:
              - card: amex-gold
                last4: "1234"
                spent: {groceries: 100}
            preferences:
              preferred_program: amex-mr
            """.write(toFile: wallet, atomically: true, encoding: .utf8)
        let configuration = ServiceConfiguration(
            storePath: folder.path("ledger.sqlite"),
            rulePaths: [repositoryRoot.appendingPathComponent("rules").path, repositoryRoot.appendingPathComponent("grammars").path],
            walletPath: wallet)
        let service = try SpendlexService(configuration: configuration)
        let cards = try service.ledger!.walletCards()
        #expect(cards.map(\.fields.card) == ["amex-gold"])
        #expect(cards.first?.spent["groceries"]?.amount == 100)
        #expect(try service.ledger!.preferences()["preferred_program"] == "amex-mr")
        _ = try SpendlexService(configuration: configuration)
        #expect(try service.ledger!.walletCards().count == 1)
    }
}

/// For rule authors: the loaded set and drafts.
@Suite("rule routes")
struct RuleRoutesTests {
    static let draft = """
        bank: Draft Bank
        id: draftbank
        country: IN
        currency: INR
        senders: ["*-DRAFT"]
        parsers:
          - id: draftbank.spend
            direction: debit
            kind: purchase
            pattern: 'Spent %{MONEY:amount} at (?<merchant>[A-Za-z ]+?)\\.'
            examples:
              - text: "Spent Rs 12.00 at Corner Cafe."
                expect: {amount: "12.00", merchant: Corner Cafe}
              - text: "Spent Rs 5.00 at Tea Stall."
                expect: {amount: "6.00"}

        """

    @Test("GET /rules lists banks, parsers and example counts of the loaded set")
    func list() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let reply = try await client.call(.get, "/rules", key: key)
            #expect(reply.status == .ok)
            let banks = try #require(reply["banks"] as? [[String: Any]])
            let hdfc = try #require(banks.first { $0["id"] as? String == "hdfc" })
            let parsers = try #require(hdfc["parsers"] as? [[String: Any]])
            #expect(parsers.contains { $0["id"] as? String == "hdfc.card.spend" && ($0["examples"] as? Int ?? 0) > 0 })
            #expect((reply["examples"] as? Int ?? 0) > 100)
            #expect(reply.at("summary", "diagnostics") is [Any])
        }
    }

    @Test("POST /rules/try: a draft's diagnostics, its examples run, what it extracts; nothing saved")
    func tryDraft() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let body = """
                {"yaml": \(jsonString(Self.draft)), "samples": [
                  {"text": "Spent Rs 40.00 at Corner Cafe. Card 4111111111111111"},
                  {"text": "Spent Rs 40.00 at Corner Cafe.", "sender": "VM-DRAFT"},
                  {"text": "Hello"}]}
                """
            let reply = try await client.call(.post, "/rules/try", key: key, json: body)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["banks"] as? [String] == ["draftbank"])
            #expect(reply.at("examples", "passed") as? Int == 1)
            #expect(reply.at("examples", "failed") as? Int == 1)
            let failure = try #require((reply.at("examples", "failures") as? [[String: Any]])?.first)
            #expect(failure["file"] as? String == "draft.yaml")
            let results = try #require(reply["results"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["transaction", "transaction", "unmatched"])
            #expect((results[0]["transaction"] as? [String: Any])?["amount"] as? String == "40.00")
            #expect(!reply.text.contains("4111111111111111"))
            // Nothing saved: the live set does not know the draft bank.
            let banks = try await client.call(.get, "/", key: key).at("rules", "banks") as? [String]
            #expect(banks?.contains("draftbank") == false)

            let broken = Self.draft.replacingOccurrences(of: "%{MONEY:amount}", with: "%{NO_SUCH:amount}")
            let refused = try await client.call(.post, "/rules/try", key: key, json: #"{"yaml": \#(jsonString(broken))}"#)
            let diagnostics = try #require(refused["diagnostics"] as? [[String: Any]])
            let error = try #require(diagnostics.first { $0["severity"] as? String == "error" })
            #expect(error["line"] as? Int == 10)
            #expect(refused["examples"] is NSNull)
        }
    }
}
