import Foundation
import Testing
@testable import SpendlexEngine

struct SenderCase: Sendable, CustomTestStringConvertible {
    let sender: String?
    let subject: String?
    let text: String
    let kind: SenderKind
    var testDescription: String { "\(kind.rawValue): \(text.prefix(40))" }

    init(_ sender: String?, subject: String? = nil, _ text: String, _ kind: SenderKind) {
        self.sender = sender
        self.subject = subject
        self.text = text
        self.kind = kind
    }
}

@Suite("Suggesting: who a message comes from")
struct SuggestSenderKindTests {
    @Test(arguments: [
        // People texting about money, from phone numbers.
        SenderCase("+447700900123", "Hey, can you send me £20 for the pizza tonight? Thanks!", .person),
        SenderCase("9876543210", "I paid Rs 500 for the cab, pls transfer your half", .person),
        SenderCase("+1 (555) 010-0199", "Did you get the $40 I sent?", .person),
        // Banks, also from phone numbers and short codes.
        SenderCase("+447700900456", "Your card ending 1234 was debited £12.00 at TESCO. Avl bal £300.00", .bank),
        SenderCase("227898", "Chase: You made a $12.50 transaction with SHELL on your card", .bank),
        SenderCase("VM-HDFCBK", "Rs.500 debited from A/c XX1234 to VPA a@okaxis", .bank),
        SenderCase("AXISBK", "Can you believe it? INR 200 spent", .bank),
        // E-mails.
        SenderCase("alerts@thamesmutual.co.uk", subject: "Card payment",
                   "You spent £12.50 at TESCO with your debit card ending 4421.", .bank),
        SenderCase("news@mybank.co.uk", subject: "Our autumn newsletter",
                   "Save £100 this autumn. View this email in your browser. Unsubscribe", .newsletter),
        SenderCase("hello@coffeeclub.example", subject: "Weekly picks",
                   "Our best beans for £9.99. To stop these emails, unsubscribe here.", .newsletter),
        SenderCase("orders@gadgetshop.example", subject: "Your order #10234",
                   "Thank you for your order! Order total: £59.99, paid with Visa ending 4421.", .shop),
        SenderCase("receipts@bakery.example", subject: "Receipt from Corner Bakery",
                   "Receipt for your purchase: £4.20. Card ending 1234.", .shop),
        SenderCase(nil, "You spent £4.20 at PRET on 01/02/2026", .bank),
        // A bank thanking for a card payment is no shop (the bundled IndusInd and Amex examples).
        SenderCase("@indusind.com", subject: "Payment received",
                   "Dear Customer, thank you for your Payment of INR 1,234.56 towards your IndusInd Bank Credit Card on 18/07/2026", .bank),
        SenderCase("AmericanExpress@welcome.americanexpress.com", subject: "Thanks for your payment",
                   "Thank you for your payment\nWe received your payment.\nPayment amount:\n$1,044.97", .bank),
    ])
    func classifies(_ example: SenderCase) {
        let message = Message(id: "m", text: example.text, sender: example.sender, subject: example.subject,
                              channel: example.subject != nil ? .email : .sms)
        let (kind, reason) = SenderKind.classify(message)
        #expect(kind == example.kind, "\(reason ?? "")")
        #expect((reason == nil) == (kind == .bank))
    }

    @Test func phoneNumbersAndSenderIDs() {
        #expect(SenderKind.isPhoneNumber("+447700900123"))
        #expect(SenderKind.isPhoneNumber("98765 43210"))
        #expect(!SenderKind.isPhoneNumber("227898"))
        #expect(!SenderKind.isPhoneNumber("VM-HDFCBK"))
        #expect(!SenderKind.isPhoneNumber("alerts@bank.com"))
    }

    /// A sender the loaded rules call a person's (a fallback's `personal_senders`) is judged as a phone number.
    @Test func aSenderTheRulesNamePersonalIsJudgedAsAPerson() {
        let message = Message(id: "m", text: "Sent you the 500 for dinner, see you at 8", sender: "55501")
        #expect(SenderKind.classify(message).kind == .bank)
        #expect(SenderKind.classify(message, personalSender: true).kind == .person)
    }
}
