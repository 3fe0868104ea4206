import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexServer
import Testing

/// The issue's Done-when, over real HTTP on loopback.
@Suite("POST /messages")
struct MessagesRouteTests {
    static let sms = """
        {"sender": "VM-HDFCBK", "received_at": "2026-05-02T16:56:30Z", "channel": "sms",
         "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 0000 to 7308080808"}
        """

    static let metroSMS = """
        {"sender": "JD-ICICIT", "received_at": "2026-05-09T08:15:00Z", "channel": "sms",
         "text": "ICICI Bank Acct XX000 debited for Rs 14.00 on 09-May-26; Pune Metro credited. UPI:000000000000. Call 18002662 for dispute. SMS BLOCK 000 to 9215676766."}
        """

    @Test("an SMS comes back stored and categorized; the same SMS again, a duplicate; without a key, 401")
    func storedThenDuplicateThenUnauthorized() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let first = try await client.call(.post, "/messages", key: key, json: Self.metroSMS)
            #expect(first.status == .created, "\(first.text)")
            #expect(first["status"] as? String == "stored")
            let id = try #require(first.at("transaction", "id") as? Int)
            #expect(first.at("transaction", "amount") as? String == "14.00")
            #expect(first.at("transaction", "currency") as? String == "INR")
            #expect(first.at("transaction", "merchant") as? String == "Pune Metro")
            #expect(first.at("transaction", "category") as? String == "Transport")
            #expect(first.at("transaction", "subcategory") as? String == "Public Transport")
            #expect(first.at("transaction", "category_source") as? String == "rules")
            // Stored: the ledger has it under that id.
            #expect(try test.service.ledger!.transaction(id: Int64(id))?.merchant == "Pune Metro")

            let again = try await client.call(.post, "/messages", key: key, json: Self.metroSMS)
            #expect(again.status == .ok)
            #expect(again["status"] as? String == "duplicate")
            #expect(again["duplicate_of"] as? Int == id)
            #expect(again.at("transaction", "id") as? Int == id)

            let anonymous = try await client.call(.post, "/messages", key: nil, json: Self.metroSMS)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.errorCode == "unauthorized")
        }
    }

    @Test("an alert about money already stored from another channel is a duplicate of that transaction")
    func crossChannelDuplicate() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let sms = """
                {"sender": "VM-HDFCBK", "received_at": "2026-05-02T16:56:30Z",
                 "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?"}
                """
            let push = """
                {"sender": "VM-HDFCBK", "received_at": "2026-05-02T16:56:31Z", "channel": "push",
                 "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01."}
                """
            let first = try await client.call(.post, "/messages", key: key, json: sms)
            let second = try await client.call(.post, "/messages", key: key, json: push)
            let firstID = try #require(first.at("transaction", "id") as? Int)
            #expect(second["status"] as? String == "duplicate", "\(second.text)")
            #expect(second["duplicate_of"] as? Int == firstID)
            #expect(second.at("transaction", "id") as? Int != firstID)
        }
    }

    @Test("a richer alert about money already stored becomes the primary, and says which it links")
    func richerAlertBecomesPrimary() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let pair = try String(contentsOf: repositoryRoot.appendingPathComponent("examples/alert-pair.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let sms = try await client.call(.post, "/messages", key: key, json: pair[0])
            let email = try await client.call(.post, "/messages", key: key, json: pair[1])
            let smsID = try #require(sms.at("transaction", "id") as? Int)
            let emailID = try #require(email.at("transaction", "id") as? Int)
            #expect(email["status"] as? String == "stored", "\(email.text)")
            #expect((email["reason"] as? String)?.hasSuffix("transaction \(smsID)") == true, "\(email.text)")
            #expect(try await client.call(.get, "/transactions/\(smsID)", key: key)["duplicate_of"] as? Int == emailID)
            #expect(try await client.call(.get, "/transactions?days=36500", key: key)["total"] as? Int == 1)
        }
    }

    @Test("messages that are no transaction say why: ignored by which rule, unmatched")
    func ignoredAndUnmatched() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let otp = """
                {"sender": "AD-HDFCBK", "text": "Your OTP for txn of Rs.499 at AMAZON on HDFC Bank Card 0000 is 123456. Do not share it with anyone."}
                """
            let ignored = try await client.call(.post, "/messages", key: key, json: otp)
            #expect(ignored.status == .ok)
            #expect(ignored["status"] as? String == "ignored")
            #expect((ignored["rule"] as? String)?.hasPrefix("hdfc") == true, "\(ignored.text)")
            let unmatched = try await client.call(.post, "/messages", key: key,
                                                  json: #"{"sender": "VM-HDFCBK", "text": "Happy birthday from your bank"}"#)
            #expect(unmatched["status"] as? String == "unmatched")
            #expect((unmatched["reason"] as? String)?.contains("hdfc") == true)
        }
    }

    @Test("POST /parse parses without storing, and masks a full card number in the text it echoes")
    func parseOnlyMasksCardNumbers() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let text = "Card 4111111111111111 was used: Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01."
            let body = #"{"sender": "VM-HDFCBK", "text": \#(jsonString(text))}"#
            let parsed = try await client.call(.post, "/parse", key: key, json: body)
            #expect(parsed.status == .ok)
            #expect(parsed["status"] as? String == "transaction", "\(parsed.text)")
            #expect(parsed.at("transaction", "id") is NSNull)
            #expect(!parsed.text.contains("4111111111111111"))
            #expect((parsed["text"] as? String)?.contains("EAZYDINE0000000") == true)
            let stored = try await client.call(.post, "/messages", key: key, json: body)
            #expect(!stored.text.contains("4111111111111111"))
            // /parse stored nothing: the first /messages of it is new.
            #expect(stored["status"] as? String == "stored")
        }
    }

    @Test("the configured match limit reaches the engines, a reloaded one's too: a message over it is an error naming the rule")
    func matchLimitIsConfigurable() async throws {
        let test = try TestService { $0.matchLimit = 1 }
        let key = test.key
        #expect(test.service.rules.current.engine.matchLimit == 1)
        try await test.live { client in
            let body = #"{"sender": "VM-HDFCBK", "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01."}"#
            let parsed = try await client.call(.post, "/parse", key: key, json: body)
            #expect(parsed["status"] as? String == "error", "\(parsed.text)")
            #expect(parsed["rule"] as? String == "hdfc.card.spend", "\(parsed.text)")
        }
        test.service.rules.reload()
        #expect(test.service.rules.current.engine.matchLimit == 1)
    }

    @Test("a raw email: headers give the sender, date and id; its body is parsed and stored")
    func rawEmail() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let email = [
                "From: Chase <no.reply.alerts@chase.com>", "To: me@example.com",
                "Subject: Your $1,250.00 transaction with WHOLE FOODS MARKET",
                "Date: Mon, 05 Jan 2026 23:10:00 +0000", "Message-ID: <alert-1@chase.com>",
                "Content-Type: text/plain; charset=utf-8", "",
                "You spent $1,250.00 at WHOLE FOODS MARKET with your Chase Sapphire card ending in 4821. Date Jan 5, 2026",
            ].joined(separator: "\r\n")
            let body = #"{"email": \#(jsonString(email))}"#
            let stored = try await client.call(.post, "/messages", key: key, json: body)
            #expect(stored["status"] as? String == "stored", "\(stored.text)")
            #expect(stored.at("transaction", "amount") as? String == "1250.00")
            #expect(stored.at("transaction", "merchant") as? String == "WHOLE FOODS MARKET")
            #expect(stored.at("transaction", "category") as? String == "Food & Dining")
            #expect(stored.at("transaction", "source", "kind") as? String == "email")
            #expect(stored.at("transaction", "source", "received_at") as? String == "2026-01-05T23:10:00Z")
            let again = try await client.call(.post, "/messages", key: key, json: body)
            #expect(again["status"] as? String == "duplicate")
            let notEmail = try await client.call(.post, "/messages", key: key, json: #"{"email": "\u0000\u0001"}"#)
            #expect(notEmail.errorCode == "invalid_email")
        }
    }

    @Test("POST /messages/batch: one result per message, in order, with counts")
    func batch() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let body = """
                {"messages": [\(Self.sms), \(Self.sms), {"sender": "VM-HDFCBK", "text": "Hello"}, {"sender": "x"}]}
                """
            let reply = try await client.call(.post, "/messages/batch", key: key, json: body)
            #expect(reply.status == .ok, "\(reply.text)")
            let results = try #require(reply["results"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["stored", "duplicate", "unmatched", "error"])
            #expect(reply.at("counts", "stored") as? Int == 1)
        }
    }

    @Test("bad bodies get JSON errors with stable codes")
    func badBodies() async throws {
        let test = try TestService(maxBodyBytes: 2048)
        let key = test.key
        try await test.live { client in
            let notJSON = try await client.call(.post, "/messages", key: key, json: "{not json")
            #expect(notJSON.status == .badRequest)
            #expect(notJSON.errorCode == "invalid_json")
            let empty = try await client.call(.post, "/messages", key: key, json: "{}")
            #expect(empty.status == .unprocessableContent)
            #expect(empty.errorCode == "invalid_message")
            let huge = #"{"text": "\#(String(repeating: "x", count: 4096))"}"#
            let tooLarge = try await client.call(.post, "/messages", key: key, json: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorCode == "body_too_large")
            let missing = try await client.call(.get, "/no/such/route", key: key)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "no_route")
            let wrongMethod = try await client.execute(uri: "/transactions/12", method: .post,
                                                       headers: [.init("X-API-Key")!: key])
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "GET, PUT, DELETE")
        }
    }
}
