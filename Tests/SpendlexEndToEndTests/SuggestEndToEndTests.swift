import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    @Suite("spendlex suggest, end to end", .serialized)
    struct SuggestEndToEndTests {
        /// A fresh `rules/banks/<country>` folder in a temporary directory, so the schema comment's
        /// relative path has the usual shape.
        private func bankFolder(country: String) throws -> URL {
            let folder = TestScratch.root
                .appendingPathComponent("spendlex-suggest-\(UUID().uuidString)/rules/banks/\(country)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }

        @Test func aSuggestedBankFilePassesSpendlexTest() throws {
            let result = try spendlex([
                "suggest", "--bank-id", "boi", "--bank-name", "Bank of Ireland", "--country", "IE",
                "--text", "You spent €12.50 at TESCO on 21/11/2026",
                "--text", "You spent €3.99 at O'BRIENS SANDWICH BAR on 22/11/2026",
                "--text", #"€40.00 paid to "Dr. Murphy's" [clinic] on 23/11/2026: ref AB123456. Not you? Call 1800 946 764"#,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("# yaml-language-server: $schema=../../../grammars/spendlex-rules.schema.json\n"))
            #expect(result.stdout.contains("\nid: boi\n"))
            #expect(result.stderr.contains("2 drafts for 3 messages"))

            let file = try bankFolder(country: "ie").appendingPathComponent("boi.yaml")
            try result.stdout.write(to: file, atomically: true, encoding: .utf8)
            let test = try spendlex(["test", file.path, "grammars"])
            #expect(test.status == 0, "\(test.stderr)\n\(result.stdout)")
            #expect(test.stdout.hasSuffix("\n3 passed, 0 failed\n"))
            let check = try spendlex(["check", file.path, "grammars"])
            #expect(check.status == 0, "\(check.stderr)")
        }

        @Test func draftsFromTheUnmatchedReportOfParse() throws {
            let folder = try bankFolder(country: "in")
            let inbox = folder.appendingPathComponent("inbox.jsonl")
            let unmatched = folder.appendingPathComponent("unmatched.jsonl")
            try """
                {"id": "a", "sender": "VM-HDFCBK", "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?"}
                {"id": "b", "sender": "AX-CANBNK", "text": "Rs.250.00 debited from Canara Bank A/c XX4521 to VPA chai@okicici on 02-11-26. UPI Ref 612345678901. Not you? Call 18602662666"}
                {"id": "c", "sender": "AX-CANBNK", "text": "Rs.1,099.00 debited from Canara Bank A/c XX4521 to VPA shop@ybl on 03-11-26. UPI Ref 612345678902. Not you? Call 18602662666"}

                """.write(to: inbox, atomically: true, encoding: .utf8)
            let parse = try spendlex(["parse", inbox.path, "--unmatched", unmatched.path, "--all", "--quiet"])
            #expect(parse.status == 0, "\(parse.stderr)")

            let result = try spendlex(["suggest", "--unmatched", unmatched.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\nid: canbnk\n"))
            #expect(result.stdout.contains("senders: ['*-CANBNK']"))
            #expect(result.stdout.contains("# covers 2 messages"))
            let file = folder.appendingPathComponent("canbnk.yaml")
            try result.stdout.write(to: file, atomically: true, encoding: .utf8)
            let test = try spendlex(["test", file.path, "grammars"])
            #expect(test.status == 0, "\(test.stderr)")
            #expect(test.stdout.hasSuffix("\n2 passed, 0 failed\n"))
        }

        @Test func alreadyParsedMessagesAreSkippedAndNothingLeftExitsOne() throws {
            let result = try spendlex([
                "suggest", "--sender", "VM-HDFCBK",
                "--text", "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?",
            ])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("note: message text1: already parsed by hdfc.card.spend; skipped"))
        }

        @Test func badUsageExits64() throws {
            #expect(try spendlex(["suggest"]).status == 64)
            #expect(try spendlex(["suggest", "--text", "x", "--bank-id", "Bad Id"]).status == 64)
            #expect(try spendlex(["suggest", "--text", "x", "--country", "IRL"]).status == 64)
        }

        /// The transactions of a `parse --format jsonl` run, by message id: amount, merchant, rule.
        private func transactions(_ stdout: String) throws -> [String: (amount: String, merchant: String?, rule: String)] {
            var found: [String: (amount: String, merchant: String?, rule: String)] = [:]
            for line in stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let source = try #require(object["source"] as? [String: Any])
                let id = try #require(source["id"] as? String)
                found[id] = ((object["amount"] as? String) ?? "", object["merchant"] as? String, (object["rule"] as? String) ?? "")
            }
            return found
        }

        /// The issue's "done when": a mixed unmatched file (two unknown banks, a person, a newsletter,
        /// a shop receipt) gives exactly two drafts named for their senders, with merchant slots;
        /// both pass `spendlex test`, and parsing the file with them added only improves its results.
        @Test func aMixedUnmatchedFileGivesOneDraftPerBankAndRefusesTheRest() throws {
            let input = repositoryRoot.appendingPathComponent("Tests/Fixtures/inputs/suggest-mixed-unmatched.jsonl")
            let root = TestScratch.root.appendingPathComponent("spendlex-suggest-\(UUID().uuidString)")
            let drafts = root.appendingPathComponent("drafts")
            defer { try? FileManager.default.removeItem(at: root) }

            let result = try spendlex(["suggest", "--unmatched", input.path, "--out-dir", drafts.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            let files = try FileManager.default.contentsOfDirectory(atPath: drafts.path).sorted()
            #expect(files == ["thamesmutual.yaml", "zenbnk.yaml"], "\(result.stderr)")
            // Refused or ignored, each with a note; none drafted.
            for id in ["person-1", "news-1", "shop-1"] {
                #expect(result.stderr.contains("note: message \(id): "), "\(id): \(result.stderr)")
            }
            #expect(result.stderr.contains("note: message person-1: refused, a phone number"))
            // What each draft extracts from every message it was made from.
            for (id, merchant) in [("tm-1", "TESCO STORES"), ("tm-2", "COSTA COFFEE"), ("tm-3", "SHELL KINGSTON"),
                                   ("zen-1", "SWIGGY"), ("zen-2", "BIG BAZAAR"), ("zen-3", "MAKEMYTRIP")] {
                #expect(result.stderr.contains("message \(id): ") && result.stderr.contains("merchant=\(merchant)"),
                        "\(id): \(result.stderr)")
            }

            for (file, id, sender) in [("thamesmutual.yaml", "thamesmutual", "alerts@thamesmutual.co.uk"),
                                       ("zenbnk.yaml", "zenbnk", "*-ZENBNK")] {
                let path = drafts.appendingPathComponent(file).path
                let yaml = try String(contentsOfFile: path, encoding: .utf8)
                #expect(yaml.contains("\nid: \(id)\n"))
                #expect(yaml.contains("senders: ['\(sender)']"))
                #expect(yaml.contains("(?<merchant>"), "\(yaml)")
                for merchant in ["TESCO", "COSTA", "SHELL", "SWIGGY", "BAZAAR", "MAKEMYTRIP"] {
                    #expect(!yaml.split(separator: "\n").contains { $0.contains("pattern:") && $0.contains(merchant) })
                }
                let test = try spendlex(["test", path, "grammars"])
                #expect(test.status == 0, "\(test.stderr)\n\(yaml)")
                #expect(test.stdout.hasSuffix(", 0 failed\n"))
            }

            let expected: [String: (amount: String, merchant: String)] = [
                "tm-1": ("12.50", "TESCO STORES"), "tm-2": ("3.99", "COSTA COFFEE"), "tm-3": ("47.20", "SHELL KINGSTON"),
                "zen-1": ("1250.00", "SWIGGY"), "zen-2": ("349.00", "BIG BAZAAR"), "zen-3": ("5600.00", "MAKEMYTRIP"),
            ]
            func correct(_ found: [String: (amount: String, merchant: String?, rule: String)]) -> Int {
                expected.filter { id, want in
                    found[id].map { Decimal(string: $0.amount) == Decimal(string: want.amount) && $0.merchant == want.merchant } ?? false
                }.count
            }
            let before = try spendlex(["parse", input.path, "--rules", "rules", "--rules", "grammars", "--format", "jsonl", "--quiet"])
            let after = try spendlex(["parse", input.path, "--rules", "rules", "--rules", "grammars", "--rules", drafts.path,
                                      "--format", "jsonl", "--quiet"])
            #expect(before.status == 0 && after.status == 0, "\(before.stderr)\n\(after.stderr)")
            let withDrafts = try transactions(after.stdout)
            #expect(correct(withDrafts) >= correct(try transactions(before.stdout)))
            #expect(correct(withDrafts) == expected.count, "\(after.stdout)")
            for id in ["person-1", "news-1", "shop-1"] {
                #expect(withDrafts[id] == nil, "\(id) became a transaction")
            }
            // The drafts, not the fallback, read their banks' messages now.
            for (id, found) in withDrafts {
                #expect(found.rule.hasPrefix(id.hasPrefix("tm-") ? "thamesmutual." : "zenbnk."), "\(id): \(found.rule)")
            }
            // And every bundled example still behaves as written with the drafts loaded.
            let all = try spendlex(["test", "rules", "grammars", drafts.path])
            #expect(all.status == 0, "\(all.stdout.suffix(2000))")
        }

        @Test func withoutOutDirTheDraftsGoToStdoutSeparated() throws {
            let input = repositoryRoot.appendingPathComponent("Tests/Fixtures/inputs/suggest-mixed-unmatched.jsonl")
            let result = try spendlex(["suggest", "--unmatched", input.path])
            #expect(result.status == 0, "\(result.stderr)")
            let documents = result.stdout.components(separatedBy: "\n---\n")
            #expect(documents.count == 2)
            #expect(documents.first?.contains("\nid: thamesmutual\n") == true)
            #expect(documents.last?.contains("\nid: zenbnk\n") == true)
            #expect(result.stderr.contains("note: 2 bank files, separated by '---' lines"))
        }

        @Test func bankNameWithManySendersIsBadUsage() throws {
            let input = repositoryRoot.appendingPathComponent("Tests/Fixtures/inputs/suggest-mixed-unmatched.jsonl")
            let result = try spendlex(["suggest", "--unmatched", input.path, "--bank-name", "My Bank"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--bank-name"))

            // One bank and a person: the person is refused, so --bank-name names the one draft.
            let folder = try bankFolder(country: "gb")
            let oneBank = folder.appendingPathComponent("one-bank.jsonl")
            let lines = try String(contentsOf: input, encoding: .utf8).split(separator: "\n")
                .filter { $0.contains("thamesmutual") || $0.contains("person-1") }
            try (lines.joined(separator: "\n") + "\n").write(to: oneBank, atomically: true, encoding: .utf8)
            let named = try spendlex(["suggest", "--unmatched", oneBank.path, "--bank-name", "Thames Mutual"])
            #expect(named.status == 0, "\(named.stderr)")
            #expect(named.stdout.contains("\nbank: 'Thames Mutual'\nid: thamesmutual\n"))
        }
    }
}
