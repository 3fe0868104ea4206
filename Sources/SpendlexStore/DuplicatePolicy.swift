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
///    other, merchants compatible (equal in form once folded, or one missing).
///
/// Two messages over the *same* channel with no common reference are never merged by
/// layer 3: two identical coffees an hour apart, two SMS about two real transfers.
public struct DuplicatePolicy: Sendable {
    /// How far apart two alerts about one transaction may arrive (SMS vs email vs push).
    public var alertWindow: TimeInterval

    /// The defaults: 15 minutes between alerts.
    public init(alertWindow: TimeInterval = 15 * 60) {
        self.alertWindow = alertWindow
    }

    /// The content key of layer 2: readable, so that `duplicate_reason` can show it.
    static func contentKey(_ t: Transaction) -> String {
        [t.bank, t.account.map { "\($0.type):\($0.last4)" } ?? "", t.direction?.rawValue ?? "",
         canonicalAmount(t) ?? "", t.currency ?? "", t.date?.description ?? "", t.time?.description ?? "",
         folded(t.merchant)].joined(separator: "|")
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
        String(String.UnicodeScalarView((text ?? "").lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0)
        }))
    }

    /// Whether two merchant names can be the same merchant written two ways: either is
    /// missing, or, folded, one starts like the other for at least four characters
    /// ("WHOLEFDS MKT 10234" and "Whole Foods Market"), or one contains the other.
    static func merchantsCompatible(_ a: String?, _ b: String?) -> Bool {
        let x = folded(a), y = folded(b)
        if x.isEmpty || y.isEmpty { return true }
        if x.contains(y) || y.contains(x) { return true }
        let common = zip(x.unicodeScalars, y.unicodeScalars).prefix { $0 == $1 }.count
        return common >= 4
    }

    /// How many fields a transaction has: of duplicates, the one with the most is the primary.
    static func fieldCount(_ t: Transaction) -> Int {
        let present: [Bool] = [t.amount != nil, t.currency != nil, t.date != nil, t.time != nil, t.merchant != nil,
                               t.account != nil, t.balance != nil, t.reference != nil, t.channel != nil,
                               t.kind != nil, t.direction != nil]
        return present.filter { $0 }.count
    }
}
