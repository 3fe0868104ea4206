/// How sure the engine is of a transaction, part by part.
///
/// The score starts at 1 and each doubt found while building the transaction takes its
/// weight off: the parser's specificity (bank-specific or fallback, one sentence or fields
/// found one by one), where the bank came from (sender, text, nowhere), and each field's
/// validation (currency known, date real and not in the future, mask well formed, merchant
/// not empty, direction known). The doubts are kept as a bit set, so that scoring costs no
/// allocation, and `spendlex explain` lists them.
public struct Confidence: Sendable, Equatable {
    /// One reason to doubt a transaction.
    public enum Doubt: Int, CaseIterable, Sendable {
        /// The generic fallback parser read it, not a bank-specific one.
        case fallbackParser
        /// A per-field parser found the fields one by one, not in one sentence.
        case perFieldParser
        /// The bank was recognised from the text, not from the sender.
        case bankFromText
        /// No bank was recognised at all.
        case noBank
        /// The currency written is not one Spendlex knows.
        case unknownCurrency
        /// No currency was written and the bank has no default.
        case noCurrency
        /// The text has no date; it was taken from the arrival time.
        case dateFromArrival
        /// The text has no date and the message no arrival time.
        case noDate
        /// The date has no year and the message no arrival time to take it from: left out.
        case dateWithoutYear
        /// The date captured is not a real date in any order (fallback parsers only; for a bank's
        /// parser it is an error).
        case malformedDate
        /// The date is more than a day after the message arrived (or after now).
        case futureDate
        /// The account or card reference is not a readable mask.
        case malformedAccount
        /// The merchant was captured but is empty or unreadable.
        case emptyMerchant
        /// The balance was captured but is not an amount.
        case malformedBalance
        /// Neither the parser nor the text says whether money went out or came in.
        case noDirection
        /// The currency symbol names several currencies ("$", "Rs", "kr") and the country did not
        /// decide between them: the currency is the symbol's usual meaning, a guess.
        case ambiguousCurrency
        /// The sender is unknown to the rules: the country, whose conventions read the message,
        /// was inferred from the sender's shape or from the text.
        case countryInferred
        /// A numeric date reads both ways ("05/11/2026") and no country decides the order: the
        /// reading closest to the message's arrival was taken (or, with no arrival time, day first).
        case ambiguousDateOrder
        /// Read with another bank's format (format recognition): neither the sender nor the text
        /// named that bank, or the sender's bank has no such format.
        case anotherBanksFormat

        /// The part of the score this doubt belongs to.
        public var part: String {
            switch self {
            case .fallbackParser, .perFieldParser: "specificity"
            case .bankFromText, .noBank: "source"
            case .unknownCurrency, .noCurrency: "currency"
            case .dateFromArrival, .noDate, .dateWithoutYear, .malformedDate, .futureDate, .ambiguousDateOrder: "date"
            case .malformedAccount: "account"
            case .emptyMerchant: "merchant"
            case .malformedBalance: "balance"
            case .noDirection: "direction"
            case .ambiguousCurrency: "currency"
            case .countryInferred: "source"
            case .anotherBanksFormat: "specificity"
            }
        }

        /// What it takes off the score.
        public var weight: Double {
            switch self {
            case .fallbackParser, .futureDate, .anotherBanksFormat: 0.35
            case .perFieldParser, .bankFromText, .dateFromArrival: 0.05
            case .noBank, .malformedBalance, .ambiguousCurrency: 0.10
            case .countryInferred, .ambiguousDateOrder: 0.05
            case .noDate, .dateWithoutYear, .malformedDate, .malformedAccount, .emptyMerchant: 0.15
            case .unknownCurrency, .noCurrency, .noDirection: 0.20
            }
        }

        /// One line for `spendlex explain`.
        public var summary: String {
            switch self {
            case .fallbackParser: "read by the generic fallback parser, not a bank-specific one"
            case .perFieldParser: "fields found one by one (per-field parser), not in one sentence"
            case .bankFromText: "bank recognised from the text, not from the sender"
            case .noBank: "no bank recognised from the sender or the text"
            case .unknownCurrency: "currency written is not a known one"
            case .noCurrency: "no currency written and no bank default"
            case .dateFromArrival: "no date in the text: taken from the arrival time"
            case .noDate: "no date in the text and no arrival time"
            case .dateWithoutYear: "date written without a year and no arrival time to take it from"
            case .malformedDate: "date captured but not a real date"
            case .futureDate: "date more than a day after the message arrived"
            case .malformedAccount: "account or card reference is not a readable mask"
            case .emptyMerchant: "merchant captured but empty"
            case .malformedBalance: "balance captured but not an amount"
            case .noDirection: "direction unknown (neither debit nor credit)"
            case .ambiguousCurrency: "currency symbol shared by several currencies, not decided by the country"
            case .countryInferred: "country inferred from the sender's shape or the text, not known from a bank"
            case .ambiguousDateOrder: "numeric date readable day-first and month-first, no country to decide: the reading nearest the arrival taken"
            case .anotherBanksFormat: "read with another bank's format (format recognition), not one of the sender's bank"
            }
        }
    }

    private var bits: UInt32 = 0

    /// No doubt: a score of 1.
    public init() {}

    /// Records a doubt.
    public mutating func insert(_ doubt: Doubt) {
        bits |= 1 << UInt32(doubt.rawValue)
    }

    /// Whether the doubt was recorded.
    public func contains(_ doubt: Doubt) -> Bool {
        bits & (1 << UInt32(doubt.rawValue)) != 0
    }

    /// The doubts recorded, in declaration order.
    public var doubts: [Doubt] {
        Doubt.allCases.filter(contains)
    }

    /// 1 minus the doubts' weights, clamped to 0...1, to two decimals.
    public var score: Double {
        var total = 1.0
        var rest = bits
        while rest != 0 {
            let index = rest.trailingZeroBitCount
            total -= Doubt(rawValue: index)!.weight
            rest &= rest - 1
        }
        return (max(0, total) * 100).rounded() / 100
    }
}

/// When a transaction is complete enough to trust: the thresholds behind `status`.
public struct ConfidencePolicy: Sendable, Equatable {
    /// A transaction scoring at or above this is `ok`; below it, `review`.
    public var okThreshold: Double

    /// The default: `ok` from 0.7, so that any fallback parse (at most 0.65) is `review`.
    public init(okThreshold: Double = 0.7) {
        self.okThreshold = okThreshold
    }

    /// The status of a transaction with this score; `pending` when a required field is missing.
    public func status(score: Double, missingRequired: Bool) -> Transaction.Status {
        if missingRequired { return .pending }
        return score >= okThreshold ? .ok : .review
    }
}
