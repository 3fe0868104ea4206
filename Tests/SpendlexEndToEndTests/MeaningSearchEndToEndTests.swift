import Foundation
import SpendlexMeaning
import SpendlexStore
import Testing
import SpendlexTestSupport

extension EndToEnd {
    @Suite("search by meaning, end to end", .serialized)
    struct MeaningSearchEndToEndTests {
        /// The installed embedding model, or an issue saying how to install it.
        private func model() -> EmbeddingModel? {
            switch EmbeddingModel.installed() {
            case .success(let model): return model
            case .failure(let error):
                Issue.record("search by meaning is not tested: \(error)")
                return nil
            }
        }

        private func temporaryStore() -> String {
            TestScratch.root.appendingPathComponent("spendlex-meaning-\(UUID().uuidString).sqlite").path
        }

        @Test("'food delivery' ranks Swiggy and Zomato first over Uber and a grocery store; --exact finds none; without the model a notice")
        func foodDelivery() throws {
            guard model() != nil else { return }
            let messages = """
                {"id": "m1", "sender": "VM-HDFCBK", "received_at": "2026-05-02T16:56:30Z", "channel": "sms", "text": "Spent Rs.349 On HDFC Bank Card 4321 At SWIGGY On 2026-05-02:20:26:01.Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 4321 to 7308080808"}
                {"id": "m2", "sender": "VM-HDFCBK", "received_at": "2026-05-03T13:10:00Z", "channel": "sms", "text": "Spent Rs.512 On HDFC Bank Card 4321 At ZOMATO On 2026-05-03:13:09:44.Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 4321 to 7308080808"}
                {"id": "m3", "sender": "VM-HDFCBK", "received_at": "2026-05-04T09:02:00Z", "channel": "sms", "text": "Spent Rs.230 On HDFC Bank Card 4321 At UBER INDIA On 2026-05-04:09:01:10.Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 4321 to 7308080808"}
                {"id": "m4", "sender": "VM-HDFCBK", "received_at": "2026-05-05T18:40:00Z", "channel": "sms", "text": "Spent Rs.1840 On HDFC Bank Card 4321 At BIGBASKET On 2026-05-05:18:39:02.Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 4321 to 7308080808"}
                """
            let input = TestScratch.root.appendingPathComponent("spendlex-meaning-\(UUID().uuidString).jsonl")
            try (messages + "\n").write(to: input, atomically: true, encoding: .utf8)
            let store = temporaryStore()
            defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(atPath: store) }
            let parsed = try spendlex(["parse", input.path, "--store", store, "-o", "/dev/null"])
            #expect(parsed.status == 0, "\(parsed.stderr)")
            // The run that stored them embedded their meanings (4 merchants: 4 documents).
            #expect(parsed.stderr.contains("search: 4 new meanings embedded"), "\(parsed.stderr)")
            func merchants(_ arguments: [String]) throws -> [String] {
                let result = try spendlex(["search", "--store", store, "--format", "jsonl"] + arguments)
                #expect(result.status == 0, "\(result.stderr)")
                return try result.stdout.split(separator: "\n").map { line in
                    let hit = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    return ((hit["transaction"] as? [String: Any])?["merchant"] as? String) ?? "-"
                }
            }
            #expect(Set(try merchants(["--semantic", "food delivery"]).prefix(2)) == ["SWIGGY", "ZOMATO"])
            #expect(Set(try merchants(["food delivery"]).prefix(2)) == ["SWIGGY", "ZOMATO"])
            #expect(try merchants(["--exact", "food delivery"]).allSatisfy { ["SWIGGY", "ZOMATO"].contains($0) })
            #expect(try merchants(["--semantic", "taxi"]).first == "UBER INDIA")
            // Without the model: the words alone, and one line saying so; --semantic is refused.
            let elsewhere = ["SPENDLEX_MODEL_DIR": "/nonexistent/spendlex-model"]
            let words = try spendlex(["search", "--store", store, "--format", "jsonl", "swiggy"], environment: elsewhere)
            #expect(words.status == 0)
            #expect(words.stdout.split(separator: "\n").count == 1)
            #expect(words.stderr.split(separator: "\n").count == 1)
            #expect(words.stderr.hasPrefix("note: searching by words only: the embedding model is not installed"))
            let refused = try spendlex(["search", "--store", store, "--semantic", "food delivery"], environment: elsewhere)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("--semantic needs the embedding model"))
            // ask reads a phrase no merchant's name holds by meaning, and says what it took.
            func ask(_ question: String, environment: [String: String] = [:]) throws -> (answer: [String: Any], stderr: String) {
                let result = try spendlex(["ask", "--store", store, "--format", "json", question], environment: environment)
                #expect(result.status == 0, "\(result.stderr)")
                return (try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]), result.stderr)
            }
            let rides = try ask("how much did I spend on cab rides").answer
            let reading = try #require(rides["read_by_meaning"] as? [String: Any])
            #expect(reading["category"] as? String == "Taxi & Rideshare")
            #expect(reading["stood_out"] as? Bool == true)
            #expect((rides["merchants"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["UBER INDIA"])
            #expect((rides["figures"] as? [[String: Any]])?.first?["amount"] as? String == "230")
            // Four merchants, none a gym: none stands out, nothing is counted.
            let gym = try ask("how much did I spend on gym").answer
            #expect((gym["read_by_meaning"] as? [String: Any])?["stood_out"] as? Bool == false)
            #expect((gym["citations"] as? [Any])?.isEmpty == true)
            let text = try spendlex(["ask", "--store", store, "how much did I spend on cab rides"])
            #expect(text.stdout.contains("read by meaning: no merchant's name holds \"cab rides\"; took the category Taxi & Rideshare"))
            #expect(text.stdout.contains("merchants: UBER INDIA (1)"))
            let unread = try ask("how much did I spend on cab rides", environment: elsewhere)
            #expect(unread.answer["read_by_meaning"] is NSNull)
            #expect((unread.answer["notice"] as? String)?.contains("embedding model") == true)
            // reindex rebuilds both indexes.
            let reindexed = try spendlex(["reindex", "--store", store])
            #expect(reindexed.status == 0, "\(reindexed.stderr)")
            #expect(reindexed.stdout.contains("4 messages' meanings (4 distinct)"), "\(reindexed.stdout)")
        }

        /// One labelled query of `Tests/Fixtures/search/queries.jsonl`.
        struct LabelledQuery: Decodable {
            let id: String
            let query: String
            let language: String
            let relevant: [String]
            let part: String
        }

        @Test("the labelled queries: a relevant transaction in the top 5 for clearly more queries by words and meaning than by words alone")
        func labelledQueries() throws {
            guard let model = model() else { return }
            let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/search")
            let store = temporaryStore()
            defer { try? FileManager.default.removeItem(atPath: store) }
            let parsed = try spendlex(["parse", folder.appendingPathComponent("messages.jsonl").path, "--store", store, "-o", "/dev/null"])
            #expect(parsed.status == 0, "\(parsed.stderr)")
            let queries = try String(contentsOf: folder.appendingPathComponent("queries.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try JSONDecoder().decode(LabelledQuery.self, from: Data($0.utf8)) }
            #expect(queries.count >= 60)
            let ledger = try Ledger(path: store)
            var found: [SearchMode: [String: Int]] = [:]   // mode → "part/language" → queries answered in the top 5
            var asked: [String: Int] = [:]
            var report = ""
            for query in queries {
                let relevant = Set(query.relevant)
                for key in ["all", query.part, "\(query.part)/\(query.language)"] { asked[key, default: 0] += 1 }
                var line = "\(query.id) [\(query.part) \(query.language)] \(query.query):"
                for mode in [SearchMode.exact, .hybrid, .semantic] {
                    let hits = try ledger.search(query.query, mode: mode, embedder: model, limit: 5).hits
                    let answered = hits.contains { relevant.contains($0.transaction?.merchant ?? "") }
                    if answered {
                        for key in ["all", query.part, "\(query.part)/\(query.language)"] { found[mode, default: [:]][key, default: 0] += 1 }
                    }
                    line += " \(mode.rawValue) \(answered ? "yes" : "no ")"
                }
                report += line + "\n"
            }
            for key in asked.keys.sorted() {
                report += "\(key): \(asked[key]!) queries; words \(found[.exact]?[key] ?? 0), words and meaning \(found[.hybrid]?[key] ?? 0), meaning \(found[.semantic]?[key] ?? 0)\n"
            }
            print(report)
            let all = asked["all"]!
            let exact = found[.exact]?["all"] ?? 0
            let hybrid = found[.hybrid]?["all"] ?? 0
            // Clearly more: at least a fifth of all the queries more, and more on the sealed part too.
            #expect(hybrid >= exact + all / 5, "words \(exact), words and meaning \(hybrid) of \(all)")
            #expect((found[.hybrid]?["sealed"] ?? 0) > (found[.exact]?["sealed"] ?? 0))
            // A merchant's name typed exactly is answered by words alone, and still by the fusion.
            for query in queries where query.relevant.contains(where: { $0.lowercased().hasPrefix(query.query.lowercased()) }) {
                let hits = try ledger.search(query.query, mode: .hybrid, embedder: model, limit: 1).hits
                #expect(hits.first.map { query.relevant.contains($0.transaction?.merchant ?? "") } == true, "\(query.query)")
            }
        }
    }
}
