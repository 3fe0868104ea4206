import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex budget` and the report's budgets, through the real binary: the same spent and left
    /// for each budget, in text and JSON; a broken budgets file is located and refused.
    @Suite("spendlex budget, end to end")
    struct BudgetEndToEndTests {
        static func alert(_ id: Int, _ merchant: String, _ amount: String, _ date: String) -> String {
            let text = "Spent Rs.\(amount) On HDFC Bank Card 1234 At \(merchant) On \(date):10:00:00.Not You?"
            return #"{"id": "b\#(id)", "sender": "VM-HDFCBK", "text": "\#(text)"}"#
        }

        @Test("budget and the report agree on spent and left for each category; a broken file is located")
        func agree() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-budget-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("ledger.sqlite").path
            let lines = [
                Self.alert(1, "SWIGGY", "450.00", "2026-02-20"), Self.alert(2, "SWIGGY", "620.00", "2026-03-03"),
                Self.alert(3, "ZOMATO", "380.00", "2026-03-11"), Self.alert(4, "UBER", "240.00", "2026-03-12"),
                Self.alert(5, "UBER", "1950.00", "2026-03-14"), Self.alert(6, "NETFLIX", "649.00", "2026-03-05"),
            ]
            let input = folder.appendingPathComponent("alerts.jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
            #expect(try spendlex(["parse", input.path, "--store", store, "--quiet"]).status == 0)
            // Beside the ledger, where budget and report look for it.
            try """
                budgets:
                  - {category: "Food & Dining", limit: 3000, currency: INR, rollover: true}
                  - {category: "Transport/Taxi & Rideshare", limit: 2000, currency: INR}
                  - {category: Entertainment, limit: 500, currency: INR, period: quarter}
                """.write(to: folder.appendingPathComponent("budgets.yaml"), atomically: true, encoding: .utf8)

            let budget = try spendlex(["budget", "--store", store, "--today", "2026-03-15", "--format", "json"])
            #expect(budget.status == 0, "\(budget.stderr)")
            let standalone = try #require(try JSONSerialization.jsonObject(with: Data(budget.stdout.utf8)) as? [String: Any])
            let report = try spendlex(["report", "--store", store, "--to", "2026-03-15", "--format", "json"])
            #expect(report.status == 0, "\(report.stderr)")
            let reported = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["budgets"] as? [String: Any])
            let a = try #require(standalone["budgets"] as? [[String: Any]])
            let b = try #require(reported["budgets"] as? [[String: Any]])
            #expect(a.count == 3)
            #expect(a.map { "\($0["category"]!) \($0["spent"]!) \($0["left"]!)" } == b.map { "\($0["category"]!) \($0["spent"]!) \($0["left"]!)" })
            let byName = Dictionary(uniqueKeysWithValues: a.map { ($0["category"] as? String ?? "", $0) })
            // February left 2,550 of 3,000 to carry; March spent 1,000.
            #expect(byName["Food & Dining"]?["spent"] as? String == "1000")
            #expect(byName["Food & Dining"]?["carried"] as? String == "2550")
            #expect(byName["Food & Dining"]?["left"] as? String == "4550")
            #expect(byName["Transport / Taxi & Rideshare"]?["left"] as? String == "-190")
            #expect(byName["Transport / Taxi & Rideshare"]?["state"] as? String == "over")
            #expect(byName["Entertainment"]?["label"] as? String == "2026-Q1")

            let text = try spendlex(["budget", "--store", store, "--today", "2026-03-15"])
            #expect(text.stdout.contains("warning: Transport / Taxi & Rideshare is over budget by ₹190.00"), "\(text.stdout)")
            let reportText = try spendlex(["report", "--store", store, "--to", "2026-03-15"])
            #expect(reportText.stdout.contains("== Budgets on 2026-03-15\n"))
            let html = try spendlex(["report", "--store", store, "--to", "2026-03-15", "--format", "html"])
            #expect(html.stdout.contains("<h2>Budgets on 2026-03-15</h2>"))

            // A broken file: the error names the line and column, and nothing is reported.
            try """
                budgets:
                  - {category: "Food & Dining", limit: 3000, currency: INR}
                  - {category: Fun, limit: 10, currency: INR}
                """.write(to: folder.appendingPathComponent("budgets.yaml"), atomically: true, encoding: .utf8)
            let broken = try spendlex(["budget", "--store", store])
            #expect(broken.status == 65)
            #expect(broken.stderr.contains("budgets.yaml:3:16: error: unknown category 'Fun'"), "\(broken.stderr)")
        }
    }
}
