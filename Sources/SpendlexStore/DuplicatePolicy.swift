import Foundation
import SpendlexEngine

/// How the ledger recognises one transaction reported more than once.
///
/// Three layers, each with a reason kept beside the link:
/// 1. the same message (its id): skipped before it is read again;
/// 2. the same transaction reported twice by the same bank: the same reference number
///    (UPI RRN, authorisation code), else the same content key (bank, account, direction,
///    amount, currency, date, time, merchant); without a time in the text, the two must
///    also have arrived within `alertWindow`;
/// 3. the same transaction over two channels (an SMS and an email, a push and a statement
///    line): same account, direction, amount and currency, within `alertWindow` of each
///    other (a statement row and an alert: within `statementWindowDays`, and the statement
///    row is the primary), merchants compatible (equal in form once folded, or one missing).
///
/// Two messages over the *same* channel with no common reference are never merged by
/// layer 3: two identical coffees an hour apart, two SMS about two real transfers.
///
/// The Spark job (`scripts/spark/spendlex_spark.py`, `find_duplicate` and `link_component`)
/// links duplicates downstream by these same rules, in Python: change them here and there
/// together; `scripts/spark/equality_test.py` (in `.ci/run`) fails when the two disagree.
public struct DuplicatePolicy: Sendable {
    /// How far apart two alerts about one transaction may arrive (SMS vs email vs push).
    public var alertWindow: TimeInterval
    /// How many days a statement row's date may be from the alert about it: a card purchase is
    /// booked a day or three after it is made.
    public var statementWindowDays: Int

    /// The defaults: 15 minutes between alerts, 3 days between an alert and its statement row.
    public init(alertWindow: TimeInterval = 15 * 60, statementWindowDays: Int = 3) {
        self.alertWindow = alertWindow
        self.statementWindowDays = statementWindowDays
    }

    /// A transaction's duplicate keys, as the ledger computes them when it stores it.
    public static func keys(of t: Transaction) -> DuplicateKeys {
        let amount = canonicalAmount(t)
        return DuplicateKeys(content: contentKey(t, amount: amount), amount: amount, fieldCount: fieldCount(t))
    }

    /// The content key of layer 2, readable so that `duplicate_reason` can show it; `amount` is
    /// `canonicalAmount(t)`, made once by the caller.
    static func contentKey(_ t: Transaction, amount: String?) -> String {
        var key = t.bank
        key += "|"
        if let account = t.account { key += account.type + ":" + account.last4 }
        key += "|"
        key += t.direction?.rawValue ?? ""
        key += "|"
        key += amount ?? ""
        key += "|"
        key += t.currency ?? ""
        key += "|"
        if let date = t.date { key += date.description }
        key += "|"
        if let time = t.time { key += time.description }
        key += "|"
        key += folded(t.merchant)
        return key
    }

    /// The amount as a plain decimal without trailing zeros ("1250.00" → "1250", "12.50" → "12.5"),
    /// so that "Rs 1250" and "Rs 1,250.00" compare equal; from the normalized text, since
    /// `Decimal`'s description cost more than the rest of the key.
    static func canonicalAmount(_ t: Transaction) -> String? {
        guard var text = t.amountText ?? t.amount.map({ "\($0)" }) else { return nil }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// Lower-case letters and digits only: "Whole Foods Mkt." → "wholefoodsmkt".
    static func folded(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        // ASCII merchants, the usual ones, folded from their bytes: lowercasing and filtering
        // by `CharacterSet` was 7% of storing a batch. The result is the same for ASCII.
        if let ascii = asciiFolded(text) { return ascii }
        return String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0)
        }))
    }

    /// `folded` of an ASCII text; nil when the text is not ASCII.
    private static func asciiFolded(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var kept = [UInt8]()
            kept.reserveCapacity(bytes.count)
            for byte in bytes {
                switch byte {
                case 0x80...: return nil
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept.append(byte | 0x20)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept.append(byte)
                default: break
                }
            }
            return String(decoding: kept, as: UTF8.self)
        }
    }

    /// Whether two merchant names can be the same merchant written two ways: either is
    /// missing, or, folded, one starts like the other for at least four characters
    /// ("WHOLEFDS MKT 10234" and "Whole Foods Market"), or one contains the other.
    static func merchantsCompatible(_ a: String?, _ b: String?) -> Bool {
        let x = folded(a), y = folded(b)
        if x.isEmpty || y.isEmpty { return true }
        if x.contains(y) || y.contains(x) { return true }
        let common = zip(x.unicodeScalars, y.unicodeScalars).prefix { $0 == $1 }.count
        if common >= 4 { return true }
        // A statement's narration and an alert name the merchant in other words around it
        // ("ATW-512345XXXXXX1234-S1AN000123-MUMBAI" and "ATM S1AN000123"): a distinctive word
        // of six characters or more in both (a terminal id, a name) is the same merchant.
        return !distinctiveWords(a).isDisjoint(with: distinctiveWords(b))
    }

    /// Words of a merchant text, lower case, at least six letters or digits, other than the
    /// words every narration has.
    static func distinctiveWords(_ text: String?) -> Set<String> {
        guard let text else { return [] }
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        return Set(words.filter { $0.count >= 6 && !commonWords.contains($0) })
    }

    /// Narration words that name no merchant.
    static let commonWords: Set<String> = [
        "payment", "purchase", "transfer", "credit", "debited", "credited", "online", "limited", "private",
        "services", "service", "withdrawal", "deposit", "salary", "charges", "thankyou", "received",
    ]

    /// How many fields a transaction has: of duplicates, the one with the most is the primary.
    static func fieldCount(_ t: Transaction) -> Int {
        let present: [Bool] = [t.amount != nil, t.currency != nil, t.date != nil, t.time != nil, t.merchant != nil,
                               t.account != nil, t.balance != nil, t.reference != nil, t.channel != nil,
                               t.kind != nil, t.direction != nil]
        return present.filter { $0 }.count
    }
}
