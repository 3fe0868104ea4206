import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// A debit card posts to the bank account it draws on (an asset), a credit card to a liability,
/// and the ledger keeps a card's kind per account, so that one alert naming it tells it for all.
@Suite("Card kinds in the ledger and its journals")
struct CardKindLedgerTests {
    /// A card transaction of `kind` (nil: its alert did not say) on card `last4` of HDFC.
    func card(_ id: String, _ last4: String, _ kind: CardKind?, amount: String = "250.00", date: String = "2026-11-20",
              bank: String = "hdfc") -> Transaction {
        var t = categorized(id, amount: amount, date: date, category: "Shopping", last4: last4, bank: bank)
        t.account = .init(accountType: "card", last4: last4, cardKind: kind)
        return t
    }

    /// A bank account transaction on account `last4`.
    func account(_ id: String, _ last4: String, bank: String = "hdfc", direction: Direction = .credit) -> Transaction {
        var t = categorized(id, amount: "50000.00", direction: direction, kind: .salary, date: "2026-11-01",
                            category: "Salary", last4: last4, bank: bank)
        t.account = .init(type: "account", last4: last4)
        return t
    }

    @Test("one alert naming the kind tells it for the card's every transaction, before and after")
    func keptPerAccount() throws {
        let ledger = try ledger(with: [card("a", "1234", nil), card("b", "1234", .debit, date: "2026-11-21"),
                                       card("c", "1234", nil, date: "2026-11-22"), card("d", "9876", nil)])
        let rows = try ledger.transactions()
        #expect(rows.filter { $0.account?.last4 == "1234" }.map { $0.account?.cardKind } == [.debit, .debit, .debit])
        #expect(rows.first { $0.account?.last4 == "9876" }?.account?.cardKind == nil)
        // The parse record read back from the ledger carries it too.
        let line = LedgerExporter.jsonLine(try #require(rows.first { $0.messageID == "a" }))
        #expect(line.contains("\"account\":{\"type\":\"card\",\"last4\":\"1234\",\"card_kind\":\"debit\"}"))
    }

    @Test("a later alert's word wins over an earlier one's")
    func latestWordWins() throws {
        let ledger = try ledger(with: [card("a", "1234", .credit)])
        try ledger.write([record(card("b", "1234", .debit, date: "2026-11-21"))], run: nil)
        #expect(try ledger.transactions().allSatisfy { $0.account?.cardKind == .debit })
    }

    @Test("journals: a debit card posts to its bank's one account, a credit card (or one of no known kind) to a liability")
    func postings() throws {
        let rows = try ledger(with: [account("s", "5521"), card("d", "1234", .debit), card("c", "4321", .credit),
                                     card("u", "7777", nil), card("p", "1345", .prepaid, bank: "pluxee")]).transactions()
        let text = LedgerExporter(format: .beancount).export(rows).text
        #expect(text.contains("open Assets:Bank:Hdfc:5521"))
        #expect(!text.contains("Debit-Card"))
        #expect(text.contains(#/\n  message: "d"\n.*\n  Expenses:Shopping +250\.00 INR\n  Assets:Bank:Hdfc:5521 +-250\.00 INR\n/#))
        #expect(text.contains("open Liabilities:CreditCard:Hdfc:4321"))
        #expect(text.contains("open Liabilities:CreditCard:Hdfc:7777"))
        #expect(text.contains("open Assets:Prepaid-Card:Pluxee:1345"))
        #expect(!text.contains("Liabilities:CreditCard:Hdfc:1234"))
    }

    @Test("with several accounts at the bank, which one a debit card draws on is not known: it keeps an asset account of its own")
    func severalAccounts() throws {
        let rows = try ledger(with: [account("s", "5521"), account("t", "6632"), card("d", "1234", .debit)]).transactions()
        let text = LedgerExporter(format: .ledger).export(rows).text
        #expect(text.contains("Assets:Bank:Hdfc:Debit-Card-1234"))
        #expect(!text.contains("Liabilities"))
    }

    @Test("balances: a debit card's falling balance is a balance, a credit card's an available limit")
    func balanceMeaning() throws {
        var first = card("a", "1234", .debit, amount: "100.00")
        first.balance = "900.00"
        var second = card("b", "1234", .debit, amount: "50.00", date: "2026-11-21")
        second.balance = "850.00"
        let balances = AccountBalances(transactions: try ledger(with: [first, second]).transactions())
        #expect(balances.entries.first?.meaning == "balance")
    }
}
