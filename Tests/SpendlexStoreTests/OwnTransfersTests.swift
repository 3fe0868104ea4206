import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

@Suite("Transfers between own accounts")
struct OwnTransfersTests {
    func moved(_ id: String, _ amount: String, _ direction: Direction, _ kind: TransactionKind, date: String,
               type: String, last4: String, merchant: String? = nil, category: String? = nil) -> Transaction {
        var t = categorized(id, amount: amount, direction: direction, kind: kind, date: date, merchant: merchant,
                            category: category, last4: last4)
        t.account = .init(accountType: type, last4: last4)
        return t
    }

    @Test("a card bill paid from the bank account is matched with the payment the card received: neither spending nor income")
    func cardBillMatchedOnBothSides() throws {
        let ledger = try ledger(with: [
            moved("bank-out", "20000.00", .debit, .transfer, date: "2026-04-10", type: "account", last4: "0001",
                  merchant: "CRED CLUB", category: "Transfers"),
            moved("card-in", "20000.00", .credit, .transfer, date: "2026-04-11", type: "card", last4: "4821",
                  merchant: "PAYMENT RECEIVED"),
            // The same amount spent on a purchase, and a salary of it: not transfers.
            moved("tv", "20000.00", .debit, .purchase, date: "2026-04-10", type: "card", last4: "4821", merchant: "CROMA",
                  category: "Shopping"),
            moved("pay", "20000.00", .credit, .salary, date: "2026-04-11", type: "account", last4: "0001", merchant: "ACME"),
            // Too far apart: a week.
            moved("late-out", "5000.00", .debit, .transfer, date: "2026-04-01", type: "account", last4: "0001"),
            moved("late-in", "5000.00", .credit, .transfer, date: "2026-04-08", type: "account", last4: "0002"),
        ])
        let rows = try ledger.transactions()
        let id = Dictionary(uniqueKeysWithValues: rows.map { ($0.messageID, $0.id) })
        let pairs = OwnTransfers.pairs(rows)
        #expect(pairs == [id["bank-out"]!: id["card-in"]!, id["card-in"]!: id["bank-out"]!])

        let report = LedgerReport(transactions: rows, period: .month)
        let inr = try #require(report.total.currencies.first)
        #expect("\(inr.expenses)" == "25000")  // the purchase, and the unmatched transfer out
        #expect("\(inr.income)" == "25000")    // the salary, and the unmatched transfer in
        #expect("\(inr.transfers)" == "40000")

        let journal = LedgerExporter(format: .beancount).export(rows).text
        // Both sides against Equity:Transfers: the account and the card move, no expense or income does.
        let cardSide = try #require(journal.components(separatedBy: "\n\n").first { $0.contains("message: \"card-in\"") })
        #expect(cardSide.contains("Equity:Transfers"), "\(cardSide)")
        let bankSide = try #require(journal.components(separatedBy: "\n\n").first { $0.contains("message: \"bank-out\"") })
        #expect(bankSide.contains("Equity:Transfers"), "\(bankSide)")
        let spent = try ledger.answer(try QuestionReader.read("how much did I spend in April 2026", today: LocalDate(iso: "2026-04-30")!,
                                                             categories: .standard).get())
        #expect(spent.figures.map { "\($0.amount)" } == ["25000"])
        #expect(!spent.citations.contains(id["bank-out"]!))
    }
}
