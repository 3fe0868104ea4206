import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex recurring` and the report's section for it, through the real binary, on a year of
    /// HDFC card alerts: planted subscriptions (monthly, one with a price rise, one with a skipped
    /// month; yearly; quarterly) among ordinary shopping at random days and amounts.
    @Suite("spendlex recurring, end to end")
    struct RecurringEndToEndTests {
        /// One alert a line, as `spendlex parse` reads JSON Lines.
        static func alert(_ id: Int, _ merchant: String, _ amount: String, _ day: Date) -> String {
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "Asia/Kolkata")
            format.dateFormat = "yyyy-MM-dd"
            let date = format.string(from: day)
            let text = "Spent Rs.\(amount) On HDFC Bank Card 1234 At \(merchant) On \(date):10:00:00.Not You> To Block+Reissue Call 18002586161"
            return #"{"id": "a\#(id)", "sender": "VM-HDFCBK", "received_at": "\#(date)T10:00:00+05:30", "text": "\#(text)"}"#
        }

        static func year() -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Asia/Kolkata")!
            func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
                calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
            }
            var lines: [String] = []
            func add(_ merchant: String, _ amount: String, _ date: Date) { lines.append(alert(lines.count + 1, merchant, amount, date)) }
            for month in 0..<12 { add("NETFLIX", month < 6 ? "649.00" : "799.00", day(2025, 12 + month, 5)) }
            for month in 0..<12 where month != 3 { add("SPOTIFY", "119.00", day(2025, 12 + month, 20)) }
            for quarter in 0..<4 { add("CULT FIT", "4500.00", day(2025, 12 + 3 * quarter, 2)) }
            add("AMAZON PRIME", "1499.00", day(2025, 11, 20))
            add("AMAZON PRIME", "1499.00", day(2026, 11, 20))
            var seed: UInt64 = 42
            func next() -> Int {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Int(seed >> 33)
            }
            let shops = ["BIG BAZAAR", "SWIGGY", "ZOMATO", "FLIPKART", "DMART", "UBER", "STARBUCKS"]
            for _ in 0..<120 {
                let amount = "\(100 + next() % 4000).\(String(format: "%02d", next() % 100))"
                add(shops[next() % shops.count], amount, day(2025, 12, 1).addingTimeInterval(Double(next() % 365) * 86400))
            }
            return lines.joined(separator: "\n") + "\n"
        }

        @Test("recurring finds the planted payments and no shopping, in text and JSON; the report has a section for them")
        func findsPlantedPayments() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-recurring-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let input = folder.appendingPathComponent("year.jsonl")
            try Self.year().write(to: input, atomically: true, encoding: .utf8)
            let store = folder.appendingPathComponent("ledger.sqlite").path
            let parsed = try spendlex(["parse", input.path, "--store", store, "--quiet"])
            #expect(parsed.status == 0, "\(parsed.stderr)")

            let json = try spendlex(["recurring", "--store", store, "--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let payments = try #require(body["payments"] as? [[String: Any]])
            let byMerchant = Dictionary(uniqueKeysWithValues: payments.map { ($0["merchant"] as? String ?? "", $0) })
            #expect(Set(byMerchant.keys) == ["NETFLIX", "SPOTIFY", "CULT FIT", "AMAZON PRIME"], "\(json.stdout)")
            #expect(byMerchant["NETFLIX"]?["amount"] as? String == "799")
            #expect((byMerchant["NETFLIX"]?["price_changes"] as? [[String: Any]])?.count == 1)
            #expect((byMerchant["NETFLIX"]?["transactions"] as? [Int])?.count == 12)
            #expect(byMerchant["SPOTIFY"]?["missed"] as? [String] == ["2026-03-20"])
            #expect(byMerchant["CULT FIT"]?["cadence"] as? String == "quarterly")
            #expect(byMerchant["AMAZON PRIME"]?["cadence"] as? String == "yearly")
            #expect(byMerchant["AMAZON PRIME"]?["next"] as? String == "2027-11-20")

            let text = try spendlex(["recurring", "--store", store])
            #expect(text.stdout.contains("NETFLIX: ₹799.00 monthly, paid 12 times since 2025-12-05"), "\(text.stdout)")
            #expect(text.stdout.contains("  missed: 2026-03-20\n"))
            #expect(text.stdout.hasSuffix("4 recurring payments, 4 still running\n"))

            let report = try spendlex(["report", "--store", store, "--period", "year"])
            #expect(report.stdout.contains("\n== Recurring payments\n"))
            let html = try spendlex(["report", "--store", store, "--format", "html"])
            #expect(html.stdout.contains("<h2>Recurring payments</h2>"))
            let reportJSON = try #require(try JSONSerialization.jsonObject(with: Data(try spendlex(["report", "--store", store, "--format", "json"]).stdout.utf8)) as? [String: Any])
            #expect((reportJSON["recurring"] as? [Any])?.count == 4)
        }
    }
}
