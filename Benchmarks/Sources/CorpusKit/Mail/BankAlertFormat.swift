/// A transaction alert with its ground truth.
public struct BankAlert: Sendable {
    public var draft: MailDraft
    /// The label: gen_mbox.py's rule name, the amount and merchant as written, the card digits.
    public var label: Label
}

/// The 12 transaction alert formats of the reference corpus (`shared/bench/gen_mbox.py`), word
/// for word, so that `Benchmarks/rules` parses both generators' mailboxes.
public enum BankAlertFormat: String, CaseIterable, Sendable {
    case hdfc = "hdfc_cc", icici = "icici_cc", chase, bca = "bca_id", n26 = "n26_de", sbi = "sbi_upi",
         axis = "axis_cc", amex, barclays = "barclays_uk", kotak = "kotak_dc", citi, santander = "santander_es"

    /// An alert for a purchase at local time `d`.
    public func make(_ d: CivilTime, _ random: inout CorpusRandom) -> BankAlert {
        typealias V = MailVocabulary
        let disclaimer = V.disclaimer
        func card4() -> String { random.digits(4) }
        func alert(_ name: String, _ address: String, _ subject: String, _ body: MailBody,
                   _ amount: String, _ merchant: String, _ card: String) -> BankAlert {
            BankAlert(draft: MailDraft(senderName: name, address: address, subject: subject, body: body),
                      label: Label(rule: rawValue, amount: amount, merchant: merchant, card: card))
        }
        switch self {
        case .hdfc:
            let amount = MoneyText.inr(cents: random.int(in: 1_000...15_000_000)), c = card4(), m = random.pick(V.merchantsIN)
            let body = "Dear Customer,\n\nRs.\(amount) has been debited from your HDFC Bank Credit Card ending \(c) at \(m) "
                + "on \(pad2(d.day))-\(pad2(d.month))-\(d.year) \(d.hms). Authorization code:- \(random.digits(6))\n\n"
                + "If you have not done this transaction, please call on 18002586161 or SMS BLOCK CC \(c) to 7308080808.\n\n"
                + "Warm Regards,\nHDFC Bank\n\n\(disclaimer)\n"
            return alert("HDFC Bank InstaAlerts", "alerts@hdfcbank.net", "Alert : Update on your HDFC Bank Credit Card",
                         .single(MailPart("text/plain", body)), amount, m, c)
        case .icici:
            let amount = MoneyText.inr(cents: random.int(in: 1_000...9_000_000)), c = card4(), m = random.pick(V.merchantsIN)
            let limit = MoneyText.inr(cents: random.int(in: 100_000...50_000_000))
            let sentence = "INR \(amount) spent on ICICI Bank Card XX\(c) on \(pad2(d.day))-\(d.monthName)-\(d.yy) at \(m). "
                + "Avl Lmt: INR \(limit). If not you, call 1800 2662/SMS BLOCK \(c) to 9215676766."
            let text = "Dear Customer,\n\n\(sentence)\n\nSincerely,\nICICI Bank\n\n\(disclaimer)\n"
            let html = MailText.htmlPage(title: "Transaction alert",
                                         inner: "<p>Dear Customer,</p><p>\(TextEscaping.html(sentence))</p>", bank: "ICICI Bank", &random)
            return alert("ICICI Bank", "credit_cards@icicibank.com", "Transaction alert for your ICICI Bank Credit Card",
                         .alternative([MailPart("text/plain", text, .quotedPrintable), MailPart("text/html", html, .quotedPrintable)]),
                         amount, m, c)
        case .chase:
            let amount = MoneyText.usd(cents: random.int(in: 100...300_000)), c = card4(), m = random.pick(V.merchantsUS)
            let product = random.pick(["Sapphire ", "Freedom ", ""])
            let inner = "<p style=\"font-size:16px\">You spent <b>$\(amount)</b> at <b>\(TextEscaping.html(m))</b> with your Chase "
                + "\(product)card ending in \(c).</p>"
                + "<table><tr><td>Date</td><td>\(d.monthName) \(d.day), \(d.year) at \(pad2(d.hour12)):\(pad2(d.minute)) \(d.meridiem) ET</td></tr>"
                + "<tr><td>Merchant</td><td>\(TextEscaping.html(m))</td></tr></table>"
            let html = MailText.htmlPage(title: "Chase alert", inner: inner, bank: "CHASE", &random)
            return alert("Chase", "no.reply.alerts@chase.com", "Your $\(amount) transaction with \(m)",
                         .single(MailPart("text/html", html, .quotedPrintable)), amount, m, c)
        case .bca:
            let amount = MoneyText.idr(random.int(in: 5...5000) * 1000, &random), c = card4(), m = random.pick(V.merchantsID)
            let body = "Yth. Nasabah BCA,\n\nTransaksi Rp \(amount) di \(m) berhasil pada \(pad2(d.day))/\(pad2(d.month))/\(d.year) \(d.hms) "
                + "menggunakan kartu debit BCA ****\(c).\n\nTerima kasih,\nBCA\n"
            return alert("BCA", "bca@bca.co.id", "Notifikasi Transaksi", .single(MailPart("text/plain", body)), amount, m, c)
        case .n26:
            let amount = MoneyText.eur(cents: random.int(in: 100...250_000)), c = card4(), m = random.pick(V.merchantsDE)
            let body = "Hallo \(random.pick(V.firstNames)),\n\ndu hast mit deiner Mastercard (•••• \(c)) \(amount) EUR bei \(m) bezahlt. "
                + "Datum: \(pad2(d.day)).\(pad2(d.month)).\(d.year)\n\nDein Kontostand wurde aktualisiert. Viele Grüße\nDein N26 Team\n"
            return alert("N26", "no-reply@n26.com", "Kartenzahlung über \(amount) EUR",
                         .single(MailPart("text/plain", body, .quotedPrintable)), amount, m, c)
        case .sbi:
            let amount = MoneyText.inr(cents: random.int(in: 100...2_000_000)), c = card4(), m = random.pick(V.upiVPAs)
            let body = "Dear Customer,\n\nRs \(amount) debited from A/c XX\(c) on \(pad2(d.day))\(d.monthName)\(d.yy) to VPA \(m) "
                + "(UPI Ref No \(random.int(in: 100_000_000_000...999_999_999_999))). If not done by you, call 1800111109. -SBI\n\n\(disclaimer)\n"
            return alert("State Bank of India", "donotreply.sbiatm@alerts.sbi.co.in", "Transaction Alert from State Bank of India",
                         .single(MailPart("text/plain", body)), amount, m, c)
        case .axis:
            let amount = MoneyText.inr(cents: random.int(in: 1_000...8_000_000)), c = card4()
            let m = random.pick(V.merchantsIN.filter { !$0.contains(".") })
            let inner = "<p>Dear Cardholder,</p><p>Thank you for using your card. INR \(amount) was spent on your Axis Bank "
                + "Credit Card no. XX\(c) on \(pad2(d.day))-\(pad2(d.month))-\(d.yy) at \(TextEscaping.html(m)). "
                + "Available Limit: INR \(MoneyText.inr(cents: random.int(in: 100_000...30_000_000))).</p>"
            let html = MailText.htmlPage(title: "Axis Bank", inner: inner, bank: "AXIS BANK", &random)
            return alert("Axis Bank Alerts", "alerts@axisbank.com", "Transaction alert on Axis Bank Credit Card",
                         .single(MailPart("text/html", html, .base64)), amount, m, c)
        case .amex:
            let amount = MoneyText.usd(cents: random.int(in: 5_000...500_000)), c = random.digits(5), m = random.pick(V.merchantsUS)
            let sentence = "A charge of $\(amount) at \(m) was made on your American Express® \(random.pick(["Gold ", "Platinum ", ""]))"
                + "Card ending \(c) on \(d.monthName) \(d.day), \(d.year)."
            let text = "Large Purchase Approved\n\n\(sentence)\n\nIf you don't recognize this charge, call us.\n\n\(disclaimer)\n"
            let html = MailText.htmlPage(title: "Large Purchase Approved", inner: "<p>\(TextEscaping.html(sentence))</p>",
                                         bank: "AMERICAN EXPRESS", &random)
            return alert("American Express", "AmericanExpress@welcome.americanexpress.com", "Large Purchase Approved",
                         .alternative([MailPart("text/plain", text, .quotedPrintable), MailPart("text/html", html, .quotedPrintable)]),
                         amount, m, c)
        case .barclays:
            let amount = MoneyText.usd(cents: random.int(in: 100...90_000)), c = card4(), m = random.pick(V.merchantsUK)
            let body = "Hello,\n\n£\(amount) spent at \(m) on \(pad2(d.day))/\(pad2(d.month))/\(d.year) using your Barclaycard ending \(c).\n\n"
                + "If you don't recognise this payment, please call us.\n\nBarclaycard\n"
            return alert("Barclaycard", "alerts@notifications.barclays.co.uk", "Barclaycard spend notification",
                         .single(MailPart("text/plain", body, .base64)), amount, m, c)
        case .kotak:
            let amount = MoneyText.inr(cents: random.int(in: 1_000...5_000_000)), c = card4(), m = random.pick(V.merchantsIN)
            let body = "Dear Customer,\n\nYour Kotak Bank Debit Card XX\(c) was used for Rs.\(amount) at \(m) on "
                + "\(pad2(d.day))-\(d.monthName)-\(d.year). Not you? Call 18602662666.\n\nRegards,\nKotak Mahindra Bank\n"
            return alert("Kotak Mahindra Bank", "BankAlerts@kotak.com", "Debit Card transaction alert",
                         .single(MailPart("text/plain", body)), amount, m, c)
        case .citi:
            let amount = MoneyText.usd(cents: random.int(in: 100...150_000)), c = card4(), m = random.pick(V.merchantsUS)
            let inner = "<h2>Citi Alert</h2><p>A $\(amount) transaction was made at \(TextEscaping.html(m)) on card ending in \(c).</p>"
                + "<p>Date: \(pad2(d.month))/\(pad2(d.day))/\(d.year)</p>"
            let html = MailText.htmlPage(title: "Citi", inner: inner, bank: "citi", &random)
            return alert("Citi Alerts", "alerts@info6.citi.com", "Citi Alert: A transaction was made",
                         .single(MailPart("text/html", html)), amount, m, c)
        case .santander:
            let amount = MoneyText.eur(cents: random.int(in: 100...300_000)), c = card4(), m = random.pick(V.merchantsES)
            let body = "Estimado cliente:\n\nSe ha realizado una compra con su tarjeta ****\(c) por importe de \(amount) EUR en \(m) "
                + "el \(pad2(d.day))/\(pad2(d.month))/\(d.year). Si no reconoce esta operación, llame al 915 123 123.\n\n"
                + "Atentamente,\nBanco Santander\n"
            return alert("Santander", "avisos@santander.es", "Aviso de operación con tarjeta",
                         .single(MailPart("text/plain", body, .quotedPrintable, charset: "iso-8859-1")), amount, m, c)
        }
    }
}
