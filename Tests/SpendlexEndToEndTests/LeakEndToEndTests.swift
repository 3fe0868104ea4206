import Foundation
import GRDB
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// Card numbers in every shape, through every output of the real binary: none comes out whole.
    /// CSV cells a spreadsheet would run as formulas come out as text. Files are the owner's only.
    @Suite("nothing leaked, end to end", .serialized)
    struct LeakEndToEndTests {
        /// A card number as it may stand in a message: alone, glued to letters, spaced, dashed.
        static let shapes = ["4111111111111111", "EAZYDINE4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111",
                             "SHOP5555555555554444X"]
        /// The digits whole, in any spelling: what no output may hold.
        static let forbidden = ["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "5555555555554444"]

        /// A folder with a JSON Lines file and an .eml file that carry card numbers in merchants,
        /// ids, senders, subjects, HTML and unmatched texts.
        func inputs() throws -> (folder: URL, files: [String]) {
            let folder = TestScratch.root.appendingPathComponent("spendlex-leak-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var lines: [String] = []
            for (index, shape) in Self.shapes.enumerated() {
                let spend = "Spent Rs.1\(index)0 On HDFC Bank Card 0000 At \(shape) On 2026-05-0\(index + 1):22:26:01.Not You?"
                lines.append(try json(["id": "sms-\(shape)", "sender": "VM-HDFCBK", "channel": "sms", "text": spend]))
                lines.append(try json(["id": "other-\(index)", "sender": "VM-HDFCBK\(shape)", "channel": "sms", "text": spend]))
                // A bank's message no parser reads and no ignore rule sets aside (a blocked card is a
                // refusal, ignored): it goes to the unmatched report with its card number.
                lines.append(try json(["id": "unmatched-\(index)", "sender": "VM-HDFCBK", "channel": "sms",
                                       "text": "Your card \(shape) was renewed today"]))
                // The number where the amount stands: an error naming the rule, never an amount.
                lines.append(try json(["id": "amount-\(index)", "sender": "VM-HDFCBK", "channel": "sms",
                                       "text": "Spent Rs.\(shape) On HDFC Bank Card 0000 At SHOP On 2026-05-02:22:26:01.Not You?"]))
                lines.append(try json(["id": "balance-\(index)", "sender": "OCBC", "channel": "sms",
                                       "text": "OCBC Alert: Your OCBC card ending 1234 was charged SGD 2\(index).40 at SAMPLE BAKERY on 05/03/2026 at 08:45. Available credit limit: SGD \(shape)"]))
            }
            let jsonl = folder.appendingPathComponent("alerts.jsonl").path
            try (lines.joined(separator: "\n") + "\n").write(toFile: jsonl, atomically: true, encoding: .utf8)
            let eml = folder.appendingPathComponent("alert.eml").path
            try """
                From: HDFC Bank <alerts@hdfcbank.net>\r
                Subject: Card EAZYDINE4111111111111111 used\r
                Message-ID: <4111-1111-1111-1111@hdfcbank.net>\r
                Date: Sat, 02 May 2026 16:56:01 +0000\r
                Content-Type: text/html; charset=utf-8\r
                \r
                <html><body><p>Spent Rs.10290 On HDFC Bank Card 0000 At <b>SHOP4111111111111111</b> On 2026-05-02:22:26:01.</p></body></html>\r

                """.write(toFile: eml, atomically: true, encoding: .utf8)
            return (folder, [jsonl, eml])
        }

        func json(_ object: [String: String]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }

        func expectNoCardNumber(_ text: String, _ place: String, sourceLocation: SourceLocation = #_sourceLocation) {
            for number in Self.forbidden {
                #expect(!text.contains(number), "\(place) holds \(number):\n\(text)", sourceLocation: sourceLocation)
            }
        }

        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }

        @Test("parse, the unmatched report, the ledger, every export and report: no full card number, files 0600")
        func everyOutput() throws {
            let (folder, files) = try inputs()
            defer { try? FileManager.default.removeItem(at: folder) }
            for format in ["jsonl", "csv", "csv-full", "table"] {
                let unmatched = folder.appendingPathComponent("unmatched-\(format).jsonl").path
                let result = try spendlex(["parse"] + files + ["--format", format, "--unmatched", unmatched])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("XXXXXXXXXXXX1111"), "\(result.stdout)")
                expectNoCardNumber(result.stdout, "parse --format \(format)")
                expectNoCardNumber(result.stderr, "parse's stderr")
                let report = try String(contentsOfFile: unmatched, encoding: .utf8)
                #expect(report.contains("was renewed"))
                expectNoCardNumber(report, "the unmatched report")
                #expect(try mode(unmatched) & 0o077 == 0)
            }
            let ledger = folder.appendingPathComponent("ledger.sqlite").path
            let stored = try spendlex(["parse"] + files + ["--store", ledger])
            #expect(stored.status == 0, "\(stored.stderr)")
            #expect(try mode(ledger) & 0o077 == 0)
            for format in ["csv", "jsonl", "beancount", "ledger"] {
                let output = folder.appendingPathComponent("export.\(format)").path
                let result = try spendlex(["export", "--store", ledger, "--format", format, "--include-duplicates", "--output", output]
                                          .filter { format == "csv" || format == "jsonl" || $0 != "--include-duplicates" })
                #expect(result.status == 0, "\(result.stderr)")
                let text = try String(contentsOfFile: output, encoding: .utf8)
                #expect(text.contains("1111"))
                expectNoCardNumber(text, "export --format \(format)")
                #expect(try mode(output) & 0o077 == 0)
            }
            for format in ["text", "json", "html"] {
                let result = try spendlex(["report", "--store", ledger, "--format", format, "--from", "2026-01-01"])
                #expect(result.status == 0, "\(result.stderr)")
                expectNoCardNumber(result.stdout, "report --format \(format)")
            }
            // Every text the ledger holds, read back through SQLite (the WAL included), and its raw bytes.
            let queue = try DatabaseQueue(path: ledger)
            let texts = try queue.read { db in
                var texts: [String] = []
                for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                    for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                        for value in row.databaseValues { if let text = String.fromDatabaseValue(value) { texts.append(text) } }
                    }
                }
                return texts
            }
            #expect(texts.contains { $0.contains("XXXXXXXXXXXX1111") })
            expectNoCardNumber(texts.joined(separator: "\n"), "the ledger")
            for file in [ledger, ledger + "-wal"] {
                if let data = FileManager.default.contents(atPath: file) {
                    expectNoCardNumber(String(decoding: data, as: UTF8.self), file)
                }
            }
        }

        @Test("merchants that a spreadsheet would run as formulas come out as text in every CSV; amounts stay numbers")
        func formulaInjection() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-csv-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let merchants = [#"=HYPERLINK("http://evil.example","Click")"#, "+cmd|' /C calc'!A0", "@SUM(1+1)", "=1+1"]
            let lines = try merchants.enumerated().map { index, merchant in
                try json(["id": "f-\(index)", "sender": "VM-HDFCBK", "channel": "sms",
                          "text": "Spent Rs.1,2\(index)0.50 On HDFC Bank Card 0000 At \(merchant) On 2026-05-0\(index + 1):22:26:01.Not You?"])
            }
            let input = folder.appendingPathComponent("formulas.jsonl").path
            try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
            let ledger = folder.appendingPathComponent("ledger.sqlite").path
            #expect(try spendlex(["parse", input, "--store", ledger]).status == 0)
            var outputs: [(String, String)] = []
            for format in ["csv", "csv-full"] {
                let result = try spendlex(["parse", input, "--format", format])
                #expect(result.status == 0, "\(result.stderr)")
                outputs.append(("parse --format \(format)", result.stdout))
            }
            let export = try spendlex(["export", "--store", ledger, "--format", "csv"])
            #expect(export.status == 0, "\(export.stderr)")
            outputs.append(("export --format csv", export.stdout))
            for (place, csv) in outputs {
                let rows = csv.split(separator: "\n").dropFirst()
                #expect(rows.count == merchants.count, "\(place):\n\(csv)")
                for row in rows {
                    // A cell starts after a comma (or a quote that opens it); none may start a formula.
                    for opener in [",=", ",+", ",@", ",\"=", ",\"+", ",\"@"] {
                        #expect(!row.contains(opener), "\(place): \(row)")
                    }
                }
                #expect(csv.contains(#"'=HYPERLINK("#) || csv.contains(#"'=HYPERLINK(""#), "\(place):\n\(csv)")
                #expect(csv.contains("'@SUM(1+1)"), "\(place):\n\(csv)")
            }
            // The price is a negative number in the expense-tracker CSV, and stays one.
            #expect(outputs[0].1.contains(",-1200.50,"), "\(outputs[0].1)")
        }
    }
}
