import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

@Suite("Ledger export")
struct LedgerExporterTests {
    func sample() throws -> Ledger {
        try ledger(with: [
            categorized("sms-1", amount: "10290", date: "2026-05-02", time: "22:26:01", merchant: "EAZYDINE",
                        category: "Food & Dining", subcategory: "Restaurants", last4: "0000"),
            categorized("sms-2", amount: "75000.00", direction: .credit, kind: .salary, date: "2026-05-01",
                        merchant: "ACME PAYROLL", category: "Salary", last4: nil, bank: "icici"),
            categorized("mail-3", amount: "12.50", currency: "EUR", date: "2026-05-03", merchant: "Café \"Zur Post\"",
                        last4: "2210", bank: "n26", channel: .email),
        ].map { t -> Transaction in
            var t = t
            if t.messageID == "sms-2" { t.account = .init(type: "account", last4: "000") }
            return t
        })
    }

    @Test func csvIsTheParseCSV() throws {
        let rows = try sample().transactions()
        let export = LedgerExporter(format: .csv).export(rows)
        let lines = export.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == TransactionWriter.csvColumns.joined(separator: ","))
        #expect(lines[1] == "icici,Salary,,INR,75000.00,icici account 000,SMS,2026-05-01,,ACME PAYROLL,Income")
        #expect(lines[2] == "hdfc,Food & Dining,Restaurants,INR,-10290,hdfc card 0000,SMS,2026-05-02,22:26:01,EAZYDINE,Expense")
        #expect(export.written == 3)
    }

    @Test func jsonLinesAreTheParseRecordWithLedgerIDs() throws {
        let sms = categorized("sms-1", amount: "1250", date: "2026-11-20", merchant: "WHOLEFDS MKT", channel: .sms,
                              received: "2026-11-20T10:02:00Z")
        let email = categorized("mail-1", amount: "1250.00", date: "2026-11-20", time: "15:31",
                                merchant: "Whole Foods Market", channel: .email, received: "2026-11-20T10:06:30Z")
        let rows = try ledger(with: [sms, email]).transactions(TransactionQuery(includeDuplicates: true))
        let lines = LedgerExporter(format: .jsonl).export(rows).text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let primary = try #require(objects.first { ($0["source"] as? [String: Any])?["id"] as? String == "mail-1" })
        let duplicate = try #require(objects.first { ($0["source"] as? [String: Any])?["id"] as? String == "sms-1" })
        #expect(primary["duplicate_of"] is NSNull)
        #expect((duplicate["duplicate_of"] as? NSNumber)?.int64Value == (primary["ledger_id"] as? NSNumber)?.int64Value)
        #expect(duplicate["amount"] as? String == "1250")
        // Every key of the parse record, in its order, then ledger_id.
        let parsed = TransactionWriter(format: .jsonl).jsonLine(rows[0].transaction)
        #expect(lines.contains { $0.hasPrefix(String(parsed.dropLast("\"duplicate_of\":null}\n".count))) })
        for row in rows {
            let line = try #require(lines.first { $0.contains("\"id\":\"\(row.messageID)\"") })
            #expect(line.hasSuffix(",\"ledger_id\":\(row.id)}"))
        }
    }

    @Test func beancountDeclaresAccountsAndBalancesEachTransaction() throws {
        let text = LedgerExporter(format: .beancount).export(try sample().transactions()).text
        #expect(text.contains("2026-05-01 open Assets:Bank:Icici:000\n"))
        #expect(text.contains("2026-05-01 open Income:Salary\n"))
        #expect(text.contains("2026-05-02 open Expenses:Food-Dining:Restaurants\n"))
        #expect(text.contains("2026-05-02 open Liabilities:CreditCard:Hdfc:0000\n"))
        #expect(text.contains("2026-05-03 open Expenses:Uncategorized\n"))
        #expect(text.contains("""
            2026-05-02 * "EAZYDINE" "purchase by hdfc.test"
              message: "sms-1"
            """))
        // Postings, with spaces folded: the counter account first, the amounts opposite.
        let lines = Set(text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") })
        for posting in ["Expenses:Food-Dining:Restaurants 10290 INR", "Liabilities:CreditCard:Hdfc:0000 -10290 INR",
                        "Income:Salary -75000.00 INR", "Assets:Bank:Icici:000 75000.00 INR"] {
            #expect(lines.contains(posting), "\(posting)")
        }
        #expect(text.contains("2026-05-03 * \"Café \\\"Zur Post\\\"\" \"purchase by n26.test\""))
        #expect(text.contains("-12.50 EUR\n"))
    }

    @Test func ledgerJournalDeclaresAccountsCommoditiesAndTags() throws {
        let text = LedgerExporter(format: .ledger).export(try sample().transactions()).text
        for line in ["commodity EUR", "commodity INR", "account Expenses:Food-Dining:Restaurants",
                     "account Liabilities:CreditCard:N26:2210", "tag ledger-id", "2026-05-02 * EAZYDINE",
                     "    ; message: sms-1", "    ; time: 22:26:01"] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
    }

    @Test func aRecordWithoutAmountOrDateIsLeftOutAndNamed() throws {
        var noAmount = categorized("x", amount: "1", date: "2026-05-02")
        noAmount.amount = nil
        noAmount.amountText = nil
        let rows = try ledger(with: [noAmount, categorized("y", amount: "5", date: "2026-05-02", merchant: "KEPT")])
            .transactions()
        let export = LedgerExporter(format: .beancount).export(rows)
        #expect(export.written == 1)
        #expect(export.leftOut.count == 1)
        #expect(export.leftOut[0].hasSuffix("(message x): no amount"))
        #expect(export.text.contains("; Left out: not a whole transaction.\n; ledger id"))
    }

    @Test(arguments: [
        ("Food & Dining", "Food-Dining"), ("Café", "Cafe"), ("ATM cash", "ATM-Cash"), ("0000", "0000"),
        ("  ", "Other"), ("emiratesnbd", "Emiratesnbd"), ("Bills/Utilities", "Bills-Utilities"),
    ])
    func accountComponentsAreValidBeancount(text: String, component: String) {
        #expect(JournalAccountName.component(text) == component)
    }

    @Test func moneyFlowFollowsDirectionAndKind() {
        #expect(MoneyFlow(direction: .debit, kind: .purchase) == .expense)
        #expect(MoneyFlow(direction: .debit, kind: nil) == .expense)
        #expect(MoneyFlow(direction: .credit, kind: .refund) == .refund)
        #expect(MoneyFlow(direction: .credit, kind: .reversal) == .refund)
        #expect(MoneyFlow(direction: .credit, kind: .salary) == .income)
        #expect(MoneyFlow(direction: .credit, kind: .transfer) == .income)
        #expect(MoneyFlow(direction: .credit, kind: .cardPayment) == .transfer)
        #expect(MoneyFlow(direction: .debit, kind: .cardPayment) == .transfer)
        #expect(MoneyFlow(direction: .debit, kind: .declined) == .declined)
    }

    @Test func aDeclinedPaymentIsNoJournalEntry() throws {
        let rows = try ledger(with: [categorized("d", amount: "899.00", kind: .declined, date: "2026-05-02", merchant: "SAMPLE STORE"),
                                     categorized("y", amount: "5", date: "2026-05-02", merchant: "KEPT")])
            .transactions()
        let export = LedgerExporter(format: .beancount).export(rows)
        #expect(export.written == 1)
        #expect(export.leftOut.count == 1)
        #expect(export.leftOut[0].hasSuffix("(message d): declined: no money moved"))
        #expect(!export.text.contains("SAMPLE STORE\"\n"))
    }
}

@Suite("Journal balance assertions")
struct JournalAssertionTests {
    @Test("beancount pads an opening balance only where the postings before it fall short (an unused pad is an error)")
    func padOnlyWhenNeeded() {
        let writer = JournalWriter(dialect: .beancount)
        let day = LocalDate(year: 2026, month: 11, day: 30)!
        let opening = JournalWriter.Assertion(account: "Assets:Bank:X:1", currency: "EUR", date: day, amount: 100, opening: true)
        #expect(writer.assertion(opening, sum: 40) == "2026-11-30 pad Assets:Bank:X:1 Equity:Opening-Balances\n"
                + "2026-12-01 balance Assets:Bank:X:1  100 EUR\n")
        #expect(writer.assertion(opening, sum: 100) == "2026-12-01 balance Assets:Bank:X:1  100 EUR\n")
        let closing = JournalWriter.Assertion(account: "Assets:Bank:X:1", currency: "EUR", date: day, amount: 7.5, opening: false)
        #expect(writer.assertion(closing, sum: 0) == "2026-12-01 balance Assets:Bank:X:1  7.5 EUR\n")
        #expect(JournalWriter(dialect: .ledger).assertion(closing, sum: 0)
                == "2026-11-30 * Closing balance (statement)\n    Assets:Bank:X:1  0 EUR = 7.5 EUR\n")
    }
}
