import Foundation
import Testing
import SpendlexTestSupport

/// `shared/bench/gen_mbox.py`, which makes the reference corpus: beside the repository (CI clones
/// main with shared/ next to it), at /work/shared, or where SPENDLEX_GEN_MBOX says.
func referenceCorpusGenerator() throws -> URL {
    var candidates = ProcessInfo.processInfo.environment["SPENDLEX_GEN_MBOX"].map { [URL(fileURLWithPath: $0)] } ?? []
    candidates.append(repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/bench/gen_mbox.py"))
    candidates.append(URL(fileURLWithPath: "/work/shared/bench/gen_mbox.py"))
    return try #require(candidates.first { FileManager.default.fileExists(atPath: $0.path) },
                        "gen_mbox.py not found at \(candidates.map(\.path))")
}

/// `count` reference-corpus mails (gen_mbox.py, seed `seed`) as `corpus.mbox` in a new temporary
/// folder, with their labels beside (`corpus.mbox.labels.tsv`); the caller removes the folder.
func generateReferenceCorpus(count: Int, seed: Int) throws -> (folder: URL, mbox: String) {
    let folder = TestScratch.root.appendingPathComponent("spendlex-corpus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let mbox = folder.appendingPathComponent("corpus.mbox").path
    let generated = try run(URL(fileURLWithPath: "/usr/bin/env"),
                            ["python3", try referenceCorpusGenerator().path, "\(count)", mbox, "\(seed)"], in: folder)
    guard generated.status == 0 else {
        try? FileManager.default.removeItem(at: folder)
        throw TestFailure("gen_mbox.py failed: \(generated.stderr)")
    }
    return (folder, mbox)
}

/// `shared/conformance/india-sms.jsonl`, the conformance corpus (71 SMS of 11 Indian banks and
/// card issuers, with their expected fields): beside the repository, at /work/shared, or where
/// SPENDLEX_CONFORMANCE says.
func conformanceCorpus() throws -> URL {
    var candidates = ProcessInfo.processInfo.environment["SPENDLEX_CONFORMANCE"].map { [URL(fileURLWithPath: $0)] } ?? []
    candidates.append(repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/india-sms.jsonl"))
    candidates.append(URL(fileURLWithPath: "/work/shared/conformance/india-sms.jsonl"))
    return try #require(candidates.first { FileManager.default.fileExists(atPath: $0.path) },
                        "india-sms.jsonl not found at \(candidates.map(\.path))")
}

extension EndToEnd {
    /// The ledger as a daily tool, through the real binary, on a ledger filled from a reference-shaped
    /// mailbox (gen_mbox.py, 300 mails), the conformance corpus (india-sms.jsonl) and the world
    /// conformance corpus's development part: `transactions`, `show`, `edit`, `search`, `ask`,
    /// `balances`, `report` and `export`, in their table (text) and JSON forms.
    @Suite("spendlex transactions, show, edit and search, end to end", .serialized)
    struct BrowseEndToEndTests {
        let folder: URL
        let mbox: URL
        let store: String
        static let world = "Tests/Conformance/world/dev.jsonl"

        init() throws {
            // No digits in the folder's name: printed paths have card-number-like runs masked.
            let letters = String(UUID().uuidString.map { $0.wholeNumberValue.map { Character(UnicodeScalar(UInt8(ascii: "g") + UInt8($0))) } ?? $0 })
            folder = TestScratch.root.appendingPathComponent("spendlex-browse-\(letters)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            mbox = folder.appendingPathComponent("alerts.mbox")
            store = folder.appendingPathComponent("ledger.sqlite").path
            let generated = try run(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["python3", try referenceCorpusGenerator().path, "300", mbox.path, "7"], in: folder)
            try #require(generated.status == 0, "\(generated.stderr)")
            let mail = try spendlex(["parse", mbox.path, "--rules", "Benchmarks/rules", "--rules", "grammars", "--store", store,
                                     "-o", "/dev/null", "--quiet"])
            try #require(mail.status == 0, "\(mail.stderr)")
            let sms = try spendlex(["parse", Self.world, "--store", store, "-o", "/dev/null", "--quiet"])
            try #require(sms.status == 0 || sms.status == 1, "\(sms.stderr)")
            let conformance = try spendlex(["parse", try conformanceCorpus().path, "--store", store, "-o", "/dev/null", "--quiet"])
            try #require(conformance.status == 0 || conformance.status == 1, "\(conformance.stderr)")
        }

        /// The JSON objects of a JSON Lines output.
        func objects(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
        }

        func listed(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try spendlex(["transactions", "--store", store, "--format", "jsonl"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try objects(result.stdout)
        }

        @Test("transactions: a table for people, JSON Lines and CSV for programs, and every filter holds for what it lists")
        func listsWithFilters() throws {
            let all = try listed([])
            #expect(all.count > 200)
            #expect(Set(all.compactMap { $0["ledger_id"] as? Int }).count == all.count)
            let table = try spendlex(["transactions", "--store", store, "--format", "table"])
            #expect(table.stdout.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces).hasPrefix("ID  DATE") == true)
            #expect(table.stdout.contains("DATE") && table.stdout.contains("MERCHANT") && table.stdout.contains("AMOUNT"))
            #expect(table.stdout.hasSuffix("\(all.count) transactions\n"))
            let csv = try spendlex(["transactions", "--store", store, "--format", "csv"])
            #expect(csv.stdout.split(separator: "\n").count == all.count + 1)
            // Into a pipe, the default is JSON Lines.
            #expect(try spendlex(["transactions", "--store", store]).stdout == (try spendlex(["transactions", "--store", store, "--format", "jsonl"])).stdout)

            let amazon = try listed(["--merchant", "amazon"])
            #expect(!amazon.isEmpty)
            #expect(amazon.allSatisfy { ($0["merchant"] as? String)?.lowercased().contains("amazon") == true })
            let middle = try listed(["--min", "100", "--max", "500.00"])
            #expect(!middle.isEmpty && middle.count < all.count)
            #expect(middle.allSatisfy { object in
                guard let text = object["amount"] as? String, let amount = Decimal(string: text) else { return false }
                return amount >= 100 && amount <= 500
            })
            let credits = try listed(["--direction", "credit"])
            #expect(!credits.isEmpty && credits.allSatisfy { $0["direction"] as? String == "credit" })
            let dated = all.compactMap { $0["date"] as? String }.sorted()
            let day = dated[dated.count / 2]
            let fromDay = try listed(["--from", day])
            #expect(!fromDay.isEmpty && fromDay.allSatisfy { ($0["date"] as? String ?? "") >= day })
            let rubles = try listed(["--to", "2100-01-01", "--kind", "purchase", "--newest-first", "--limit", "3"])
            #expect(rubles.count == 3)
            let bad = try spendlex(["transactions", "--store", store, "--min", "1,000"])
            #expect(bad.status == 64)
            #expect(bad.stderr.contains("--min '1,000' is not an amount"))
            let noStore = try spendlex(["transactions"])
            #expect(noStore.status == 64)
            #expect(noStore.stderr.contains("SPENDLEX_STORE"))
        }

        @Test("show cites the message: its byte offset in the mailbox (where its From line is), sender, time and text")
        func showCitesTheMessage() throws {
            let mailed = try #require(try listed([]).first { ($0["source"] as? [String: Any])?["file"] as? String == mbox.path })
            let id = try #require(mailed["ledger_id"] as? Int)
            let shown = try spendlex(["show", "--store", store, String(id), "--format", "json"])
            #expect(shown.status == 0, "\(shown.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            let message = try #require(object["message"] as? [String: Any])
            let offset = try #require(message["offset"] as? Int)
            #expect(message["citation"] as? String == "\(mbox.path):\(offset)")
            let bytes = try Data(contentsOf: mbox)
            #expect(bytes[offset..<offset + 5] == Data("From ".utf8), "the cited offset is where the message starts")
            let text = try #require(message["text"] as? String)
            let amount = try #require((object["transaction"] as? [String: Any])?["amount"] as? String)
            #expect(text.contains(amount.replacingOccurrences(of: ".00", with: "")) || text.contains(amount))
            #expect(message["sender"] is String && message["received_at"] is String)

            let readable = try spendlex(["show", "--store", store, String(id)])
            #expect(readable.stdout.hasPrefix("Transaction \(id): "))
            #expect(readable.stdout.contains("cited      \(mbox.path):\(offset)"))
            #expect(readable.stdout.contains("    " + text.split(separator: "\n").first!.trimmingCharacters(in: .whitespaces)))

            // A message by its id, an SMS of the world corpus: cited by file and line.
            let world = try #require(try listed([]).first { ($0["source"] as? [String: Any])?["file"] as? String == Self.world })
            let messageID = try #require((world["source"] as? [String: Any])?["id"] as? String)
            let byMessage = try spendlex(["show", "--store", store, messageID])
            #expect(byMessage.status == 0)
            #expect(byMessage.stdout.contains("cited      \(Self.world):"))
            let missing = try spendlex(["show", "--store", store, "999999"])
            #expect(missing.status == 65)
            #expect(missing.stderr.contains("no transaction or message '999999'"))
        }

        @Test("edit: a person's merchant, category and note survive a rerun with --reprocess, and are found by search")
        func editsSurviveAndAreSearched() throws {
            let first = try #require(try listed([]).first)
            let id = try #require(first["ledger_id"] as? Int)
            let edited = try spendlex(["edit", "--store", store, String(id), "--merchant", "Corner Bakery", "--category",
                                       "Food & Dining/Groceries", "--note", "birthday cake for Zanele"])
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(edited.stdout.contains("merchant   Corner Bakery  (set by you)"))
            let unknown = try spendlex(["edit", "--store", store, String(id), "--category", "Nonsense"])
            #expect(unknown.status == 64)
            #expect(unknown.stderr.contains("unknown category 'Nonsense'"))

            for arguments in [[mbox.path, "--rules", "Benchmarks/rules", "--rules", "grammars"], [Self.world]] {
                let again = try spendlex(["parse"] + arguments + ["--store", store, "--reprocess", "-o", "/dev/null", "--quiet"])
                #expect(again.status == 0 || again.status == 1, "\(again.stderr)")
            }
            let shown = try #require(try JSONSerialization.jsonObject(
                with: Data(try spendlex(["show", "--store", store, String(id), "--format", "json"]).stdout.utf8)) as? [String: Any])
            let transaction = try #require(shown["transaction"] as? [String: Any])
            #expect(transaction["merchant"] as? String == "Corner Bakery")
            #expect(transaction["category"] as? String == "Food & Dining")
            #expect(transaction["subcategory"] as? String == "Groceries")

            let hits = try objects(try spendlex(["search", "--store", store, "--format", "jsonl", "--exact", "zanele"]).stdout)
            #expect(hits.count == 1)
            #expect((hits.first?["transaction"] as? [String: Any])?["ledger_id"] as? Int == id)
            let cleared = try spendlex(["edit", "--store", store, String(id), "--clear-note"])
            #expect(cleared.status == 0)
            #expect(try spendlex(["search", "--store", store, "--format", "jsonl", "--exact", "zanele"]).stdout.isEmpty)
        }

        @Test("search: ranked hits with snippets and citations, in text and JSON; a query with no word is a usage error")
        func searchesWithCitations() throws {
            let result = try spendlex(["search", "--store", store, "--format", "jsonl", "--limit", "5", "--exact", "amazon"])
            #expect(result.status == 0, "\(result.stderr)")
            let hits = try objects(result.stdout)
            #expect(hits.count == 5)
            let scores = hits.compactMap { $0["score"] as? Double }
            #expect(scores == scores.sorted())
            for hit in hits {
                #expect((hit["snippet"] as? String)?.lowercased().contains("«amazon»") == true)
                let message = try #require(hit["message"] as? [String: Any])
                let citation = try #require(message["citation"] as? String)
                #expect(citation.hasPrefix(mbox.path + ":") || citation.hasPrefix(Self.world + ":"), "\(citation)")
            }
            // Fused with the meaning ranking (the default), a merchant's name typed exactly still comes first.
            let fused = try objects(try spendlex(["search", "--store", store, "--format", "jsonl", "--limit", "5", "amazon"]).stdout)
            #expect(fused.count == 5)
            #expect(fused.allSatisfy { (($0["transaction"] as? [String: Any])?["merchant"] as? String)?.lowercased().contains("amazon") == true })
            let text = try spendlex(["search", "--store", store, "--format", "text", "--limit", "2", "amazon"])
            #expect(text.stdout.hasPrefix("1. transaction "))
            #expect(text.stdout.contains("   cited: \(mbox.path):") || text.stdout.contains("   cited: \(Self.world):"))
            #expect(text.stdout.contains("2 of "))
            // The world corpus's messages, in their own scripts, are found too.
            let cyrillic = try objects(try spendlex(["search", "--store", store, "--format", "jsonl", "--exact", "баланс"]).stdout)
            #expect(!cyrillic.isEmpty)
            #expect(cyrillic.allSatisfy { (($0["message"] as? [String: Any])?["citation"] as? String)?.hasPrefix(Self.world) == true })
            // One argument of two words is a phrase: the words next to each other, in that order.
            let phrase = try objects(try spendlex(["search", "--store", store, "--format", "jsonl", "--limit", "100", "--exact", "debit card"]).stdout)
            let apart = try objects(try spendlex(["search", "--store", store, "--format", "jsonl", "--limit", "100", "--exact", "card", "debit"]).stdout)
            #expect(!phrase.isEmpty && phrase.count <= apart.count)
            #expect(phrase.allSatisfy { ($0["snippet"] as? String)?.lowercased().contains("«debit card»") == true })
            let nothing = try spendlex(["search", "--store", store, "&", "*"])
            #expect(nothing.status == 64)
            #expect(nothing.stderr.contains("give a word"))
        }

        @Test("ask: the figure is the sum of the transactions it cites, which the listing agrees with; balances in both forms")
        func asksAndBalances() throws {
            let listed = try listed(["--merchant", "amazon", "--include-duplicates"])
            let answered = try spendlex(["ask", "--store", store, "--format", "json", "how much did I spend at amazon?"])
            #expect(answered.status == 0, "\(answered.stderr)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(answered.stdout.utf8)) as? [String: Any])
            let cited = try #require(body["citations"] as? [Int])
            #expect(!cited.isEmpty)
            // Every cited transaction is an Amazon debit or refund the listing holds, and the figures add them up.
            let byID = Dictionary(uniqueKeysWithValues: listed.compactMap { object in (object["ledger_id"] as? Int).map { ($0, object) } })
            var sums: [String: Decimal] = [:]
            for id in cited {
                let object = try #require(byID[id], "ledger id \(id) is not an Amazon transaction")
                let amount = try #require(Decimal(string: object["amount"] as? String ?? ""))
                let currency = try #require(object["currency"] as? String)
                sums[currency, default: 0] += object["direction"] as? String == "debit" ? amount : -amount
            }
            let figures = try #require(body["figures"] as? [[String: Any]])
            #expect(figures.map { "\($0["amount"] as? String ?? "") \($0["currency"] as? String ?? "")" }
                    == sums.keys.sorted().map { "\(sums[$0]!) \($0)" })
            let text = try spendlex(["ask", "--store", store, "¿cuánto gasté en amazon?"])
            #expect(text.stdout.hasPrefix("You spent "))
            #expect(text.stdout.contains("\nquery: sum of debits"))
            #expect(text.stdout.contains("\ncounted: "))
            let refused = try spendlex(["ask", "--store", store, "what's the weather"])
            #expect(refused.status == 1)
            #expect(refused.stderr.hasPrefix("I can't answer that"))

            let balances = try spendlex(["balances", "--store", store])
            #expect(balances.status == 0, "\(balances.stderr)")
            #expect(balances.stdout.contains("with a stated balance"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(try spendlex(["balances", "--store", store, "--format", "json"]).stdout.utf8)) as? [String: Any])
            #expect(!((json["accounts"] as? [Any]) ?? []).isEmpty)
        }

        @Test("accounts: a debit card's spending leaves an asset, a credit card's is owed; the journals of the whole ledger pass bean-check and ledger-cli; the report in both forms")
        func accountsJournalsAndReport() throws {
            let cards = try listed([]).compactMap { $0["account"] as? [String: Any] }.filter { $0["type"] as? String == "card" }
            #expect(cards.contains { $0["card_kind"] as? String == "debit" })
            #expect(cards.contains { $0["card_kind"] as? String == "credit" })
            #expect(cards.allSatisfy { $0.keys.contains("card_kind") })

            let journal = folder.appendingPathComponent("ledger.beancount").path
            let exported = try spendlex(["export", "--store", store, "--format", "beancount", "-o", journal])
            #expect(exported.status == 0, "\(exported.stderr)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            // The conformance corpus's HDFC debit card reversal posts to an asset, its credit cards to liabilities.
            #expect(text.contains("Liabilities:CreditCard:Hdfc:"))
            #expect(text.contains(#/open Assets:Bank:Hdfc:(Debit-Card-)?\d+\n/#))
            let beanCheck = try #require(executableOnPath("bean-check"), "bean-check is not on PATH (pip install beancount; .ci/run does this)")
            let checked = try run(beanCheck, [journal], in: folder)
            #expect(checked.status == 0, "bean-check \(journal):\n\(checked.stdout)\(checked.stderr)")
            let ledgerJournal = folder.appendingPathComponent("ledger.journal").path
            #expect(try spendlex(["export", "--store", store, "--format", "ledger", "-o", ledgerJournal]).status == 0)
            let ledgerCLI = try #require(executableOnPath("ledger"), "ledger is not on PATH (apt-get install ledger; .ci/run does this)")
            let balanced = try run(ledgerCLI, ["-f", ledgerJournal, "balance"], in: folder)
            #expect(balanced.status == 0, "ledger balance:\n\(balanced.stderr)")

            let report = try spendlex(["report", "--store", store])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.stdout.contains("INR"))
            let json = try spendlex(["report", "--store", store, "--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            #expect((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) is [String: Any])
        }
    }
}
