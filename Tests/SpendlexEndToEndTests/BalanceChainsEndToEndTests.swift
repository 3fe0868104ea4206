import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex check-balances` on a ledger filled by `spendlex parse --store`.
    @Suite("spendlex check-balances, end to end", .serialized)
    struct BalanceChainsEndToEndTests {
        /// Four SMS of one account, the one of 4 July missing: the pair around it breaks by its amount.
        static let messages = """
            {"id": "b1", "sender": "AD-ICICIB", "text": "ICICI Bank Acc XX000 debited Rs. 100.00 on 01-Jul-26 InfoSAMPLE SHOP.Avl Bal Rs. 1,000.00.To dispute call 18002662 or SMS BLOCK 000 to 9215676766"}
            {"id": "b2", "sender": "AD-ICICIB", "text": "ICICI Bank Acc XX000 debited Rs. 50.00 on 02-Jul-26 InfoSAMPLE CAFE.Avl Bal Rs. 950.00.To dispute call 18002662 or SMS BLOCK 000 to 9215676766"}
            {"id": "b3", "sender": "AD-ICICIB", "text": "ICICI Bank Account XX000 credited:Rs. 200.00 on 03-Jul-26. Info CASH DEP SAMPLE BRANCH. Available Balance is Rs. 1,150.00."}
            {"id": "b5", "sender": "AD-ICICIB", "text": "ICICI Bank Acc XX000 debited Rs. 20.00 on 05-Jul-26 InfoSAMPLE MART.Avl Bal Rs. 1,100.00.To dispute call 18002662 or SMS BLOCK 000 to 9215676766"}

            """

        @Test func aMissingMessageIsABreakOfItsAmount() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-balances-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let input = folder.appendingPathComponent("sms.jsonl")
            try Data(Self.messages.utf8).write(to: input)
            let ledger = folder.appendingPathComponent("ledger.sqlite").path
            let empty = try spendlex(["check-balances", "--store", ledger])
            #expect(empty.status == 65, "no ledger yet")
            #expect(try spendlex(["parse", input.path, "--store", ledger, "--quiet"]).status == 0)

            let text = try spendlex(["check-balances", "--store", ledger])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout == """
                icici account 000 INR: 2 of 3 consecutive balances chain (67%), 4 transactions with a balance, the balance falls with debits
                  break: ledger id 4 (2026-07-05, debit 20.00, balance 1100.00) after ledger id 3 (2026-07-03, credit 200.00, balance 1150.00): expected 1130, off by -30
                2 of 3 pairs chain in 1 account

                """)
            let json = try spendlex(["check-balances", "--store", ledger, "--format", "json"])
            let body = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(body["pairs"] as? Int == 3 && body["chained"] as? Int == 2)
            let breaks = (body["accounts"] as? [[String: Any]])?.first?["breaks"] as? [[String: Any]]
            #expect(breaks?.first?["difference"] as? String == "-30")
            // Only the days before the gap: everything chains.
            let before = try spendlex(["check-balances", "--store", ledger, "--to", "2026-07-03"])
            #expect(before.stdout.hasSuffix("2 of 2 pairs chain in 1 account\n"), "\(before.stdout)")
        }

        /// The 4 July alert, kept out of `messages`.
        static let fourthOfJuly = """
            {"id": "b4", "sender": "AD-ICICIB", "text": "ICICI Bank Acc XX000 debited Rs. 30.00 on 04-Jul-26 InfoSAMPLE BAKERY.Avl Bal Rs. 1,120.00.To dispute call 18002662 or SMS BLOCK 000 to 9215676766"}

            """

        /// A ledger of `text`'s messages in a folder without digits in its name.
        func ledger(of text: String) throws -> (folder: URL, store: String) {
            let letters = String(UUID().uuidString.map { $0.wholeNumberValue.map { Character(UnicodeScalar(UInt8(ascii: "g") + UInt8($0))) } ?? $0 })
            let folder = TestScratch.root.appendingPathComponent("spendlex-balances-\(letters)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let input = folder.appendingPathComponent("sms.jsonl")
            try Data(text.utf8).write(to: input)
            let store = folder.appendingPathComponent("ledger.sqlite").path
            let parsed = try spendlex(["parse", input.path, "--store", store, "--quiet", "-o", "/dev/null"])
            try #require(parsed.status == 0, "\(parsed.stderr)")
            return (folder, store)
        }

        @Test("balances: each account's latest stated balance; a removed alert is a gap of its amount; the journals assert the balances and bean-check and ledger-cli accept them")
        func balancesGapsAndAssertions() throws {
            let (folder, store) = try ledger(of: Self.messages)
            defer { try? FileManager.default.removeItem(at: folder) }
            let text = try spendlex(["balances", "--store", store])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout == """
                icici account 000 INR: balance 1100.00 INR on 2026-07-05 (ledger id 4)
                  gap: between ledger id 3 (2026-07-03) and 4 (2026-07-05): 30 INR less than their transactions explain (expected 1130, stated 1100.00)
                1 account with a stated balance, 1 gap

                """)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(try spendlex(["balances", "--store", store, "--format", "json"]).stdout.utf8)) as? [String: Any])
            let account = try #require((json["accounts"] as? [[String: Any]])?.first)
            #expect(account["balance"] as? String == "1100.00")
            #expect(account["meaning"] as? String == "balance")
            #expect((account["gaps"] as? [[String: Any]])?.first?["unexplained"] as? String == "-30")

            let beanCheck = try #require(executableOnPath("bean-check"), "bean-check is not on PATH (pip install beancount; .ci/run does this)")
            let ledgerCLI = try #require(executableOnPath("ledger"), "ledger is not on PATH (apt-get install ledger; .ci/run does this)")
            let beancount = folder.appendingPathComponent("ledger.beancount").path
            #expect(try spendlex(["export", "--store", store, "--format", "beancount", "--output", beancount]).status == 0)
            let journal = try String(contentsOfFile: beancount, encoding: .utf8)
            #expect(journal.contains("2026-07-01 pad Assets:Bank:Icici:000 Equity:Opening-Balances\n"))
            #expect(journal.contains("2026-07-03 balance Assets:Bank:Icici:000  950 INR\n"))
            #expect(journal.contains("; a gap: the postings since the last balance an alert stated leave -30 INR unexplained"))
            #expect(journal.contains("2026-07-05 pad Assets:Bank:Icici:000 Equity:Unexplained\n"))
            #expect(journal.contains("2026-07-06 balance Assets:Bank:Icici:000  1100 INR\n"))
            let checked = try run(beanCheck, [beancount], in: folder)
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
            let ledgerFile = folder.appendingPathComponent("ledger.journal").path
            #expect(try spendlex(["export", "--store", store, "--format", "ledger", "--output", ledgerFile]).status == 0)
            let balanced = try run(ledgerCLI, ["-f", ledgerFile, "balance"], in: folder)
            #expect(balanced.status == 0, "\(balanced.stderr)")
            #expect(balanced.stdout.contains("30.00 INR    Unexplained"))

            // With the 4 July alert, nothing is missing: no gap, no padding after the first balance.
            let (whole, wholeStore) = try ledger(of: Self.messages + Self.fourthOfJuly)
            defer { try? FileManager.default.removeItem(at: whole) }
            #expect(try spendlex(["balances", "--store", wholeStore]).stdout.hasSuffix("1 account with a stated balance, 0 gaps\n"))
            let complete = whole.appendingPathComponent("ledger.beancount").path
            #expect(try spendlex(["export", "--store", wholeStore, "--format", "beancount", "--output", complete]).status == 0)
            let completeJournal = try String(contentsOfFile: complete, encoding: .utf8)
            #expect(!completeJournal.contains("pad Assets:Bank:Icici:000 Equity:Unexplained"))
            #expect(completeJournal.contains("2026-07-05 balance Assets:Bank:Icici:000  1120 INR\n"))
            #expect(try run(beanCheck, [complete], in: whole).status == 0)
        }
    }
}
