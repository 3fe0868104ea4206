/// The sign an amount carries in its own text, before any rule decides debit or credit.
public enum AmountSign: String, Sendable, Equatable {
    /// A leading or trailing `-` (or `−`), or the amount written in parentheses: `-12.00`, `12.00-`, `(12.00)`.
    case negative
    /// A `CR` / `Cr` prefix or suffix: `1,000.00 CR`.
    case credit
    /// A `DR` / `Dr` prefix or suffix: `Dr 500`.
    case debit
}
