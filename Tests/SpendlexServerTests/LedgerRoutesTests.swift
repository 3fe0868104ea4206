import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexEngine
import SpendlexRules
import SpendlexServer
import SpendlexStore
import Testing

/// The ledger over HTTP: listing, editing, deleting, exporting, categories and mappings, reports.
@Suite("ledger routes")
struct LedgerRoutesTests {
    static let metro = MessagesRouteTests.metroSMS
    static let dinner = #"{"sender": "VM-HDFCBK", "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?"}"#

    @Test("GET /search finds words of the stored messages and transactions, ranked, each hit cited")
    func search() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: key, json: Self.metro)
            _ = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let found = try await client.call(.get, "/search?q=eazydine", key: key)
            #expect(found.status == .ok)
            #expect(found["total"] as? Int == 1)
            let hit = try #require((found["hits"] as? [[String: Any]])?.first)
            #expect((hit["snippet"] as? String)?.contains("«EAZYDINE0000000»") == true)
            let citation = try #require(hit["citation"] as? [String: Any])
            #expect(citation["sender"] as? String == "VM-HDFCBK")
            #expect(citation["status"] as? String == "transaction")
            #expect((hit["transaction"] as? [String: Any])?["merchant"] as? String == "EAZYDINE0000000")
            // Words that must not be there leave hits by meaning out too.
            #expect(try await client.call(.get, "/search?q=rs%20-eazydine", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/search?q=rs%20-eazydine&mode=exact", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/search?q=%22pune%20metro%22&mode=exact", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/search?q=AND%20OR&mode=exact", key: key)["total"] as? Int == 0)
            // By meaning: the metro ride for a train, with no word of it in the message.
            let train = try await client.call(.get, "/search?q=train%20ticket&mode=semantic", key: key)
            #expect(train["mode"] as? String == "semantic")
            let first = try #require((train["hits"] as? [[String: Any]])?.first)
            #expect((first["transaction"] as? [String: Any])?["merchant"] as? String == "Pune Metro")
            #expect(first["score"] is NSNull)
            #expect((first["similarity"] as? Double ?? 0) > 0.5)
            for nothing in ["q=", "q=%26", "q=%20-metro"] {
                let reply = try await client.call(.get, "/search?\(nothing)", key: key)
                #expect(reply.status == .ok, "\(nothing)")
                #expect(reply["total"] as? Int == 0, "\(nothing)")
            }
            for bad in ["", "q=metro&limit=0", "q=metro&mode=fuzzy"] {
                let reply = try await client.call(.get, "/search?\(bad)", key: key)
                #expect(reply.status == .badRequest, "\(bad)")
                #expect(reply.errorCode == "invalid_field", "\(bad)")
            }
        }
    }

    @Test("GET /search without the embedding model: words alone with a notice; by meaning alone a 422")
    func searchWithoutModel() async throws {
        let test = try TestService { $0.embeddingModelFolder = "/nonexistent/spendlex-model" }
        let key = test.key
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: key, json: Self.metro)
            let found = try await client.call(.get, "/search?q=metro", key: key)
            #expect(found.status == .ok)
            #expect(found["total"] as? Int == 1)
            #expect(found["mode"] as? String == "exact")
            #expect((found["notice"] as? String)?.contains("not installed") == true)
            let semantic = try await client.call(.get, "/search?q=metro&mode=semantic", key: key)
            #expect(semantic.status == .unprocessableContent)
            #expect(semantic.errorCode == "model_not_installed")
            let exact = try await client.call(.get, "/search?q=metro&mode=exact", key: key)
            #expect(exact["notice"] is NSNull)
        }
    }

    @Test("GET /ask answers a question with its figure, query and citations; one it cannot read is a 422")
    func ask() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: key, json: Self.metro)
            _ = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let answer = try await client.call(.get, "/ask?q=how%20much%20did%20I%20spend%20in%20May%202026&today=2026-06-01", key: key)
            #expect(answer.status == .ok)
            let figures = answer["figures"] as? [[String: Any]]
            #expect(figures?.count == 1)
            #expect(figures?.first?["amount"] as? String == "10304")
            #expect(figures?.first?["currency"] as? String == "INR")
            #expect((answer["citations"] as? [Any])?.count == 2)
            #expect((answer["query"] as? String)?.contains("2026-05-01 to 2026-05-31") == true)
            let spanish = try await client.call(.get, "/ask?q=%C2%BFcu%C3%A1nto%20pagu%C3%A9%20a%20pune%20metro%3F", key: key)
            #expect((spanish["figures"] as? [[String: Any]])?.first?["amount"] as? String == "14")
            let refused = try await client.call(.get, "/ask?q=what%27s%20the%20weather", key: key)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "cannot_answer")
            #expect(try await client.call(.get, "/ask?q=how%20much&today=someday", key: key).status == .badRequest)
        }
    }

    @Test("GET /transactions filters, pages newest first, and refuses bad parameters")
    func list() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: key, json: Self.metro)
            _ = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let all = try await client.call(.get, "/transactions?days=36500", key: key)
            #expect(all["total"] as? Int == 2)
            let merchants = (all["transactions"] as? [[String: Any]])?.map { $0["merchant"] as? String }
            #expect(merchants == ["Pune Metro", "EAZYDINE0000000"])  // newest first
            // The default window is the last 60 days: these are older.
            #expect(try await client.call(.get, "/transactions", key: key)["total"] as? Int == 0)
            #expect(try await client.call(.get, "/transactions?from=2026-05-01&to=2026-05-05", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/transactions?days=36500&category=Transport", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/transactions?days=36500&category=Uncategorized", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/transactions?days=36500&q=metro", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/transactions?days=36500&account=0000", key: key)["total"] as? Int == 1)
            #expect(try await client.call(.get, "/transactions?days=36500&status=pending", key: key)["total"] as? Int == 0)
            let page = try await client.call(.get, "/transactions?days=36500&limit=1", key: key)
            #expect(page["next_offset"] as? Int == 1)
            #expect((page["transactions"] as? [Any])?.count == 1)
            let last = try await client.call(.get, "/transactions?days=36500&limit=1&offset=1", key: key)
            #expect(last["next_offset"] is NSNull)
            for bad in ["days=0", "limit=9999", "from=yesterday", "status=maybe", "from=2026-05-02&to=2026-05-01"] {
                let reply = try await client.call(.get, "/transactions?\(bad)", key: key)
                #expect(reply.status == .badRequest, "\(bad)")
                #expect(reply.errorCode == "invalid_field", "\(bad)")
            }
        }
    }

    @Test("a user's category and note are kept over the rules when the ledger is categorized again")
    func editKeptOverRules() async throws {
        let test = try TestService()
        let key = test.key
        let ledger = test.service.ledger!
        try await test.live { client in
            let stored = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let id = try #require(stored.at("transaction", "id") as? Int)
            let edited = try await client.call(.put, "/transactions/\(id)", key: key,
                                               json: #"{"category": "Food & Dining", "subcategory": "Restaurants", "note": "team dinner"}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(edited["category_source"] as? String == "user")
            #expect(edited["note"] as? String == "team dinner")
            let unknown = try await client.call(.put, "/transactions/\(id)", key: key, json: #"{"category": "Nope"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorCode == "unknown_category")
            #expect(try await client.call(.put, "/transactions/424242", key: key, json: #"{"note": "x"}"#).status == .notFound)

            // Recategorizing everything by the rules leaves the user's choice alone.
            let counts = try ledger.categorize(recompute: true) { _ in Ledger.StoredCategory(category: "Shopping", subcategory: nil) }
            #expect(counts.keptByUser == 1)
            let after = try await client.call(.get, "/transactions/\(id)", key: key)
            #expect(after["category"] as? String == "Food & Dining")
            #expect(after["subcategory"] as? String == "Restaurants")
            // A note edit leaves the category; null removes the note.
            let noteless = try await client.call(.put, "/transactions/\(id)", key: key, json: #"{"note": null}"#)
            #expect(noteless["note"] is NSNull)
            #expect(noteless["category"] as? String == "Food & Dining")
        }
    }

    @Test("DELETE removes a transaction for good: posting its message again does not bring it back")
    func delete() async throws {
        let test = try TestService()
        let key = test.key
        try await test.live { client in
            let stored = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let id = try #require(stored.at("transaction", "id") as? Int)
            #expect(try await client.call(.delete, "/transactions/\(id)", key: key).status == .noContent)
            #expect(try await client.call(.get, "/transactions/\(id)", key: key).errorCode == "not_found")
            #expect(try await client.call(.delete, "/transactions/\(id)", key: key).status == .notFound)
            let again = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            #expect(again["status"] as? String == "duplicate")
            #expect(again["transaction"] is NSNull)
            #expect(try await client.call(.get, "/transactions?days=36500", key: key)["total"] as? Int == 0)
        }
    }

    @Test("GET /transactions/export/csv is `spendlex export --format csv`")
    func exportCSV() async throws {
        let test = try TestService()
        let key = test.key
        let ledger = test.service.ledger!
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: key, json: Self.metro)
            _ = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let reply = try await client.call(.get, "/transactions/export/csv", key: key)
            #expect(reply.status == .ok)
            let expected = LedgerExporter(format: .csv).export(try ledger.transactions()).text
            #expect(reply.text == expected)
            #expect(reply.text.hasPrefix("Ledger,Category,Subcategory,Currency,Price,"))
            #expect(reply.text.split(separator: "\n").count == 3)
            let ranged = try await client.call(.get, "/transactions/export/csv?from=2026-05-05", key: key)
            #expect(ranged.text.split(separator: "\n").count == 2)
        }
    }

    @Test("a user's merchant mapping is kept, categorizes new messages, and exports as YAML rows")
    func mappings() async throws {
        let test = try TestService()
        let key = test.key
        let ledger = test.service.ledger!
        try await test.live { client in
            let categories = try await client.call(.get, "/categories", key: key)
            let names = (categories["categories"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(names.contains("Travel") && names.contains("Transport"))
            let bad = try await client.call(.post, "/categories/mappings", key: key, json: #"{"merchant": "x", "category": "Nope"}"#)
            #expect(bad.errorCode == "unknown_category")
            let added = try await client.call(.post, "/categories/mappings", key: key,
                                              json: #"{"merchant": "Eazydine0000000", "category": "Food & Dining", "subcategory": "Restaurants"}"#)
            #expect(added.status == .created, "\(added.text)")
            let stored = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            #expect(stored.at("transaction", "category") as? String == "Food & Dining")
            #expect(stored.at("transaction", "subcategory") as? String == "Restaurants")
            // Categorizing the ledger again (spendlex categorize --recompute) applies the mapping first.
            let metro = try await client.call(.post, "/messages", key: key, json: Self.metro)
            _ = try ledger.categorize(recompute: true) { _ in Ledger.StoredCategory(category: "Shopping", subcategory: nil) }
            let id = try #require(stored.at("transaction", "id") as? Int)
            #expect(try ledger.transaction(id: Int64(id))?.category == "Food & Dining")
            let metroID = try #require(metro.at("transaction", "id") as? Int)
            #expect(try ledger.transaction(id: Int64(metroID))?.category == "Shopping")
            #expect(try ledger.mappingStatistics().contains { $0.row == "user-mapping.1" && $0.hits == 2 })
            let listed = try await client.call(.get, "/categories/mappings", key: key)
            #expect((listed["mappings"] as? [[String: Any]])?.first?["merchant"] as? String == "Eazydine0000000")
            let yaml = try await client.call(.get, "/categories/mappings?format=yaml", key: key)
            #expect(yaml.text.contains("- id: user-mapping.1\n  merchant: [\"Eazydine0000000\"]\n  category: \"Food & Dining\"\n  subcategory: \"Restaurants\"\n"))
            // Removed: new messages from the merchant are categorized by the rules again.
            #expect(try await client.call(.delete, "/categories/mappings/1", key: key).status == .noContent)
            #expect(try await client.call(.delete, "/categories/mappings/1", key: key).status == .notFound)
            let later = #"{"sender": "VM-HDFCBK", "text": "Spent Rs.99 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-03:10:00:00.Not You?"}"#
            let unmapped = try await client.call(.post, "/messages", key: key, json: later)
            #expect(unmapped.at("transaction", "category") as? String == "Uncategorized", "\(unmapped.text)")
        }
    }

    @Test("GET /recurring is `spendlex recurring --format json`: a monthly payment found, with its next date")
    func recurring() async throws {
        let test = try TestService()
        let key = test.key
        let ledger = test.service.ledger!
        try await test.live { client in
            for month in 1...4 {
                let text = "Spent Rs.649.00 On HDFC Bank Card 0000 At NETFLIX On 2026-0\(month)-05:10:00:00.Not You?"
                let posted = try await client.call(.post, "/messages", key: key, json: #"{"sender": "VM-HDFCBK", "text": "\#(text)"}"#)
                #expect(posted.status == .created || posted.status == .ok, "\(posted.text)")
            }
            let reply = try await client.call(.get, "/recurring", key: key)
            #expect(reply.status == .ok)
            let cli = try JSONSerialization.jsonObject(with: Data(RecurringPayments(transactions: try ledger.transactions()).json().utf8))
            #expect((try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? NSDictionary) == (cli as? NSDictionary))
            let payments = try #require(reply["payments"] as? [[String: Any]])
            #expect(payments.count == 1)
            #expect(payments.first?["cadence"] as? String == "monthly")
            #expect(payments.first?["next"] as? String == "2026-05-05")
            #expect(try await client.call(.get, "/recurring?from=2026-05-01&to=2026-04-01", key: key).errorCode == "invalid_field")
        }
    }

    @Test("GET /budgets is `spendlex budget --format json`, from the budgets file read at each request")
    func budgets() async throws {
        let test = try TestService()
        let key = test.key
        let ledger = test.service.ledger!
        let file = URL(fileURLWithPath: test.service.configuration.storePath).deletingLastPathComponent().appendingPathComponent("budgets.yaml")
        try await test.live { client in
            #expect(try await client.call(.get, "/budgets", key: key).errorCode == "no_budgets")
            _ = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            try #"budgets: [{category: "Food & Dining", limit: 20000, currency: INR}]"#.write(to: file, atomically: true, encoding: .utf8)
            let reply = try await client.call(.get, "/budgets?today=2026-05-20", key: key)
            #expect(reply.status == .ok, "\(reply.text)")
            let (budgets, _) = BudgetFileReader.read(text: try String(contentsOf: file, encoding: .utf8), path: file.path,
                                                     categories: .standard)
            let expected = BudgetStatus(budgets: try #require(budgets), transactions: try ledger.transactions(),
                                        day: LocalDate(iso: "2026-05-20")!)
            let cli = try JSONSerialization.jsonObject(with: Data(expected.json().utf8))
            #expect((try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? NSDictionary) == (cli as? NSDictionary))
            try #"budgets: [{category: Nope, limit: 1, currency: INR}]"#.write(to: file, atomically: true, encoding: .utf8)
            #expect(try await client.call(.get, "/budgets", key: key).errorCode == "invalid_budgets")
        }
    }

    @Test("GET /reports/summary is the report of `spendlex report --format json`")
    func summary() async throws {
        let test = try TestService()
        let key = test.key
        let ledger = test.service.ledger!
        try await test.live { client in
            _ = try await client.call(.post, "/messages", key: key, json: Self.metro)
            _ = try await client.call(.post, "/messages", key: key, json: Self.dinner)
            let reply = try await client.call(.get, "/reports/summary?period=month", key: key)
            #expect(reply.status == .ok)
            let expected = ReportFormat.json.render(LedgerReport(transactions: try ledger.transactions(), period: .month))
            #expect(reply.text == expected)
            #expect(reply["period"] as? String == "month")
            #expect(try await client.call(.get, "/reports/summary?period=fortnight", key: key).errorCode == "invalid_field")
        }
    }
}

@Suite("category mappings in the ledger")
struct CategoryMappingLedgerTests {
    @Test("mappings match whole words in any case, the longest wins, and `categorize` applies them first")
    func matching() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ledger = try Ledger(path: folder.path("ledger.sqlite"))
        let cafe = try ledger.addCategoryMapping(merchant: "Corner Cafe", category: "Food & Dining", subcategory: "Coffee")
        let mappings = [cafe, CategoryMapping(id: 2, merchant: "Corner Cafe Books", category: "Shopping", subcategory: nil)]
        #expect(mappings.mapping(for: "CORNER-CAFE #12")?.id == cafe.id)
        #expect(mappings.mapping(for: "corner cafe books ltd")?.id == 2)
        #expect(mappings.mapping(for: "Cornercafe") == nil)
        #expect(mappings.mapping(for: nil) == nil)
        // The same merchant again replaces the mapping.
        let replaced = try ledger.addCategoryMapping(merchant: "corner  cafe", category: "Shopping", subcategory: nil)
        #expect(replaced.id == cafe.id)
        #expect(try ledger.categoryMappings().map(\.category) == ["Shopping"])
    }
}
