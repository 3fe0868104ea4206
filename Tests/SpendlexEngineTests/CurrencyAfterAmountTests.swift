import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// An ISO code written right after an amount whose symbol several currencies share names the
/// currency: BBVA Mexico's "por $350.00 MXN" came out as USD through the fallback (read as the
/// Spanish BBVA's country, where `$` decides nothing).
@Suite("Currency code after an amount")
struct CurrencyAfterAmountTests {
    @Test("the code after a shared symbol wins; the sender's first bank's country does not")
    func bbvaMexico() throws {
        let outcome = CardKindTests.bundled.makeWorker().parse(Message(
            id: "m", text: "BBVA: Compra por $350.00 MXN en OXXO con tu tarjeta débito *4321 el 02/05/2026.",
            sender: "BBVA", channel: .sms))
        let transaction = try #require(outcome.transaction, "\(outcome)")
        #expect(transaction.amount == Decimal(string: "350.00"))
        #expect(transaction.currency == "MXN")
    }

    @Test("three capitals right after the amount, a space or two between, no letter after", arguments: [
        ("Compra por $350.00 MXN en OXXO", "$350.00", "MXN"),
        ("Paid $12.00  CAD.", "$12.00", "CAD"),
        ("Paid $12.00 at SHOP", "$12.00", nil),
        ("Paid $12.00 CADX", "$12.00", nil),
        ("Paid $12.00 Cad", "$12.00", nil),
        ("Paid $12.00   CAD", "$12.00", nil),
        ("Paid $12.00", "$12.00", nil),
    ] as [(String, String, String?)])
    func codeAfter(text: String, amount: String, code: String?) {
        #expect(TransactionBuilder.codeWritten(after: amount, in: text) == code)
    }

    @Test("three capitals glued before a symbol that starts the amount, no letter before them", arguments: [
        ("Recibimos tu pago de MXN$1,780.54.", "$1,780.54", "MXN"),
        ("Total CAD$12.00", "$12.00", "CAD"),
        ("Paid $12.00", "$12.00", nil),
        ("Paid XMXN$12.00", "$12.00", nil),
        ("Paid MX$12.00", "$12.00", nil),
        ("Paid MXN 12.00", "12.00", nil),
    ] as [(String, String, String?)])
    func codeBefore(text: String, amount: String, code: String?) {
        #expect(TransactionBuilder.codeWritten(before: amount, in: text) == code)
    }
}
