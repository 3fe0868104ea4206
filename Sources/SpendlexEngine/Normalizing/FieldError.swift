/// Why a captured field could not be normalized.
///
/// `id` is stable and meant for tests, golden files and machine output; `message` is for people
/// and may change wording. Known ids: `amount.invalid`, `currency.unknown`, `date.invalid`,
/// `date.nonexistent`, `date.noYear`, `date.format`, `time.invalid`, `account.invalid`, `merchant.empty`.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Stable identifier of the failure, e.g. `"amount.invalid"`.
    public let id: String
    /// Human-readable explanation, usually quoting the offending text.
    public let message: String

    /// Creates an error with a stable `id` and a human-readable `message`.
    public init(id: String, message: String) {
        self.id = id
        self.message = message
    }

    /// `"<id>: <message>"`.
    public var description: String { "\(id): \(message)" }
}

extension FieldError {
    /// The stable ids, declared once so that call sites and tests agree on spelling.
    enum Kind: String {
        case amountInvalid = "amount.invalid"
        case currencyUnknown = "currency.unknown"
        case dateInvalid = "date.invalid"
        case dateNonexistent = "date.nonexistent"
        /// A day and month without a year, and no arrival time to take the year from.
        case dateWithoutYear = "date.noYear"
        case dateFormat = "date.format"
        case timeInvalid = "time.invalid"
        case accountInvalid = "account.invalid"
        case merchantEmpty = "merchant.empty"
    }

    init(_ kind: Kind, _ message: String) {
        self.init(id: kind.rawValue, message: message)
    }
}
