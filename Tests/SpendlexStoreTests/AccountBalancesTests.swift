import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

@Suite("Account balances")
struct AccountBalancesTests {
    func stated(_ id: String, _ amount: String, _ direction: Direction = .debit, date: String, time: String? = nil,
                balance: String?, type: String = "account", last4: String = "1234") -> Transaction {
        var t = transaction(id, amount: amount, direction: direction, date: date, time: time, merchant: "SHOP \(id)",
                            last4: last4, balance: balance)
        t.account = .init(accountType: type, last4: last4)
        return t
    }

    @Test("the latest stated balance per account, its meaning, and the journal's end-of-day assertions")
    func latestAndAssertions() throws {
        let rows = try ledger(with: [
            stated("a1", "100.00", date: "2026-05-01", time: "09:00", balance: "900.00"),
            stated("a2", "50.00", date: "2026-05-01", time: "18:00", balance: "850.00"),
            stated("a3", "50.00", date: "2026-05-02", balance: "800.00"),
            // The day's last transaction states no balance: that day has no assertion.
            stated("a4", "10.00", date: "2026-05-03", time: "08:00", balance: "790.00"),
            stated("a5", "10.00", date: "2026-05-03", time: "20:00", balance: nil),
            // A card's alerts state its available limit: never asserted as what is owed.
            stated("c1", "100.00", date: "2026-05-01", balance: "4900.00", type: "card", last4: "9999"),
            stated("c2", "100.00", date: "2026-05-02", balance: "4800.00", type: "card", last4: "9999"),
            // One stated balance: no pair vouches for it.
            stated("b1", "5.00", date: "2026-05-01", balance: "10.00", last4: "5555"),
        ]).transactions()
        let balances = AccountBalances(transactions: rows)
        #expect(balances.entries.map(\.name) == ["hdfc account 1234 INR", "hdfc account 5555 INR", "hdfc card 9999 INR"])
        #expect(balances.entries.map(\.latest.messageID) == ["a4", "b1", "c2"])
        #expect(balances.entries.map(\.meaning) == ["balance", "stated balance", "available limit"])
        #expect(balances.entries.allSatisfy { $0.gaps.isEmpty })

        let assertions = AccountBalances.journalAssertions(rows, statementBalances: [])
            .sorted { $0.date < $1.date }
        #expect(assertions.map { "\($0.account) \($0.date) \($0.amount)" } == [
            "Assets:Bank:Hdfc:1234 2026-05-01 850", "Assets:Bank:Hdfc:1234 2026-05-02 800",
        ])
        // An account a statement covers is left to the statement's balances.
        let statement = StatedBalance(bank: "hdfc", account: .init(accountType: "account", last4: "1234"), currency: "INR",
                                      date: LocalDate(iso: "2026-05-31")!, amount: 700, opening: false, file: "may.csv")
        #expect(AccountBalances.journalAssertions(rows, statementBalances: [statement]).isEmpty)
        #expect(AccountBalances(transactions: rows, statementBalances: [statement]).entries.first?.statement == statement)
    }
}
