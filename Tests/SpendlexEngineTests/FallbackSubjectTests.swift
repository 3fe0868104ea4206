import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// An e-mail alert from a sender no bank names whose money is only in its subject ("Consumo
/// tarjeta de débito por USD 9.42" over a body that names the merchant and the day): the fallback
/// reads it again with the subject as the body's first line.
@Suite("The fallback and an e-mail's subject")
struct FallbackSubjectTests {
    func parse(_ text: String, subject: String) -> ParseOutcome {
        CardKindTests.bundled.makeWorker().parse(Message(id: "m", text: text, sender: "notificaciones@bank.example",
                                                         subject: subject, channel: .email))
    }

    @Test("the subject's money, with the body's merchant")
    func subjectMoney() throws {
        let t = try #require(parse("Establecimiento: SAMPLE TIENDA\nFecha: 02/11/2026",
                                   subject: "Consumo tarjeta de débito por USD 14.20").transaction)
        #expect(t.amountText == "14.20" && t.currency == "USD" && t.direction == .debit)
        #expect(t.merchant == "SAMPLE TIENDA")
    }

    @Test("a subject or a sender naming a bank a country profile knows makes the e-mail read, whatever the subject says")
    func subjectOrSenderNamesABank() throws {
        let text = "Su tarjeta ••4410 presenta un consumo.\nMonto: DOP 254.90\nComercio: SAMPLE COLMADO"
        let worker = CardKindTests.bundled.makeWorker()
        let bySubject = worker.parse(Message(id: "m", text: text, sender: "avisos@bank.example",
                                             subject: "Notificaciones Banreservas", channel: .email))
        #expect(try #require(bySubject.transaction, "\(bySubject)").amountText == "254.90")
        let bySender = worker.parse(Message(id: "m", text: text, sender: "notificaciones@banreservas.com",
                                            subject: "Notificaciones", channel: .email))
        #expect(try #require(bySender.transaction, "\(bySender)").currency == "DOP")
        #expect(worker.parse(Message(id: "m", text: text, sender: "news@shop.example", subject: "Notificaciones",
                                     channel: .email)).transaction == nil)
        let explained = worker.explain(Message(id: "m", text: text, sender: "notificaciones@banreservas.com",
                                               subject: "Notificaciones", channel: .email)).render()
        #expect(!explained.contains("subject is not a transaction subject") && explained.contains("result: transaction"),
                "\(explained)")
        #expect(worker.fallbackReadsEmail(subject: "Notificaciones", sender: "notificaciones@banreservas.com"))
        #expect(!worker.fallbackReadsEmail(subject: "Notificaciones", sender: "news@shop.example"))
    }

    @Test("a subject in a country's own script (a profile's text_cues) names no bank: the e-mail is not read for it")
    func scriptIsNoBank() {
        let worker = CardKindTests.bundled.makeWorker()
        // Kana say Japan, and the text is read as Japanese; but a newsletter in Japanese is no bank's.
        #expect(!worker.fallbackReadsEmail(subject: "振込予約のご確認", sender: "news@shop.example"))
        #expect(worker.fallbackReadsEmail(subject: "楽天銀行からのお知らせ", sender: "news@shop.example"))
        let hebrew = worker.parse(Message(id: "m", text: "חשבון 1234: חויב 120.50 בסופר דוגמה", sender: nil, channel: .sms))
        #expect(hebrew.transaction?.currency == "ILS", "\(hebrew)")
    }

    @Test("the body's own money first; a subject without figures adds nothing")
    func bodyFirst() throws {
        let t = try #require(parse("Compra por USD 14.20 en SAMPLE TIENDA", subject: "Compra por USD 99.00").transaction)
        #expect(t.amountText == "14.20")
        #expect(parse("Establecimiento: SAMPLE TIENDA", subject: "Consumo con tu tarjeta").transaction == nil)
    }

    @Test("a subject saying the money did not move ignores the e-mail, whatever its body repeats")
    func subjectSaysNotMoved() {
        let expired = parse("SAMPLE NAME sent you $12.00", subject: "INTERAC e-Transfer: your transfer expired")
        guard case .ignored(let rule, _) = expired else {
            Issue.record("not ignored: \(expired)")
            return
        }
        #expect(rule == "generic.ignore.voided")
        #expect(parse("SAMPLE NAME sent you $12.00", subject: "INTERAC e-Transfer: SAMPLE NAME sent you money.").transaction != nil)
    }

    @Test("subjects in more languages name an alert: a Czech bank's 'příjem na konte' is read, in crowns")
    func czechSubject() throws {
        let outcome = CardKindTests.bundled.makeWorker().parse(Message(
            id: "m", text: "Příjem na kontě: 2300001111\nČástka: 1 250,00\nVS: 123456", sender: "automat@bank.example.cz",
            subject: "Banka - prijem na konte", channel: .email))
        let t = try #require(outcome.transaction, "\(outcome)")
        #expect(t.amountText == "1250.00" && t.currency == "CZK" && t.direction == .credit)
    }

    @Test("explain says the subject was read, and names a rule the subject met")
    func explained() {
        let worker = CardKindTests.bundled.makeWorker()
        let read = worker.explain(Message(id: "m", text: "Establecimiento: SAMPLE TIENDA", sender: "avisos@bank.example",
                                          subject: "Consumo tarjeta de débito por USD 14.20", channel: .email)).render()
        #expect(read.contains("read again with the subject as its first line"), "\(read)")
        #expect(read.contains("result: transaction by generic.debit"), "\(read)")
        let expired = worker.explain(Message(id: "m", text: "SAMPLE NAME sent you $12.00", sender: "avisos@bank.example",
                                             subject: "Your transfer expired", channel: .email)).render()
        #expect(expired.contains("ignored by generic.ignore.voided (in the subject)"), "\(expired)")
    }
}

