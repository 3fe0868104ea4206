/// One SMS of a phone's history.
public struct TextMessage: Sendable {
    /// Sender id ("VM-HDFCBK") or phone number; for a sent message, the recipient.
    public var address: String
    public var text: String
    /// A message the phone sent (SMS Backup & Restore `type="2"`); never a transaction.
    public var sent: Bool
    /// Milliseconds since 1970 (UTC).
    public var epochMilliseconds: Int
    /// The ground truth when the message is a transaction alert.
    public var label: Label?
}

/// A phone's SMS history in India, oldest first: about a third bank transaction alerts (every
/// parser of the bundled Indian bank rules), then OTPs, payment reminders and offers from the
/// same banks, promotions and service messages from other senders, personal messages with emoji,
/// and (for SMS backups) some sent messages, among them forwarded alerts.
public struct TextMessageStream {
    private var random: CorpusRandom
    private let includeSent: Bool
    /// Seconds since 1970, UTC.
    private var clock = CivilTime.seconds(year: 2025, month: 6, day: 1)
    private static let india = 19_800  // UTC+05:30

    public init(seed: UInt64, includeSent: Bool) {
        random = CorpusRandom(seed: seed)
        self.includeSent = includeSent
    }

    private enum Kind: CaseIterable {
        case alert, otp, due, bankOffer, promotion, service, personal, sent, forwarded

        var weight: Int {
            switch self {
            case .alert: 350
            case .otp: 120
            case .due: 30
            case .bankOffer: 60
            case .promotion: 180
            case .service: 90
            case .personal: 110
            case .sent: 50
            case .forwarded: 10
            }
        }
    }
    private static let weights = Kind.allCases.map(\.weight)

    private static let promoSenders = ["VM-MYNTRA", "AD-SWIGGY", "JD-AIRTEL", "VK-FLPKRT", "AX-BIGBSK", "VM-ZOMATO", "JM-DOMINO"]
    private static let serviceSenders = ["VM-AMAZON", "AD-IRCTCI", "JD-BLUDRT", "VK-UIDAI", "AX-EPFOHO"]
    private static let contacts = ["+919876543210", "+919812345678", "+918800112233", "+917700998877", "+14155550123"]
    private static let emoji = ["😀", "😂", "👍", "🙏", "🎉", "❤️", "🔥", "😅", "🤔", "🥳"]

    /// The next message. Time moves forward 1 minute to 6 hours between messages.
    public mutating func next() -> TextMessage {
        clock += random.int(in: 60...(6 * 3600))
        var kind = Kind.allCases[random.weighted(Self.weights)]
        while !includeSent && (kind == .sent || kind == .forwarded) {
            kind = Kind.allCases[random.weighted(Self.weights)]
        }
        // The event happened a little before the SMS arrived; texts give India time.
        let eventUTC = clock - random.int(in: 2...90)
        let local = CivilTime(seconds: eventUTC + Self.india)
        let milliseconds = clock * 1000 + random.int(in: 0...999)
        switch kind {
        case .alert:
            let alert = random.pick(IndianBankSMS.allCases).make(local, &random)
            return TextMessage(address: alert.sender, text: alert.text, sent: false, epochMilliseconds: milliseconds, label: alert.label)
        case .forwarded:
            let alert = random.pick(IndianBankSMS.allCases).make(local, &random)
            return TextMessage(address: random.pick(Self.contacts), text: "Fwd: " + alert.text, sent: true,
                               epochMilliseconds: milliseconds, label: nil)
        default:
            let (address, text) = message(kind, local)
            return TextMessage(address: address, text: text, sent: kind == .sent, epochMilliseconds: milliseconds, label: nil)
        }
    }

    /// A non-transaction message and its sender; bank messages come from that bank's sender ids.
    private mutating func message(_ kind: Kind, _ t: CivilTime) -> (String, String) {
        let amount = Amount.random(&random, upTo: 5_000_000, decimals: true).written
        let merchant = random.pick(IndianBankSMS.cardMerchants)
        switch kind {
        case .otp:
            return random.pick(zip(["JM-ICICIB", "VM-HDFCBK", "VK-SBIUPI", "AX-AXISBK"], [
                "\(random.digits(6)) is OTP for txn of INR \(amount) at \(merchant) on ICICI Bank Card XX\(random.digits(4)). OTPs are SECRET. DO NOT disclose it to anyone.",
                "OTP is \(random.digits(6)) for txn of INR \(amount) at \(merchant) on HDFC Bank card ending \(random.digits(4)). Valid till \(pad2(t.hour)):\(pad2(t.minute)). Do not share OTP for security reasons.",
                "OTP for online purchase of Rs. \(amount) at \(merchant) thru State Bank Debit Card ending \(random.digits(4)) is \(random.digits(6)). Do not share this with anyone.",
                "\(random.digits(6)) is your OTP for Axis Bank Card XX\(random.digits(4)) transaction of INR \(amount). Valid for 3 mins. Do not share this OTP with anyone.",
            ]).map { $0 })
        case .due:
            return random.pick(zip(["VM-HDFCBK", "JM-ICICIB"], [
                "Payment of Rs \(amount) is due on \(pad2(t.day))/\(pad2(t.month))/\(t.yy) for your HDFC Bank Card \(random.digits(4)). Pls ignore if paid.",
                "ICICI Bank Credit Card XX\(random.digits(4)): Total amount of Rs \(amount) is due on \(pad2(t.day))-\(t.monthName)-\(t.yy). Pay now to avoid charges.",
            ]).map { $0 })
        case .bankOffer:
            return random.pick(zip(["VM-HDFCBK", "JM-ICICIB", "AX-AXISBK"], [
                "Dear Customer, get a Personal Loan of up to Rs 40,00,000 at attractive rates in 10 seconds. Apply now: hdfcbk.io/a/\(random.digits(6)) T&C apply",
                "Your ICICI Bank Credit Card is eligible for an instant limit increase to Rs 3,50,000. Click icici.co/\(random.digits(5)) to know more.",
                "Pre-approved Axis Bank Credit Card for you! Lifetime free, 5% cashback on Flipkart. Apply: axbk.io/\(random.digits(6))",
            ]).map { $0 })
        case .promotion:
            return (random.pick(Self.promoSenders), random.pick([
                "Flat 50-80% OFF on top brands! Use code SALE\(random.int(in: 10...50)) for extra Rs.200 off. Shop now: myntr.in/\(random.digits(6)) T&C",
                "Hungry? \(random.pick(Self.emoji)) Get 60% OFF up to Rs.120 on your next order. Order now: swig.gy/\(random.digits(5))",
                "Dear Customer, recharge with Rs.\(random.pick(["299", "479", "719"])) & get 2GB/day + unlimited calls for 28 days. Recharge now: i.airtel.in/\(random.digits(4))",
                "Big Billion Days are LIVE! Up to 80% off on mobiles & electronics. Shop at fkrt.it/\(random.digits(6))",
                "Your Domino's order is just a tap away! Buy 1 Get 1 free on medium pizzas <today only> \(random.pick(Self.emoji))",
            ]))
        case .service:
            return (random.pick(Self.serviceSenders), random.pick([
                "Delivered: Your package with \(merchant) items has been delivered. Track: amzn.in/d/\(random.digits(7))",
                "PNR:\(random.digits(10)),TRN:\(random.digits(5)),DOJ:\(pad2(t.day))-\(pad2(t.month))-\(t.yy),SL,NDLS-BCT,Dep:\(pad2(t.hour)):\(pad2(t.minute)), S\(random.int(in: 1...9)) \(random.int(in: 1...72)),Fare:\(amount)",
                "Your shipment AWB \(random.digits(11)) is out for delivery today. Bluedart",
                "Aadhaar OTP is not required for this update. Your Aadhaar update request \(random.digits(14)) has been processed.",
            ]))
        case .personal, .sent:
            let emoji = random.pick(Self.emoji)
            return (random.pick(Self.contacts), random.pick([
                "Reached home \(emoji)",
                "Can you send me the photos from yesterday? \(emoji)",
                "Running 10 mins late, start without me",
                "I paid Rs.\(amount) for dinner, your share is half \(emoji)",
                "Happy birthday!!! \(emoji)\(emoji) Have a great year ahead",
                "Ok \"see you\" at 7 <near the gate> & don't be late",
                "Call me when you're free",
            ]))
        case .alert, .forwarded:
            return ("", "")
        }
    }
}
