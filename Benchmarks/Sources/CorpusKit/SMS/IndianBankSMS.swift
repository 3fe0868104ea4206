/// Indian bank SMS alerts in the wording the bundled rules (`rules/banks/in/*.yaml`) parse, one
/// case per parser, with the label the engine must produce: the parser id, the amount as a plain
/// decimal, the merchant or payee as `MerchantNormalizer` leaves it, the account digits as
/// `AccountMask` reports them.
public enum IndianBankSMS: String, CaseIterable, Sendable {
    case hdfcCardSpend = "hdfc.card.spend"
    case hdfcCardSpendAmountFirst = "hdfc.card.spend.amount-first"
    case hdfcUPIDebit = "hdfc.upi.debit"
    case hdfcIMPSCredit = "hdfc.imps.credit"
    case hdfcNEFTCredit = "hdfc.neft.credit"
    case hdfcCardPayment = "hdfc.card.payment"
    case iciciCardSpend = "icici.card.spend"
    case iciciUPIDebit = "icici.upi.debit"
    case iciciUPICredit = "icici.upi.credit"
    case iciciCardRefund = "icici.card.refund"
    case sbiUPIDebit = "sbi.upi.debit"
    case sbiAccountCredit = "sbi.account.credit"
    case axisCardSpend = "axis.card.spend"
    case axisCardPayment = "axis.card.payment"

    static let cardMerchants = ["AMAZON PAY INDIA", "SWIGGY", "ZOMATO LTD", "EAZYDINE0000123", "RAZ*SampleFood", "PAYU*MYNTRA",
                                "BOOKMYSHOW", "DMART AVENUE", "IRCTC WEB", "UBER INDIA SYSTEMS", "H&M INDIA", "BIG BAZAAR",
                                "STARBUCKS COFFEE", "APOLLO PHARMACY", "INDIAN OIL PETROL PUMP", "FLIPKART INTERNET"]
    static let people = ["RAHUL SHARMA", "Priya Patel", "ASHA IYER", "Vikram Singh", "Neha Gupta", "Arjun Mehta",
                         "Sneha Reddy", "KIRAN KUMAR", "Pune Metro", "A.B. Traders", "Sharma & Sons", "Meera Nair"]
    static let vpas = ["swiggy@icici", "zomato@hdfcbank", "merchant@okaxis", "9876543210@ybl", "bigbasket@axisbank",
                       "phonepe.merchant@ybl", "irctc@sbi", "paytmqr281005050101@paytm"]
    static let remitters = ["ACME PAYROLL SERVICES", "Infosys Limited", "ZERODHA BROKING", "Sample Remitter Inc", "LIC OF INDIA"]

    /// The SMS sender ids the rules route to this bank.
    var senders: [String] {
        switch self {
        case .hdfcCardSpend, .hdfcCardSpendAmountFirst, .hdfcUPIDebit, .hdfcIMPSCredit, .hdfcNEFTCredit, .hdfcCardPayment:
            ["VM-HDFCBK", "AD-HDFCBK", "JD-HDFCBK", "VK-HDFCBK-S"]
        case .iciciCardSpend, .iciciUPIDebit, .iciciUPICredit, .iciciCardRefund:
            ["JM-ICICIB", "VM-ICICIB", "AX-ICICIT", "VK-ICICIB-S"]
        case .sbiUPIDebit: ["VK-SBIUPI", "AD-SBIUPI", "JD-SBIUPI"]
        case .sbiAccountCredit: ["VM-SBIBNK", "AD-SBIINB", "JM-SBIBNK"]
        case .axisCardSpend, .axisCardPayment: ["AX-AXISBK", "VM-AXISBK", "JD-AXISBK-S"]
        }
    }

    /// An alert for a transaction at India time `t`; returns the sender, the text and its label.
    public func make(_ t: CivilTime, _ random: inout CorpusRandom) -> (sender: String, text: String, label: Label) {
        let sender = random.pick(senders)
        let c4 = random.digits(4)
        let ref = random.digits(12)
        let ymd = "\(t.year)-\(pad2(t.month))-\(pad2(t.day))"
        let dmy2 = "\(pad2(t.day))-\(pad2(t.month))-\(t.yy)"
        let dMonYY = "\(pad2(t.day))-\(t.monthName)-\(t.yy)"
        func label(_ amount: Amount, _ merchant: String, _ card: String) -> Label {
            Label(rule: rawValue, amount: amount.plain, merchant: merchant, card: card)
        }
        // Card payments name no merchant; the rule files give them the merchant "Payment received".
        let paymentReceived = "Payment received"
        switch self {
        case .hdfcCardSpend:
            let a = Amount.random(&random, upTo: 15_000_000), m = random.pick(Self.cardMerchants)
            return (sender, "Spent Rs.\(a.written) On HDFC Bank Card \(c4) At \(m) On \(ymd):\(t.hms).Not You? "
                + "To Block+Reissue Call 18002586161/SMS BLOCK CC \(c4) to 7308080808", label(a, m, c4))
        case .hdfcCardSpendAmountFirst:
            let a = Amount.random(&random, upTo: 5_000_000), m = random.pick(Self.cardMerchants)
            return (sender, "Rs.\(a.written) spent on HDFC Bank Card x\(c4) at \(m) on \(ymd):\(t.hms).Not U? "
                + "To Block & Reissue Call 18002586161/SMS BLOCK CC \(c4) to 7308080808", label(a, m, c4))
        case .hdfcUPIDebit:
            let a = Amount.random(&random, upTo: 10_000_000, decimals: true)
            let payee = random.chance(0.5) ? "VPA \(random.pick(Self.vpas))" : "a/c **\(random.digits(4))"
            return (sender, "HDFC Bank:Rs. \(a.written) debited from a/c *\(c4) on \(pad2(t.day))/\(pad2(t.month))/\(t.yy) to \(payee) "
                + "(UPI Ref No. \(ref)). Not you? Call on 18002586161 to report", label(a, payee, c4))
        case .hdfcIMPSCredit:
            let a = Amount.random(&random, upTo: 50_000_000, decimals: true), who = random.pick(Self.people)
            return (sender, "Received!\nINR \(a.written) in HDFC Bank A/c xx\(c4)\nOn \(dmy2)\nFor IMPS -\(who)- \(ref)\n"
                + "Avl bal INR \(Amount.random(&random, upTo: 90_000_000, decimals: true).written)", label(a, who, c4))
        case .hdfcNEFTCredit:
            let a = Amount.random(&random, upTo: 90_000_000, decimals: true), who = random.pick(Self.remitters)
            return (sender, "Update! INR \(a.written) deposited in HDFC Bank A/c XX\(c4) on \(pad2(t.day))-\(t.monthName.uppercased())-\(t.yy) "
                + "for NEFT Cr-ICIC0000\(random.digits(3))-\(who)-\(random.pick(Self.people))-CMS\(random.digits(12)).Avl bal INR "
                + "\(Amount.random(&random, upTo: 90_000_000, decimals: true).written). Cheque deposits in A/C are subject to clearing",
                    label(a, who, c4))
        case .hdfcCardPayment:
            let a = Amount.random(&random, upTo: 20_000_000)
            if random.chance(0.5) {
                let date = "\(pad2(t.day))/\(t.monthName.uppercased())/\(t.year)"
                return (sender, "HDFC Bank Cardmember, Online Payment of Rs.\(a.written) vide Ref# \(random.digits(3))\(random.digits(12)) "
                    + "was credited to your card ending \(c4) On \(date)_value Date \(date)", label(a, paymentReceived, c4))
            }
            return (sender, "DEAR HDFCBANK CARDMEMBER, PAYMENT OF Rs. \(a.written) RECEIVED TOWARDS YOUR CREDIT CARD ENDING WITH \(c4) "
                + "ON \(t.day)-\(t.month)-\(t.year).YOUR AVAILABLE LIMIT IS RS. \(Amount.random(&random, upTo: 50_000_000, decimals: true).written)",
                    label(a, paymentReceived, c4))
        case .iciciCardSpend:
            let a = Amount.random(&random, upTo: 20_000_000, decimals: true), m = random.pick(Self.cardMerchants)
            let limit = Amount.random(&random, upTo: 99_999_999, decimals: true).written
            if random.chance(0.5) {
                return (sender, "INR \(a.written) spent using ICICI Bank Card XX\(c4) on \(dMonYY) on \(m). Avl Limit: INR \(limit). "
                    + "If not you, call 1800 2662/SMS BLOCK \(c4) to 9215676766.", label(a, m, c4))
            }
            return (sender, "Rs \(a.written) spent on ICICI Bank Card XX\(c4) on \(dMonYY) at \(m). Avl Lmt: Rs \(limit). "
                + "To dispute, call 18002662/SMS BLOCK \(c4) to 9215676766.", label(a, m, c4))
        case .iciciUPIDebit:
            let a = Amount.random(&random, upTo: 10_000_000, decimals: true), who = random.pick(Self.people), c3 = random.digits(3)
            return (sender, "ICICI Bank Acct XX\(c3) debited for Rs \(a.written) on \(dMonYY); \(who) credited. UPI:\(ref). "
                + "Call 18002662 for dispute. SMS BLOCK \(c3) to 9215676766.", label(a, who, c3))
        case .iciciUPICredit:
            let a = Amount.random(&random, upTo: 10_000_000, decimals: true), who = random.pick(Self.people), c3 = random.digits(3)
            return (sender, "Dear Customer, Acct XX\(c3) is credited with Rs \(a.written) on \(dMonYY) from \(who). UPI:\(ref)-ICICI Bank.",
                    label(a, who, c3))
        case .iciciCardRefund:
            let a = Amount.random(&random, upTo: 2_000_000, decimals: true), m = random.pick(Self.cardMerchants)
            return (sender, "\(m) refund of Rs \(a.written) credited to ICICI Bank Credit Card XX\(c4) on "
                + "\(pad2(t.day))-\(t.monthName.uppercased())-\(t.yy). Revised total due Rs \(Amount.random(&random, upTo: 9_999_900, decimals: true).written), "
                + "minimum due Rs \(Amount.random(&random, upTo: 500_000, decimals: true).written)", label(a, m, c4))
        case .sbiUPIDebit:
            let a = Amount.random(&random, upTo: 5_000_000, decimals: true, grouped: false), who = random.pick(Self.people)
            return (sender, "Dear UPI user A/C X\(c4) debited by \(a.written) on date \(pad2(t.day))\(t.monthName)\(t.yy) trf to \(who) "
                + "Refno \(ref) If not u? call-1800111109 for other services-18001234-SBI", label(a, who, c4))
        case .sbiAccountCredit:
            let a = Amount.random(&random, upTo: 20_000_000), who = random.pick(Self.people)
            return (sender, "Dear SBI User, your A/c X\(c4)-credited by Rs.\(a.written) on \(pad2(t.day))\(t.monthName)\(t.yy) "
                + "transfer from \(who) Ref No \(ref) -SBI", label(a, who, c4))
        case .axisCardSpend:
            let a = Amount.random(&random, upTo: 10_000_000, decimals: true), m = random.pick(Self.cardMerchants)
            return (sender, "Spent INR \(a.written)\nAxis Bank Card no. XX\(c4)\n\(dmy2) \(t.hms) IST\n\(m)\n"
                + "Avl Limit: INR \(Amount.random(&random, upTo: 50_000_000, decimals: true).written)\nNot you? SMS BLOCK \(c4) to 919951860002",
                    label(a, m, c4))
        case .axisCardPayment:
            let a = Amount.random(&random, upTo: 20_000_000)
            return (sender, "Payment of INR \(a.written) has been received towards your Axis Bank Credit Card XX\(c4) on \(dmy2) - Axis Bank",
                    label(a, paymentReceived, c4))
        }
    }
}

/// A rupee amount as written in an SMS and as the engine reports it.
struct Amount {
    /// As written: "1,24,560.00", "569", "1234.50".
    var written: String
    /// As a plain decimal: "124560.00", "569", "1234.50".
    var plain: String

    /// An amount up to `maxPaise` paise: whole rupees or with paise, Indian-grouped or not.
    static func random(_ random: inout CorpusRandom, upTo maxPaise: Int, decimals: Bool? = nil, grouped: Bool? = nil) -> Amount {
        // Small amounts are the common ones: u² toward zero.
        let u = random.unit()
        let paise = max(100, Int(Double(maxPaise) * u * u))
        let withDecimals = decimals ?? random.chance(0.5)
        let rupees = withDecimals ? paise / 100 : max(1, paise / 100)
        let fraction = withDecimals ? "." + pad2(paise % 100) : ""
        let group = grouped ?? random.chance(0.6)
        return Amount(written: (group ? MoneyText.indianGrouping(rupees) : String(rupees)) + fraction,
                      plain: String(rupees) + fraction)
    }
}
