/// Names, merchants and filler text of the reference corpus (`shared/bench/gen_mbox.py`),
/// kept identical so that both generators write the same kinds of messages.
enum MailVocabulary {
    static let merchantsIN = ["AMAZON", "SWIGGY", "ZOMATO", "FLIPKART", "BIGBASKET", "MYNTRA", "UBER INDIA",
                              "OLA CABS", "RELIANCE DIGITAL", "DMART", "MAKEMYTRIP", "IRCTC", "PAYTM MALL",
                              "BOOKMYSHOW", "NYKAA", "CROMA", "H&M INDIA", "DOMINOS PIZZA"]
    static let merchantsUS = ["STARBUCKS", "AMAZON.COM", "NETFLIX.COM", "UBER *TRIP", "WHOLE FOODS", "TARGET T-1234",
                              "SHELL OIL 5744", "DELTA AIR LINES", "BARNES & NOBLE", "APPLE.COM/BILL", "WALMART",
                              "TRADER JOE'S #552", "COSTCO WHSE", "DOORDASH*CHIPOTLE"]
    static let merchantsUK = ["TESCO STORES 2231", "SAINSBURYS", "MARKS & SPENCER", "PRET A MANGER", "TFL TRAVEL CH",
                              "BOOTS", "DELIVEROO", "WAITROSE"]
    static let merchantsID = ["INDOMARET", "ALFAMART", "TOKOPEDIA", "GRAB*FOOD", "SHOPEE", "KFC SUDIRMAN", "PERTAMINA"]
    static let merchantsDE = ["REWE SAGT DANKE", "LIDL", "EDEKA", "DM DROGERIE", "DB VERTRIEB GMBH", "ALDI SUED"]
    static let merchantsES = ["MERCADONA", "EL CORTE INGLES", "CARREFOUR", "RENFE VIAJEROS", "ZARA", "REPSOL"]
    static let upiVPAs = ["swiggy@icici", "zomato@hdfcbank", "merchant@okaxis", "9876543210@ybl", "bigbasket@axisbank",
                          "phonepe.merchant@ybl", "irctc@sbi"]
    static let firstNames = ["Asha", "Rahul", "Priya", "John", "Maria", "Budi", "Siti", "Lukas", "Carmen", "Emma", "Oliver"]
    static let lastNames = ["Sharma", "Patel", "Smith", "Garcia", "Santoso", "Mueller", "Lopez", "Brown", "Wilson"]

    static let lorem = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
        + "labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris "
        + "nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit "
        + "esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt "
        + "in culpa qui officia deserunt mollit anim id est laborum.").split(separator: " ").map(String.init)

    static let disclaimer = "This is a system generated mail. Please do not reply to this e-mail address. "
        + "For any queries, please call our 24-hour customer care. Never share your card number, "
        + "CVV, PIN, OTP, internet banking user ID, password or URN with anyone, even if the caller "
        + "claims to be a bank employee. Sharing these details can lead to unauthorised access to "
        + "your account. The information contained in this electronic message and any attachments to "
        + "this message are intended for the exclusive use of the addressee(s) and may contain "
        + "proprietary, confidential or privileged information."

    static let css = "<style type=\"text/css\">body{margin:0;padding:0;font-family:Arial,Helvetica,sans-serif;"
        + "font-size:14px;color:#333333}table{border-collapse:collapse}td{padding:4px 8px}"
        + ".hdr{background-color:#004c8f;color:#ffffff;font-size:18px}.ftr{font-size:11px;color:#888888}"
        + "a{color:#004c8f;text-decoration:none}</style>"
}

/// Filler text and HTML shells.
struct MailText {
    /// `count` lorem words.
    static func lorem(_ count: Int, _ random: inout CorpusRandom) -> String {
        var text = ""
        text.reserveCapacity(count * 7)
        for index in 0..<count {
            if index > 0 { text += " " }
            text += random.pick(MailVocabulary.lorem)
        }
        return text
    }

    /// gen_mbox.py's `html_wrap`: a table layout with a style sheet, 1–4 footer rows and the
    /// escaped disclaimer.
    static func htmlPage(title: String, inner: String, bank: String, _ random: inout CorpusRandom) -> String {
        var rows = ""
        for _ in 0..<random.int(in: 1...4) {
            rows += "<tr><td class=\"ftr\">\(lorem(12, &random))</td></tr>\n"
        }
        return "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">"
            + "<title>\(title)</title>\(MailVocabulary.css)</head>\n<body><table width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\">"
            + "<tr><td class=\"hdr\">\(bank)</td></tr>\n<tr><td>\(inner)</td></tr>\n\(rows)"
            + "<tr><td class=\"ftr\">\(TextEscaping.html(MailVocabulary.disclaimer))</td></tr></table></body></html>\n"
    }

    /// A capitalized lorem line, for subjects.
    static func sentence(_ count: Int, _ random: inout CorpusRandom) -> String {
        let text = lorem(count, &random)
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
