import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexServer
import Testing
import SpendlexTestSupport

/// The playground's routes (`spendlex playground`): the page, the nearest parser and catastrophic
/// patterns in `/rules/try`, saving a file (checked, reloaded, confined to the rules folder), a
/// dropped file's messages, a draft, an example added.
@Suite("the rule playground's routes")
struct PlaygroundTests {
    /// A bank file for a credit union the bundled rules do not know; `pattern` replaces its pattern.
    static func bank(pattern: String = #"SampleCU: card purchase of %{MONEY:amount} at (?<merchant>[A-Z][A-Z ]+?)\."#) -> String {
        """
        bank: Sample Credit Union
        id: samplecu
        country: US
        currency: USD
        senders: ["SAMPLECU"]
        parsers:
          - id: samplecu.card.debit
            direction: debit
            pattern: '\(pattern)'
            examples:
              - text: "SampleCU: card purchase of $12.50 at COFFEE PLACE."
                expect: {amount: "12.50", merchant: COFFEE PLACE}
        """
    }

    /// A service started as the playground does, over a copy of the bundled rules.
    static func playground() throws -> (TestService, rules: URL) {
        let copy = TestScratch.root.appendingPathComponent("spendlex-playground-test-\(digitFreeUniqueName())")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in ["rules", "grammars"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        let rules = copy.appendingPathComponent("rules")
        let test = try TestService(rules: [rules.path, copy.appendingPathComponent("grammars").path]) { configuration in
            configuration.playground = PlaygroundConfiguration(pageFolder: repositoryRoot.appendingPathComponent("playground").path,
                                                               rulesFolder: rules.path)
        }
        return (test, rules)
    }

    static func trial(_ yaml: String, _ texts: [String]) -> String {
        "{\"yaml\": \(jsonString(yaml)), \"samples\": [" + texts.map { "{\"text\": \(jsonString($0)), \"sender\": \"SAMPLECU\"}" }
            .joined(separator: ", ") + "]}"
    }

    @Test("a message no parser reads: the nearest parser, where its pattern stopped and what it had matched")
    func nearest() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let reply = try await client.call(.post, "/rules/try", key: key, json: Self.trial(Self.bank(), [
                "SampleCU: card purchase of $41.20 at HARDWARE BARN.", "SampleCU: card refund of $5.00 from HARDWARE BARN.",
            ]))
            let results = try #require(reply["results"] as? [[String: Any]], "\(reply.text)")
            #expect(results[0]["rule"] as? String == "samplecu.card.debit")
            #expect(results[0]["nearest"] is NSNull)
            // What lowered its confidence (no date in the text), as explain lists it.
            let parts = try #require(results[0]["confidence_parts"] as? [[String: Any]], "\(reply.text)")
            #expect(parts.contains { $0["part"] as? String == "date" }, "\(parts)")
            let nearest = try #require(results[1]["nearest"] as? [String: Any], "\(reply.text)")
            #expect(nearest["parser"] as? String == "samplecu.card.debit")
            #expect(nearest["pattern_before"] as? String == "SampleCU: card ")
            #expect((nearest["pattern_after"] as? String)?.hasPrefix("purchase of %{MONEY:amount}") == true)
            #expect(nearest["matched_text"] as? String == "SampleCU: card ")
            // What the rules serving now make of it.
            #expect((results[1]["fallback"] as? [String: Any])?["status"] as? String != nil)
            // Stopping inside a reference names it.
            let inside = try await client.call(.post, "/rules/try", key: key, json: Self.trial(Self.bank(), ["SampleCU: card purchase of lots at X."]))
            let stopped = try #require((inside["results"] as? [[String: Any]])?.first?["nearest"] as? [String: Any], "\(inside.text)")
            #expect(stopped["fragment"] as? String == "MONEY", "\(inside.text)")
            #expect(stopped["pattern_before"] as? String == "SampleCU: card purchase of ")
        }
    }

    /// The bug the playground's browser test found: a draft's examples that expect a balance
    /// (found by the field layer) failed in `/rules/try` and passed in `spendlex test`.
    @Test("a bundled bank file tried as a draft passes its examples as spendlex test runs them")
    func draftExamplesAsSpendlexTest() async throws {
        let test = try TestService()
        let key = test.key
        let hdfc = try String(contentsOf: repositoryRoot.appendingPathComponent("rules/banks/in/hdfc.yaml"), encoding: .utf8)
        try await test.live { client in
            let reply = try await client.call(.post, "/rules/try", key: key, json: Self.trial(hdfc, []))
            let examples = try #require(reply["examples"] as? [String: Any], "\(reply.text)")
            #expect(examples["failed"] as? Int == 0, "\(reply.text)")
            #expect((examples["passed"] as? Int ?? 0) > 30)
        }
    }

    @Test("a catastrophic pattern is reported as such, and the service keeps answering")
    func catastrophic() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            async let other = client.call(.get, "/health", key: nil)
            let reply = try await client.call(.post, "/rules/try", key: key,
                                              json: Self.trial(Self.bank(pattern: "^(a+)+$"), [String(repeating: "a", count: 30) + "b"]))
            let result = try #require((reply["results"] as? [[String: Any]])?.first, "\(reply.text)")
            #expect(result["catastrophic"] as? Bool == true)
            #expect(result["status"] as? String == "error")
            #expect((result["reason"] as? String)?.contains("catastrophic backtracking") == true)
            #expect(try await other.status == .ok)
        }
    }

    @Test("saving: a file that compiles is written and the rules reload; a broken one or a path outside the folder is refused")
    func save() async throws {
        let (test, rules) = try Self.playground()
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        let key = test.key
        try await test.live { client in
            let good = try await client.call(.put, "/playground/file", key: key,
                                             json: "{\"path\": \"banks/us/samplecu.yaml\", \"yaml\": \(jsonString(Self.bank()))}")
            #expect(good.status == .ok && good["reload"] as? String == "swapped", "\(good.text)")
            #expect(FileManager.default.fileExists(atPath: rules.appendingPathComponent("banks/us/samplecu.yaml").path))
            // The live rules read it now.
            let parsed = try await client.call(.post, "/parse", key: key,
                                               json: #"{"sender": "SAMPLECU", "text": "SampleCU: card purchase of $41.20 at HARDWARE BARN."}"#)
            #expect(parsed["rule"] as? String == "samplecu.card.debit", "\(parsed.text)")
            let listed = try await client.call(.get, "/playground/files", key: key)
            #expect((listed["files"] as? [[String: Any]])?.contains { $0["path"] as? String == "banks/us/samplecu.yaml" } == true)
            #expect(try await client.call(.get, "/playground/file?path=banks/us/samplecu.yaml", key: key)["yaml"] as? String == Self.bank())

            let broken = try await client.call(.put, "/playground/file", key: key,
                                               json: "{\"path\": \"banks/us/samplecu.yaml\", \"yaml\": \(jsonString(Self.bank(pattern: "(unclosed")))}")
            #expect(broken.errorCode == "invalid_rules" && (broken.at("error", "message") as? String)?.contains("banks/us/samplecu.yaml:") == true,
                    "\(broken.text)")
            #expect(try String(contentsOf: rules.appendingPathComponent("banks/us/samplecu.yaml"), encoding: .utf8) == Self.bank())
            // A bank id another file has: the reload is refused and the file not kept.
            let clash = Self.bank().replacingOccurrences(of: "id: samplecu", with: "id: hdfc")
            let refused = try await client.call(.put, "/playground/file", key: key,
                                                json: "{\"path\": \"banks/us/clash.yaml\", \"yaml\": \(jsonString(clash))}")
            #expect(refused.errorCode == "invalid_rules", "\(refused.text)")
            #expect(!FileManager.default.fileExists(atPath: rules.appendingPathComponent("banks/us/clash.yaml").path))
            for outside in ["../escape.yaml", "/etc/passwd.yaml", "banks/us/.hidden.yaml", "banks/us/notes.txt"] {
                let reply = try await client.call(.put, "/playground/file", key: key,
                                                  json: "{\"path\": \(jsonString(outside)), \"yaml\": \(jsonString(Self.bank()))}")
                #expect(reply.errorCode == "invalid_field", "\(outside): \(reply.text)")
            }
        }
    }

    @Test("a dropped file's messages, a draft from them, and a confirmed message added as an example")
    func messagesDraftsAndExamples() async throws {
        let (test, rules) = try Self.playground()
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        let key = test.key
        let backup = """
            <?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
            <smses count="2">
              <sms protocol="0" address="SAMPLECU" date="1714000000000" type="1" body="SampleCU: card purchase of $41.20 at HARDWARE BARN." read="1" />
              <sms protocol="0" address="SAMPLECU" date="1714000100000" type="1" body="SampleCU: card purchase of $7.10 at CORNER CAFE." read="1" />
            </smses>
            """
        try await test.live { client in
            let read = try await client.execute(uri: "/playground/messages?name=backup.xml", method: .post,
                                                headers: [.init("X-API-Key")!: key, .contentType: "application/octet-stream"],
                                                body: ByteBuffer(string: backup)) { response in
                (response.status, try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            }
            #expect(read.0 == .ok)
            let messages = try #require(read.1?["messages"] as? [[String: Any]])
            #expect(messages.map { $0["sender"] as? String } == ["SAMPLECU", "SAMPLECU"])
            #expect(read.1?["count"] as? Int == 2)

            let draft = try await client.call(.post, "/playground/suggest", key: key, json: """
                {"samples": [{"text": "SampleCU: card purchase of $41.20 at HARDWARE BARN.", "sender": "SAMPLECU"},
                             {"text": "SampleCU: card purchase of $7.10 at CORNER CAFE.", "sender": "SAMPLECU"},
                             {"text": "SampleCU: card purchase of $19.99 at BOOK NOOK.", "sender": "SAMPLECU"}]}
                """)
            #expect(draft.status == .ok, "\(draft.text)")
            #expect((draft["yaml"] as? String)?.contains("parsers:") == true, "\(draft.text)")

            let added = try await client.call(.post, "/playground/example", key: key, json: """
                {"yaml": \(jsonString(Self.bank())), "parser": "samplecu.card.debit", "text": "SampleCU: card purchase of $41.20 at HARDWARE BARN.",
                 "sender": "SAMPLECU", "expect": {"amount": "41.20", "merchant": "HARDWARE BARN"}}
                """)
            let yaml = try #require(added["yaml"] as? String, "\(added.text)")
            #expect(yaml.contains(#"- text: "SampleCU: card purchase of $41.20 at HARDWARE BARN.""#), "\(yaml)")
            // The file with it still compiles and its examples, the new one too, pass.
            let trial = try await client.call(.post, "/rules/try", key: key, json: Self.trial(yaml, []))
            #expect((trial["examples"] as? [String: Any])?["passed"] as? Int == 2, "\(trial.text)")
            #expect((trial["examples"] as? [String: Any])?["failed"] as? Int == 0, "\(trial.text)")
            let none = try await client.call(.post, "/playground/example", key: key,
                                             json: "{\"yaml\": \(jsonString(Self.bank())), \"parser\": \"nope\", \"text\": \"x\", \"expect\": {}}")
            #expect(none.errorCode == "cannot_add_example")
        }
    }

    @Test("the page and its assets are served without a key; the playground's data routes only by a playground")
    func pageAndMode() async throws {
        let (test, rules) = try Self.playground()
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        try await test.live { client in
            let page = try await client.call(.get, "/playground", key: nil)
            #expect(page.status == .ok && page.text.contains("<html"), "\(page.text.prefix(200))")
            #expect(try await client.call(.get, "/playground/assets/playground.js", key: nil).status == .ok)
            #expect(try await client.call(.get, "/playground/assets/..%2Fpasswd", key: nil).status == .notFound)
        }
        let plain = try TestService()
        let key = plain.key
        try await plain.live { client in
            let files = try await client.call(.get, "/playground/files", key: key)
            let page = try await client.call(.get, "/playground", key: nil)
            #expect(files.errorCode == "not_playground")
            #expect(page.errorCode == "not_playground")
        }
    }
}
