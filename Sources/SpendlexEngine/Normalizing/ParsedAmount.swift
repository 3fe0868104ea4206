import Foundation

/// An amount read from a captured field: its exact absolute value, the sign and currency written
/// around it, and how many decimals the text had.
public struct ParsedAmount: Equatable, Sendable {
    /// Absolute value, >= 0, exact: built from the written digits, never through `Double`.
    public var value: Decimal
    /// The sign written in the text: a leading or trailing `-`, parentheses, or a `CR`/`DR` prefix or suffix.
    /// nil when none was written.
    public var sign: AmountSign?
    /// ISO 4217 code when a symbol or code is written inside the raw text ("Rs.1,234.00" → "INR"),
    /// resolved with the normalizer's country; nil when the text has none.
    public var currency: String?
    /// False when the written form names several currencies and the country did not decide
    /// (a "$" with no country): `currency` is then the form's usual meaning, a guess.
    public var currencyCertain: Bool
    /// Number of decimals written in the text ("30.00" → 2, "10290" → 0, ".5" → 1), so that
    /// `plainString` gives back the scale the user saw; `Decimal` itself drops trailing zeros.
    public var fractionDigits: Int

    /// `plainString` as the normalizer wrote it from the digits, when it built this amount.
    var plainText: String?

    /// Creates an amount. When `fractionDigits` is nil it is taken from `value`'s own exponent
    /// (`Decimal(string: "1.50")` → 1, since `Decimal` keeps no trailing zeros).
    public init(value: Decimal, sign: AmountSign? = nil, currency: String? = nil, currencyCertain: Bool = true,
                fractionDigits: Int? = nil) {
        self.value = value
        self.sign = sign
        self.currency = currency
        self.currencyCertain = currencyCertain
        self.fractionDigits = fractionDigits ?? max(0, -value.exponent)
    }

    /// Equal when value, sign, currency and written scale are; how the text was built does not count.
    public static func == (lhs: ParsedAmount, rhs: ParsedAmount) -> Bool {
        lhs.value == rhs.value && lhs.sign == rhs.sign && lhs.currency == rhs.currency
            && lhs.fractionDigits == rhs.fractionDigits
    }

    /// The value in plain decimal notation with a `.` mark, no exponent and no grouping, keeping
    /// the written decimals: "30.00" → "30.00", "10290" → "10290", "1,24,560.00" → "124560.00",
    /// "1.234,5" → "1234.5". The sign is not included.
    public var plainString: String {
        if let plainText { return plainText }
        var text = value.description
        guard fractionDigits > 0, value.isFinite else { return text }
        let written: Int
        if let dot = text.firstIndex(of: ".") {
            written = text.distance(from: text.index(after: dot), to: text.endIndex)
        } else {
            written = 0
            text.append(".")
        }
        if written < fractionDigits {
            text.append(String(repeating: "0", count: fractionDigits - written))
        }
        return text
    }
}
