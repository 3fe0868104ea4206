import Foundation
import SpendlexEngine

/// Decimal amounts as text for people: rounded to the currency's minor unit, "." as the
/// decimal mark, no grouping ("10290.00", "1500" yen). Exact `Decimal` arithmetic throughout.
public enum MoneyText {
    /// Decimal places of `currency`'s minor unit as people write it (CLDR): 2 unless known otherwise.
    public static func scale(of currency: String) -> Int {
        CurrencyNormalizer.minorUnitDigits(of: currency)
    }

    /// `amount` rounded (half away from zero) to `currency`'s minor unit, zeros padded.
    public static func format(_ amount: Decimal, currency: String) -> String {
        fixed(amount, scale: scale(of: currency))
    }

    /// `amount` rounded to `scale` decimals, zeros padded: fixed(1917.5, 2) is "1917.50".
    public static func fixed(_ amount: Decimal, scale: Int) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, scale, .plain)
        var text = "\(rounded)"
        if text == "-0" { text = "0" }
        guard scale > 0 else { return text }
        if let point = text.firstIndex(of: ".") {
            let decimals = text.distance(from: text.index(after: point), to: text.endIndex)
            return text + String(repeating: "0", count: max(0, scale - decimals))
        }
        return text + "." + String(repeating: "0", count: scale)
    }

    /// `amount` for a person: the currency's symbol and the locale's grouping and decimal mark
    /// ("₹1,02,900.00" in en_IN, "$1,250.00" in en_US, "1.234,50 €" in de_DE), rounded to the
    /// currency's minor unit. `locale` nil: `locale(for:)`. Exact: the formatter reads the Decimal.
    public static func display(_ amount: Decimal, currency: String, locale: String? = nil) -> String {
        // Foundation's FormatStyle (ICU's number formatter): NumberFormatter on Linux groups every
        // locale by threes, which writes lakhs and crores wrong.
        let scale = self.scale(of: currency)
        let style = Decimal.FormatStyle.Currency(code: currency, locale: Locale(identifier: locale ?? Self.locale(for: currency)))
            .precision(.fractionLength(scale))
            .rounded(rule: .toNearestOrAwayFromZero)
        return amount.formatted(style)
    }

    /// The locale a currency's amounts are written in when none is asked for: English as written
    /// in the currency's own country (ISO 4217 codes begin with the country's ISO 3166 code: INR in
    /// en_IN, with lakh grouping; USD in en_US; GBP in en_GB), else English of any country that
    /// uses it (the euro: en_IE), else en_US, whose formatter writes the code for a symbol it lacks.
    public static func locale(for currency: String) -> String {
        if let cached = localeCache.withLock({ $0[currency] }) { return cached }
        let available = Set(Locale.availableIdentifiers)
        let country = String(currency.prefix(2))
        var chosen = "en_US"
        if available.contains("en_\(country)") {
            chosen = "en_\(country)"
        } else if let english = available.sorted().first(where: { identifier in
            identifier.hasPrefix("en_") && !identifier.contains("@") && identifier.count == 5
                && Locale(identifier: identifier).currency?.identifier == currency
        }) {
            chosen = english
        }
        localeCache.withLock { $0[currency] = chosen }
        return chosen
    }

    private static let localeCache = LockedDictionary()
}

/// A small lock-protected dictionary (the locale chosen per currency: looking through every
/// locale once per amount would cost more than formatting it).
final class LockedDictionary: @unchecked Sendable {
    private var values: [String: String] = [:]
    private let lock = NSLock()

    func withLock<T>(_ body: (inout [String: String]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&values)
    }
}
