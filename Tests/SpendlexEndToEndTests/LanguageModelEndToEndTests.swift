import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// The optional language model, through the real binary, against a small local server that
    /// speaks the OpenAI chat completions API (Python's http.server): merchants nothing else decides
    /// are asked with the closed category list; valid answers become rows of the person's own
    /// categories file and categorize the merchants' transactions; an answer outside the list is
    /// refused; a person's own category is never overridden; off unless the settings name a model.
    @Suite("language model categories, end to end", .serialized)
    struct LanguageModelEndToEndTests {
        static let server = #"""
            import http.server, json, sys
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                    with open(sys.argv[2], "a") as log:
                        log.write(json.dumps({"path": self.path, "auth": self.headers.get("Authorization"), "body": body}) + "\n")
                    lines = []
                    for merchant in body["messages"][1]["content"].splitlines():
                        if "MEDICALS" in merchant: lines.append(merchant + " => Health / Pharmacy")
                        elif "FILLING" in merchant: lines.append(merchant + " => Transport / Fuel")
                        elif "ODD" in merchant: lines.append(merchant + " => Gadgets / Toys")
                        else: lines.append(merchant + " => unknown")
                    reply = json.dumps({"id": "x", "object": "chat.completion", "model": body["model"],
                                        "choices": [{"index": 0, "message": {"role": "assistant", "content": "\n".join(lines)}, "finish_reason": "stop"}]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(reply)))
                    self.end_headers()
                    self.wfile.write(reply)
                def log_message(self, *args): pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            with open(sys.argv[1], "w") as port: port.write(str(server.server_address[1]))
            server.serve_forever()
            """#

        static func alert(_ id: String, _ merchant: String, _ amount: String) -> String {
            let text = "Spent Rs.\(amount) On HDFC Bank Card 1234 At \(merchant) On 2026-03-10:10:00:00.Not You?"
            return #"{"id": "\#(id)", "sender": "VM-HDFCBK", "text": "\#(text)"}"#
        }

        @Test("unknown merchants asked in a batch; answers checked against the list, remembered, applied; a person's edit kept")
        func asks() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-llm-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let script = folder.appendingPathComponent("server.py")
            try Self.server.write(to: script, atomically: true, encoding: .utf8)
            let portFile = folder.appendingPathComponent("port").path
            let requests = folder.appendingPathComponent("requests.jsonl").path
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", script.path, portFile, requests]
            // Its output goes nowhere: a server holding the test runner's output open would keep the
            // run from ending. It is killed outright, as it may inherit SIGTERM blocked.
            python.standardOutput = FileHandle.nullDevice
            python.standardError = FileHandle.nullDevice
            python.standardInput = FileHandle.nullDevice
            try python.run()
            defer {
                kill(python.processIdentifier, SIGKILL)
                python.waitUntilExit()
            }
            var port: String?
            for _ in 0..<100 where port == nil {
                port = try? String(contentsOfFile: portFile, encoding: .utf8)
                if port?.isEmpty ?? true { port = nil; Thread.sleep(forTimeInterval: 0.1) }
            }
            let address = try #require(port, "the test server did not start")

            let store = folder.appendingPathComponent("ledger.sqlite").path
            let input = folder.appendingPathComponent("alerts.jsonl")
            try ([Self.alert("a1", "GREEN LEAF MEDICALS", "310.00"), Self.alert("a2", "HIGHWAY FILLING STATION", "2400.00"),
                  Self.alert("a3", "ODD SHOP", "99.00"), Self.alert("a4", "ZEPHYR TRADING", "2200.00"),
                  Self.alert("a5", "STAR MEDICALS", "120.00")].joined(separator: "\n") + "\n")
                .write(to: input, atomically: true, encoding: .utf8)
            #expect(try spendlex(["parse", input.path, "--store", store, "--quiet"]).status == 0)
            // A person says STAR MEDICALS is a doctor's: never asked about, never changed.
            let star = try #require(try spendlex(["transactions", "--store", store, "--format", "jsonl", "--merchant", "star"]).stdout
                .split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["ledger_id"] as? Int }.first)
            #expect(try spendlex(["edit", "\(star)", "--store", store, "--category", "Health/Doctors"]).status == 0)

            // Without settings, nothing is asked.
            #expect(try spendlex(["categorize", "--store", store]).status == 0)
            #expect(!FileManager.default.fileExists(atPath: requests))

            try """
                language_model:
                  url: http://127.0.0.1:\(address)/v1/chat/completions
                  model: test-model
                  api_key_env: SPENDLEX_TEST_KEY
                """.write(to: folder.appendingPathComponent("spendlex.yaml"), atomically: true, encoding: .utf8)
            let asked = try run(spendlexBinary, ["categorize", "--store", store], in: repositoryRoot, environment: ["SPENDLEX_TEST_KEY": "secret"])
            #expect(asked.status == 0, "\(asked.stderr)")
            #expect(asked.stdout.contains("language model test-model (4 merchants asked): 2 remembered, 2 transactions categorized"), "\(asked.stdout)")
            #expect(asked.stderr.contains("not a declared category: ODD SHOP => Gadgets / Toys"), "\(asked.stderr)")

            let sent = try String(contentsOfFile: requests, encoding: .utf8).split(separator: "\n")
            #expect(sent.count == 1)
            let request = try #require(try JSONSerialization.jsonObject(with: Data(sent[0].utf8)) as? [String: Any])
            #expect(request["path"] as? String == "/v1/chat/completions")
            #expect(request["auth"] as? String == "Bearer secret")
            let body = try #require(request["body"] as? [String: Any])
            #expect(body["model"] as? String == "test-model")
            let messages = try #require(body["messages"] as? [[String: Any]])
            #expect((messages[0]["content"] as? String)?.contains("- Health: Pharmacy, Doctors") == true)
            #expect(messages[1]["content"] as? String == "GREEN LEAF MEDICALS\nHIGHWAY FILLING STATION\nODD SHOP\nZEPHYR TRADING")

            let listed = try spendlex(["transactions", "--store", store, "--format", "jsonl"]).stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let category = Dictionary(uniqueKeysWithValues: listed.map { ($0["merchant"] as? String ?? "", "\($0["category"] ?? "")/\($0["subcategory"] ?? "")") })
            #expect(category["GREEN LEAF MEDICALS"] == "Health/Pharmacy")
            #expect(category["HIGHWAY FILLING STATION"] == "Transport/Fuel")
            #expect(category["ODD SHOP"]?.hasPrefix("Uncategorized") == true)
            #expect(category["STAR MEDICALS"] == "Health/Doctors")
            let remembered = try String(contentsOf: folder.appendingPathComponent("categories.yaml"), encoding: .utf8)
            #expect(remembered.contains("      - id: model.green-leaf-medicals\n        description: \"asked test-model on "))
            #expect(!remembered.contains("star-medicals"))

            // A later run categorizes the remembered merchant by its row, with no request.
            let later = folder.appendingPathComponent("later.jsonl")
            try (Self.alert("b1", "GREEN LEAF MEDICALS", "95.00") + "\n").write(to: later, atomically: true, encoding: .utf8)
            #expect(try spendlex(["parse", later.path, "--store", store, "--quiet"]).status == 0)
            let again = try spendlex(["transactions", "--store", store, "--format", "jsonl", "--merchant", "green leaf"]).stdout
            #expect(again.split(separator: "\n").count == 2)
            #expect(again.split(separator: "\n").allSatisfy { $0.contains("\"category\":\"Health\"") })
        }
    }
}
