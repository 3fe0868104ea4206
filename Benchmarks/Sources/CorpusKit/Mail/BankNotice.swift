/// Mail from bank senders that is not a transaction: gen_mbox.py's OTPs, declines, statements
/// and promotions. Rules must ignore them.
enum BankNotice: CaseIterable {
    case otp, decline, statement, promotion

    func make(_ d: CivilTime, _ random: inout CorpusRandom) -> MailDraft {
        typealias V = MailVocabulary
        switch self {
        case .otp:
            let bank = random.pick([("HDFC Bank InstaAlerts", "alerts@hdfcbank.net", "HDFC Bank"),
                                    ("ICICI Bank", "credit_cards@icicibank.com", "ICICI Bank"),
                                    ("State Bank of India", "donotreply.sbiatm@alerts.sbi.co.in", "SBI")])
            let body = "Dear Customer,\n\n\(random.digits(6)) is your OTP for transaction of Rs.\(MoneyText.inr(cents: random.int(in: 1_000...900_000))) "
                + "at \(random.pick(V.merchantsIN)) on \(bank.2) card ending \(random.digits(4)). Valid for 10 mins. Do not share it with anyone.\n"
            return MailDraft(senderName: bank.0, address: bank.1, subject: "OTP for your transaction",
                             body: .single(MailPart("text/plain", body)))
        case .decline:
            let body = "Dear Customer,\n\nYour transaction of Rs.\(MoneyText.inr(cents: random.int(in: 1_000...900_000))) at \(random.pick(V.merchantsIN)) "
                + "using HDFC Bank Credit Card ending \(random.digits(4)) was declined due to insufficient limit.\n\n\(V.disclaimer)\n"
            return MailDraft(senderName: "HDFC Bank InstaAlerts", address: "alerts@hdfcbank.net", subject: "Transaction declined",
                             body: .single(MailPart("text/plain", body)))
        case .statement:
            let inner = "<p>Dear Customer,</p><p>Your statement for card ending \(random.digits(4)) is ready. Total amount due: "
                + "$\(MoneyText.usd(cents: random.int(in: 10_000...900_000))). Minimum payment due: $\(MoneyText.usd(cents: random.int(in: 2_500...20_000))) by "
                + "\(d.monthName) \(d.day), \(d.year).</p><p>\(MailText.lorem(80, &random))</p>"
            let html = MailText.htmlPage(title: "Statement", inner: inner, bank: "CHASE", &random)
            return MailDraft(senderName: "Chase", address: "no.reply.alerts@chase.com", subject: "Your credit card statement is ready",
                             body: .single(MailPart("text/html", html, .quotedPrintable)))
        case .promotion:
            let bank = random.pick([("Axis Bank", "offers@axisbank.com"), ("Kotak Mahindra Bank", "BankAlerts@kotak.com"),
                                    ("American Express", "AmericanExpress@welcome.americanexpress.com")])
            var inner = ""
            for _ in 0..<random.int(in: 2...6) {
                inner += "<h3>\(MailText.lorem(5, &random))</h3><p>Get \(random.int(in: 5...25))% cashback up to Rs.\(random.int(in: 1...20) * 100) "
                    + "on \(random.pick(V.merchantsIN)). \(MailText.lorem(60, &random))</p><img src=\"https://cdn.example.com/\(random.int(in: 1...1_000_000)).png\">"
            }
            let html = MailText.htmlPage(title: "Offers", inner: inner, bank: bank.0, &random)
            return MailDraft(senderName: bank.0, address: bank.1, subject: "Exclusive offers just for you",
                             body: .alternative([MailPart("text/plain", MailText.lorem(150, &random)), MailPart("text/html", html, .base64)]))
        }
    }
}
