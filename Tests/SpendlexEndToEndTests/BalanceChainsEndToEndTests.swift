import Foundation
import Testing

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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-balances-\(UUID().uuidString)")
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
}
