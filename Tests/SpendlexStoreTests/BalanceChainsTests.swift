import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

@Suite("Balance chains")
struct BalanceChainsTests {
    func withBalance(_ id: String, _ amount: String, _ direction: Direction = .debit, date: String, balance: String,
                     last4: String = "1234", channel: MessageChannel = .sms, received: String? = nil) -> Transaction {
        transaction(id, channel: channel, received: received, amount: amount, direction: direction, date: date,
                    last4: last4, balance: balance)
    }

    @Test func anAmountOwedThatRisesWithDebitsChains() throws {
        let rows = try ledger(with: [
            withBalance("c1", "100.00", date: "2026-05-01", balance: "100.00"),
            withBalance("c2", "50.00", date: "2026-05-02", balance: "150.00"),
            withBalance("c3", "30.00", .credit, date: "2026-05-03", balance: "120.00"),
        ]).transactions()
        let account = try #require(BalanceChains(transactions: rows).accounts.first)
        #expect(account.pairs == 2 && account.chained == 2 && account.fallsWithDebits == false)
    }

    @Test func accountsChainApartAndDuplicatesAreLeftOut() throws {
        // The same payment by push a minute after the SMS: a duplicate, which must not count as a pair.
        let duplicate = withBalance("d2", "50.00", date: "2026-05-02", balance: "950.00", channel: .push,
                                    received: "2026-05-02T10:01:00Z")
        let rows = try ledger(with: [
            withBalance("a1", "100.00", date: "2026-05-01", balance: "1000.00"),
            withBalance("b1", "10.00", date: "2026-05-01", balance: "500.00", last4: "9999"),
            withBalance("a2", "50.00", date: "2026-05-02", balance: "950.00", received: "2026-05-02T10:00:00Z"),
            duplicate,
            withBalance("b2", "10.00", date: "2026-05-02", balance: "480.00", last4: "9999"),
        ]).transactions(TransactionQuery(includeDuplicates: true))
        #expect(rows.filter { $0.duplicateOf != nil }.count == 1, "the push is linked to the SMS")
        let chains = BalanceChains(transactions: rows)
        #expect(chains.accounts.map(\.name) == ["hdfc card 1234 INR", "hdfc card 9999 INR"])
        #expect(chains.accounts[0].pairs == 1 && chains.accounts[0].chained == 1)
        #expect(chains.accounts[1].breaks.map(\.difference) == [-10])
        #expect(chains.totals == (pairs: 2, chained: 1))
    }
}
