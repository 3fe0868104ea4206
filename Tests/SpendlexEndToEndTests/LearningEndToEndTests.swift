import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// The learned category model through the real binary: a person's edits teach it, the next
    /// `parse --store` categorizes merchants no decision-table row names, `categorize --evaluate`
    /// scores it and `explain --transaction` says why.
    @Suite("learned categories, end to end")
    struct LearningEndToEndTests {
        static func alert(_ id: String, _ merchant: String, _ amount: String, day: Int) -> String {
            let text = "Spent Rs.\(amount) On HDFC Bank Card 1234 At \(merchant) On 2026-03-\(String(format: "%02d", day)):10:00:00.Not You?"
            return #"{"id": "\#(id)", "sender": "VM-HDFCBK", "text": "\#(text)"}"#
        }

        @Test("edits teach the model; the next run categorizes unseen shops of the same kinds; evaluate and explain")
        func editsTeach() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-learning-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("ledger.sqlite").path
            // Shops no decision table names: pharmacies and petrol pumps under local names.
            let pharmacies = ["SRI BALAJI MEDICALS", "NEW CITY MEDICALS", "ROYAL MEDICALS", "OM SAI MEDICALS", "STAR MEDICALS"]
            let pumps = ["SRI BALAJI FILLING STATION", "NEW CITY FILLING STATION", "ROYAL FILLING STATION", "OM SAI FILLING STATION",
                         "STAR FILLING STATION"]
            var lines: [String] = []
            for (index, name) in pharmacies.enumerated() { lines.append(Self.alert("p\(index)", name, "\(240 + index * 35).00", day: 1 + index)) }
            for (index, name) in pumps.enumerated() { lines.append(Self.alert("f\(index)", name, "\(2000 + index * 150).00", day: 10 + index)) }
            let first = folder.appendingPathComponent("first.jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: first, atomically: true, encoding: .utf8)
            #expect(try spendlex(["parse", first.path, "--store", store, "--quiet"]).status == 0)

            let listed = try spendlex(["transactions", "--store", store, "--format", "jsonl"])
            for line in listed.stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["category"] as? String == "Uncategorized", "a table named \(object["merchant"] ?? "")")
                let id = try #require(object["ledger_id"] as? Int)
                let merchant = object["merchant"] as? String ?? ""
                let category = merchant.hasSuffix("MEDICALS") ? "Health/Pharmacy" : "Transport/Fuel"
                let edited = try spendlex(["edit", "\(id)", "--store", store, "--category", category])
                #expect(edited.status == 0, "\(edited.stderr)")
            }

            let evaluated = try spendlex(["categorize", "--store", store, "--evaluate", "--folds", "5"])
            #expect(evaluated.status == 0, "\(evaluated.stderr)")
            #expect(evaluated.stdout.hasPrefix("5-fold accuracy on merchants each fold never saw: "))

            let second = folder.appendingPathComponent("second.jsonl")
            try ([Self.alert("n1", "GREEN LEAF MEDICALS", "310.00", day: 20), Self.alert("n2", "GREEN LEAF FILLING STATION", "2400.00", day: 21)]
                .joined(separator: "\n") + "\n").write(to: second, atomically: true, encoding: .utf8)
            let parsed = try spendlex(["parse", second.path, "--store", store])
            #expect(parsed.stderr.contains("learned model (10 examples): 2 categorized"), "\(parsed.stderr)")
            let after = try spendlex(["transactions", "--store", store, "--format", "jsonl", "--merchant", "green leaf"])
            let categories = Set(after.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map {
                    "\($0["merchant"] as? String ?? "") \($0["category"] as? String ?? "")"
                }
            })
            #expect(categories == ["GREEN LEAF MEDICALS Health", "GREEN LEAF FILLING STATION Transport"], "\(after.stdout)")

            let id = try #require(after.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).flatMap { object in
                    (object["merchant"] as? String) == "GREEN LEAF MEDICALS" ? object["ledger_id"] as? Int : nil
                }
            }.first)
            let explained = try spendlex(["explain", "--transaction", "\(id)", "--store", store])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout.contains("category: Health / Pharmacy, by the learned model, "))
            #expect(explained.stdout.contains("merchant word MEDICALS") || explained.stdout.contains("merchant's last word MEDICALS"), "\(explained.stdout)")
            let shown = try spendlex(["show", "\(id)", "--store", store])
            #expect(shown.stdout.contains("(learned, "))
        }

        @Test("edit --remember writes a row of the person's own categories file that later runs use; one that would change a bundled example is refused")
        func remember() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-remember-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("ledger.sqlite").path
            let first = folder.appendingPathComponent("first.jsonl")
            try ([Self.alert("a1", "ZEPHYR TRADING", "2200.00", day: 2), Self.alert("a2", "SWIGGY", "450.00", day: 3)]
                .joined(separator: "\n") + "\n").write(to: first, atomically: true, encoding: .utf8)
            #expect(try spendlex(["parse", first.path, "--store", store, "--quiet", "--no-learning"]).status == 0)
            let rows = try spendlex(["transactions", "--store", store, "--format", "jsonl"]).stdout.split(separator: "\n").compactMap { line in
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
            let zephyr = try #require(rows.first { $0["merchant"] as? String == "ZEPHYR TRADING" }?["ledger_id"] as? Int)
            let swiggy = try #require(rows.first { $0["merchant"] as? String == "SWIGGY" }?["ledger_id"] as? Int)

            let remembered = try spendlex(["edit", "\(zephyr)", "--store", store, "--category", "Education", "--remember"])
            #expect(remembered.status == 0, "\(remembered.stderr)")
            let file = folder.appendingPathComponent("categories.yaml")
            let written = try String(contentsOf: file, encoding: .utf8)
            #expect(written.contains("      - id: person.zephyr-trading\n        merchant: {keywords: [\"ZEPHYR TRADING\"]}\n        category: \"Education\"\n"))
            // Its example is a test, with the bundled rules.
            let tested = try spendlex(["test", file.path, "rules", "grammars"])
            #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")

            // A later run categorizes the merchant by the person's row.
            let later = folder.appendingPathComponent("later.jsonl")
            try (Self.alert("b1", "ZEPHYR TRADING", "2300.00", day: 20) + "\n").write(to: later, atomically: true, encoding: .utf8)
            #expect(try spendlex(["parse", later.path, "--store", store, "--quiet", "--no-learning"]).status == 0)
            let next = try spendlex(["transactions", "--store", store, "--format", "jsonl", "--merchant", "zephyr"]).stdout
            #expect(next.split(separator: "\n").count == 2)
            #expect(next.split(separator: "\n").allSatisfy { $0.contains("\"category\":\"Education\"") }, "\(next)")

            // SWIGGY as Shopping would change the bundled tables' own examples: refused, the file untouched.
            let refused = try spendlex(["edit", "\(swiggy)", "--store", store, "--category", "Shopping/Online", "--remember"])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("would change how other examples are categorized; nothing was written"), "\(refused.stderr)")
            #expect(refused.stderr.contains("Food & Dining > Food Delivery → Shopping > Online"))
            #expect(try String(contentsOf: file, encoding: .utf8) == written)
        }
    }
}
