import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// A ledger holding `transactions`, written in one batch.
func ledger(with transactions: [Transaction]) throws -> Ledger {
    let (ledger, _) = try makeLedger()
    try ledger.write(transactions.map(record), run: nil)
    return ledger
}

/// `transaction(...)` with a category, a kind and a direction.
func categorized(_ id: String, amount: String, currency: String = "INR", direction: Direction = .debit,
                 kind: TransactionKind = .purchase, date: String, time: String? = nil, merchant: String? = "SWIGGY",
                 category: String? = nil, subcategory: String? = nil, last4: String? = "1234", bank: String = "hdfc",
                 channel: MessageChannel = .sms, received: String? = nil) -> Transaction {
    var t = transaction(id, channel: channel, received: received, bank: bank, amount: amount, currency: currency,
                        direction: direction, date: date, time: time, merchant: merchant, last4: last4)
    t.kind = kind
    t.category = category
    t.subcategory = subcategory
    return t
}

@Suite("Ledger queries")
struct LedgerQueriesTests {
    @Test func primariesInOrderOfDateTimeAndID() throws {
        let ledger = try ledger(with: [
            categorized("late", amount: "3", date: "2026-05-02", time: "22:00", merchant: "C"),
            categorized("early", amount: "2", date: "2026-05-02", time: "08:00", merchant: "B"),
            categorized("first", amount: "1", date: "2026-04-30", merchant: "A"),
            categorized("undated", amount: "4", date: "2026-01-01", merchant: "D"),
        ].map { t -> Transaction in
            var t = t
            if t.messageID == "undated" { t.date = nil }
            return t
        })
        #expect(try ledger.transactions().map(\.messageID) == ["first", "early", "late", "undated"])
    }

    @Test func aRangeIsInclusiveAndLeavesUndatedOut() throws {
        let ledger = try ledger(with: [
            categorized("a", amount: "1", date: "2026-04-30", merchant: "A"),
            categorized("b", amount: "2", date: "2026-05-01", merchant: "B"),
            categorized("c", amount: "3", date: "2026-05-31", merchant: "C"),
            categorized("d", amount: "4", date: "2026-06-01", merchant: "D"),
        ])
        let may = TransactionQuery(from: LocalDate(iso: "2026-05-01"), to: LocalDate(iso: "2026-05-31"))
        #expect(try ledger.transactions(may).map(\.messageID) == ["b", "c"])
        #expect(try ledger.transactions(TransactionQuery(from: LocalDate(iso: "2026-05-31"))).map(\.messageID) == ["c", "d"])
    }

    @Test func duplicatesAreLeftOutUnlessAsked() throws {
        let sms = categorized("sms-1", amount: "1250", date: "2026-11-20", merchant: "WHOLEFDS MKT", channel: .sms,
                              received: "2026-11-20T10:02:00Z")
        var email = categorized("mail-1", amount: "1250.00", date: "2026-11-20", time: "15:31",
                                merchant: "Whole Foods Market", channel: .email, received: "2026-11-20T10:06:30Z")
        email.balance = "8000.00"
        let ledger = try ledger(with: [sms, email])
        let primaries = try ledger.transactions()
        #expect(primaries.map(\.messageID) == ["mail-1"])
        let all = try ledger.transactions(TransactionQuery(includeDuplicates: true))
        #expect(all.count == 2)
        let duplicate = try #require(all.first { $0.messageID == "sms-1" })
        #expect(duplicate.duplicateOf == primaries[0].id)
        #expect(duplicate.duplicateReason != nil)
    }

    @Test func amountsComeBackAsExactDecimals() throws {
        var t = categorized("a", amount: "1234.50", currency: "EUR", date: "2026-03-14", time: "09:05:07")
        t.balance = "0.10"
        let stored = try #require(try ledger(with: [t]).transactions().first)
        #expect(stored.amount == Decimal(string: "1234.5"))
        #expect(stored.amountText == "1234.50")
        #expect(stored.balance == Decimal(string: "0.1"))
        #expect(stored.currency == "EUR")
        #expect(stored.time?.description == "09:05:07")
        #expect(stored.account == StoredTransaction.Account(type: "card", last4: "1234"))
        #expect(stored.categoryName == "Uncategorized")
        #expect(stored.transaction.amountText == "1234.50")
    }

    @Test(arguments: ["12", "-12.50", "0.05", "1250"])
    func plainDecimalsParse(text: String) {
        #expect(Ledger.exactDecimal(text) == Decimal(string: text))
    }

    @Test(arguments: ["", "1,250", "1e5", "abc", "1.2.3", "-"])
    func otherTextIsNoDecimal(text: String) {
        #expect(Ledger.exactDecimal(text) == nil)
    }
}
