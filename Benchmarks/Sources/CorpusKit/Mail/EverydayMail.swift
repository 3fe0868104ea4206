/// The rest of a mailbox: newsletters, personal mail, receipts, notifications and mail with
/// attachments. None of it comes from a bank sender except e-statements, and none of it is a
/// transaction alert (some of it mentions amounts, as real receipts do).
enum EverydayMail {
    typealias V = MailVocabulary

    // MARK: - gen_mbox.py's kinds

    /// gen_mbox.py's newsletter: 3–10 lorem sections, HTML, quoted-printable.
    static func shortNewsletter(_ random: inout CorpusRandom) -> MailDraft {
        let source = random.pick([("Medium Daily Digest", "noreply@medium.com"), ("GitHub", "notifications@github.com"),
                                  ("The Morning Brew", "crew@morningbrew.com"), ("Substack", "news@substack.com")])
        var inner = ""
        for index in 0..<random.int(in: 3...10) {
            inner += "<h2>\(MailText.lorem(6, &random))</h2><p>\(MailText.lorem(random.int(in: 40...120), &random))</p>"
                + "<a href=\"https://example.com/\(index)\">Read more</a>"
        }
        let subject = MailText.sentence(6, &random)
        let html = MailText.htmlPage(title: source.0, inner: inner, bank: source.0, &random)
        return MailDraft(senderName: source.0, address: source.1, subject: subject,
                         body: .single(MailPart("text/html", html, .quotedPrintable)))
    }

    /// gen_mbox.py's personal mail, with its body line "From my phone: …" that mboxo must escape.
    static func shortPersonal(_ random: inout CorpusRandom) -> MailDraft {
        let body = "Hi,\n\n\(MailText.lorem(random.int(in: 20...150), &random))\n\nFrom my phone: I spent $20 at lunch, lol.\n\n"
            + "Cheers,\n\(random.pick(V.firstNames))\n"
        let first = random.pick(V.firstNames), last = random.pick(V.lastNames)
        return MailDraft(senderName: "\(first) \(last)", address: "\(first.lowercased()).\(last.lowercased())@gmail.com",
                         subject: "Re: " + MailText.lorem(4, &random), body: .single(MailPart("text/plain", body)))
    }

    // MARK: - A realistic mailbox's kinds

    private static let publishers = [
        ("The Verge", "newsletter@theverge.com"), ("Product Hunt Daily", "hello@producthunt.com"),
        ("Morning Brew", "crew@morningbrew.com"), ("Substack", "news@substack.com"), ("Medium Daily Digest", "noreply@medium.com"),
        ("The New York Times", "nytdirect@nytimes.com"), ("Hacker Newsletter", "kale@hackernewsletter.com"),
        ("Zomato", "noreply@mailers.zomato.com"), ("Myntra", "updates@myntra.com"), ("LinkedIn", "messages-noreply@linkedin.com"),
    ]
    /// Names written outside ASCII, with the mailbox name their owners chose.
    private static let personalNames = [("José Álvarez", "jose.alvarez"), ("Zoë Müller", "zoe.mueller"),
                                        ("Ananya Iyer", "ananya.iyer"), ("Łukasz Nowak", "lukasz.nowak"),
                                        ("Chloé Dubois", "chloe.dubois"), ("Søren Kierkegaard", "soren.k"),
                                        ("Nguyễn Văn An", "nguyen.van.an"), ("Ahmet Yılmaz", "ahmet.yilmaz")]
    private static let emoji = ["🎉", "😀", "👍", "🙏", "☕", "🚀", "❤️", "📎"]

    /// A marketing newsletter: 8–40 sections with images and long tracking links, HTML only
    /// (quoted-printable or base64) or multipart/alternative with a text version. 15–150 KB.
    static func newsletter(_ random: inout CorpusRandom) -> MailDraft {
        let source = random.pick(publishers)
        var inner = ""
        var text = ""
        for _ in 0..<random.int(in: 8...40) {
            var token = [UInt8](repeating: 0, count: 45)
            token.withUnsafeMutableBytes { random.fill($0) }
            let link = "https://click.\(source.1.split(separator: "@")[1])/ls/click?upn=\(Base64Lines.encodeUnwrapped(token).replacingOccurrences("+", "-"))"
            let title = MailText.sentence(random.int(in: 4...9), &random)
            let paragraph = MailText.lorem(random.int(in: 60...200), &random)
            inner += "<table role=\"presentation\" width=\"600\" style=\"margin:0 auto\"><tr><td style=\"padding:12px 24px\">"
                + "<img src=\"https://cdn.example.com/img/\(random.int(in: 1...9_999_999)).jpg\" width=\"552\" alt=\"\">"
                + "<h2 style=\"font-family:Georgia,serif;font-size:22px\">\(title)</h2><p style=\"line-height:1.5\">\(paragraph)</p>"
                + "<a href=\"\(link)\" style=\"color:#0066cc\">Read more &rarr;</a></td></tr></table>\n"
            text += "\(title)\n\n\(paragraph)\n\nRead more: \(link)\n\n"
        }
        let html = MailText.htmlPage(title: source.0, inner: inner, bank: source.0, &random)
        let subject = random.chance(0.3) ? "\(random.pick(emoji)) " + MailText.sentence(6, &random) : MailText.sentence(7, &random)
        let body: MailBody = switch random.int(in: 0...2) {
        case 0: .single(MailPart("text/html", html, .quotedPrintable))
        case 1: .single(MailPart("text/html", html, .base64))
        default: .alternative([MailPart("text/plain", text, .quotedPrintable), MailPart("text/html", html, .quotedPrintable)])
        }
        return MailDraft(senderName: source.0, address: source.1, subject: subject, body: body)
    }

    /// Personal mail: plain text, sometimes 8-bit names and emoji (quoted-printable), often a
    /// quoted earlier message, and lines starting with "From " that mboxo escapes.
    static func personal(_ random: inout CorpusRandom, _ d: CivilTime) -> MailDraft {
        let accented = random.chance(0.3)
        let (name, mailbox): (String, String)
        if accented {
            (name, mailbox) = random.pick(personalNames)
        } else {
            let first = random.pick(V.firstNames), last = random.pick(V.lastNames)
            (name, mailbox) = ("\(first) \(last)", "\(first).\(last)".lowercased())
        }
        let address = mailbox + "@" + random.pick(["gmail.com", "yahoo.com", "outlook.com", "proton.me", "example.net"])
        var body = random.pick(["Hi,", "Hey!", "Hello there,", "Dear all,"]) + "\n\n"
        for _ in 0..<random.int(in: 1...4) { body += MailText.lorem(random.int(in: 15...90), &random) + "\n\n" }
        if random.chance(0.2) { body += "From what I remember, the tickets were about $40 each.\n\n" }
        if accented { body += "À bientôt \(random.pick(emoji))\n" }
        body += "\(name.split(separator: " ")[0])\n"
        if random.chance(0.5) {
            body += "\nOn \(d.rfc5322) +0000, \(random.pick(V.firstNames)) wrote:\n"
            for _ in 0..<random.int(in: 2...12) { body += "> " + MailText.lorem(12, &random) + "\n" }
            body += ">\n> From my phone\n"
        }
        let subject = (random.chance(0.5) ? "Re: " : "") + (accented && random.chance(0.5) ? "Café on Saturday? \(random.pick(emoji))" : MailText.sentence(4, &random))
        let part = accented ? MailPart("text/plain", body, .quotedPrintable) : MailPart("text/plain", body)
        return MailDraft(senderName: name, address: address, subject: subject, body: .single(part))
    }

    /// An order receipt with a table of items and prices, from a shop (not a bank).
    static func receipt(_ random: inout CorpusRandom) -> MailDraft {
        let shop = random.pick([("Amazon.com", "auto-confirm@amazon.com", "$"), ("Uber Receipts", "noreply@uber.com", "$"),
                                ("Apple", "no_reply@email.apple.com", "$"), ("Swiggy", "noreply@swiggy.in", "₹"),
                                ("Flipkart", "no-reply@flipkart.com", "₹"), ("IKEA", "noreply@ikea.de", "€")])
        var rows = ""
        var total = 0
        for _ in 0..<random.int(in: 1...8) {
            let cents = random.int(in: 199...25_000)
            total += cents
            rows += "<tr><td>\(MailText.sentence(random.int(in: 2...5), &random))</td><td align=\"right\">\(shop.2)\(MoneyText.usd(cents: cents))</td></tr>\n"
        }
        let order = "\(random.digits(3))-\(random.digits(7))-\(random.digits(7))"
        let inner = "<h1>Thanks for your order</h1><p>Order #\(order)</p><table width=\"100%\">\(rows)"
            + "<tr><td><b>Order Total</b></td><td align=\"right\"><b>\(shop.2)\(MoneyText.usd(cents: total))</b></td></tr></table>"
            + "<p>\(MailText.lorem(40, &random))</p>"
        let html = MailText.htmlPage(title: shop.0, inner: inner, bank: shop.0, &random)
        return MailDraft(senderName: shop.0, address: shop.1, subject: "Your \(shop.0) order #\(order)",
                         body: .alternative([MailPart("text/plain", "Order #\(order)\nOrder Total: \(shop.2)\(MoneyText.usd(cents: total))\n", .quotedPrintable),
                                             MailPart("text/html", html, .quotedPrintable)]))
    }

    /// A short service notification.
    static func notification(_ random: inout CorpusRandom) -> MailDraft {
        let source = random.pick([("GitHub", "notifications@github.com"), ("Google", "no-reply@accounts.google.com"),
                                  ("Slack", "feedback@slack.com"), ("Jira", "jira@example.atlassian.net")])
        let body = "\(MailText.sentence(random.int(in: 8...30), &random)).\n\n\(MailText.lorem(random.int(in: 10...60), &random))\n\n"
            + "-- \nYou are receiving this because you are subscribed to this thread.\nReply to this email directly or view it on the web.\n"
        return MailDraft(senderName: source.0, address: source.1, subject: MailText.sentence(6, &random),
                         body: .single(MailPart("text/plain", body)))
    }

    /// Mail with attachments (scans, invoices, photos): a short text, or text and HTML, then
    /// 1–3 attachments whose sizes follow `attachmentSize`.
    static func withAttachments(_ random: inout CorpusRandom) -> MailDraft {
        let first = random.pick(V.firstNames), last = random.pick(V.lastNames)
        let photos = random.chance(0.4)
        var attachments: [Attachment] = []
        for index in 0..<(photos ? random.int(in: 1...3) : 1) {
            attachments.append(Attachment(kind: photos ? .jpeg : .pdf,
                                          filename: photos ? "IMG_\(random.int(in: 1000...9999)).jpg" : "document-\(index + 1).pdf",
                                          size: attachmentSize(&random) / (photos ? 2 : 1)))
        }
        let text = "Hi,\n\n\(photos ? "Here are the photos from the weekend." : "Please find the document attached.") "
            + "\(MailText.lorem(random.int(in: 10...50), &random))\n\nThanks,\n\(first)\n"
        let parts = random.chance(0.5)
            ? [MailPart("text/plain", text)]
            : [MailPart("text/plain", text, .quotedPrintable), MailPart("text/html", "<html><body><p>\(TextEscaping.html(text).replacingOccurrences("\n", "<br>\n"))</p></body></html>\n", .quotedPrintable)]
        return MailDraft(senderName: "\(first) \(last)", address: "\(first.lowercased()).\(last.lowercased())@gmail.com",
                         subject: photos ? "Photos" : "Document: " + MailText.sentence(3, &random),
                         body: .mixed(text: parts, attachments: attachments))
    }

    /// A bank e-statement: a bank sender, a statement text naming amounts due, a PDF.
    static func statement(_ random: inout CorpusRandom, _ d: CivilTime) -> MailDraft {
        let text = "Dear Customer,\n\nYour HDFC Bank Credit Card statement for the period ending \(pad2(d.day))-\(pad2(d.month))-\(d.year) is attached. "
            + "Total Amount Due: Rs.\(MoneyText.inr(cents: random.int(in: 10_000...50_000_000))). "
            + "Minimum Amount Due: Rs.\(MoneyText.inr(cents: random.int(in: 10_000...500_000))).\n\nThe PDF is protected with your date of birth.\n\n\(V.disclaimer)\n"
        return MailDraft(senderName: "HDFC Bank InstaAlerts", address: "alerts@hdfcbank.net",
                         subject: "Your HDFC Bank Credit Card Statement",
                         body: .mixed(text: [MailPart("text/plain", text)],
                                      attachments: [Attachment(kind: .pdf, filename: "statement.pdf", size: random.int(in: 100_000...600_000))]))
    }

    /// Attachment sizes in bytes: mostly 100 KB–1 MB, some 1–5 MB, a few 5–25 MB, small sizes
    /// likelier within each band (u³). Only + and × on doubles: the same on every machine, which
    /// libm's `exp`/`log` do not promise.
    static func attachmentSize(_ random: inout CorpusRandom) -> Int {
        let (low, high): (Double, Double) = [(1e5, 1e6), (1e6, 5e6), (5e6, 2.5e7)][random.weighted([80, 15, 5])]
        let u = random.unit()
        return Int(low + (high - low) * u * u * u)
    }
}

extension String {
    /// Every occurrence of `target` replaced (Foundation-free).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
