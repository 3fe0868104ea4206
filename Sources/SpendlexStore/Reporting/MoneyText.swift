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
}
