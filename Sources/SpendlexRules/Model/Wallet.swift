import Foundation

/// The user's cards and preferences (a wallet file), for the card advisor.
public struct Wallet: Sendable {
    /// The cards, in written order.
    public var cards: [WalletCard] = []
    /// Preferences.
    public var preferences = WalletPreferences()
    /// Where the file starts.
    public var location: SourceLocation

    /// Creates a wallet.
    public init(location: SourceLocation) {
        self.location = location
    }
}

/// One card the user holds.
public struct WalletCard: Sendable {
    /// The card file's id (`amex-gold`).
    public var card: Located<String>
    /// The card's last four digits, as the ledger stores them.
    public var last4: String?
    /// What the user calls it.
    public var nickname: String?
    /// Card-membership anniversary (ISO date), for caps per anniversary year.
    public var anniversary: LocalDay?
    /// Day of the month the statement closes (1...31), for caps per statement cycle.
    public var statementDay: Int?
    /// Rotating quarters the user activated (`2026-Q4`).
    public var activated: [String] = []
    /// Spending so far in the current cap period, by reward group id (card currency); used when
    /// there is no ledger.
    public var spent: [String: Located<Decimal>] = [:]
    /// Spending so far set by hand, by reward group id (the service's wallet corrections): in
    /// the cap period that holds its day, it replaces the ledger's sum up to that day and `spent`.
    public var spentCorrections: [String: SpendingCorrection] = [:]

    /// Creates a wallet card.
    public init(card: Located<String>) {
        self.card = card
    }

    /// The nickname, else the last four, else the card id: how outputs name this card.
    public var label: String { nickname ?? last4.map { "…\($0)" } ?? card.value }
}

/// A user's figure for the spending so far in a reward group's cap period, as of a day.
public struct SpendingCorrection: Sendable, Hashable {
    /// The amount spent in the cap period up to and including `asOf`, card currency, exact.
    public var amount: Decimal
    /// The day the figure holds for.
    public var asOf: LocalDay

    /// A correction.
    public init(amount: Decimal, asOf: LocalDay) {
        self.amount = amount
        self.asOf = asOf
    }
}

/// A date without time, as wallet files write it; `description` is `YYYY-MM-DD`.
public struct LocalDay: Sendable, Hashable, CustomStringConvertible {
    /// Year.
    public let year: Int
    /// Month, 1...12.
    public let month: Int
    /// Day, 1...31.
    public let day: Int

    /// Creates a day.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }
}

/// The user's preferences for recommendations.
public struct WalletPreferences: Sendable {
    /// The reward program that wins ties (`amex-mr`).
    public var preferredProgram: String?
    /// The share of a cap (0...1) from which a warning says it is nearly used.
    public var alertThreshold: Decimal = Decimal(string: "0.85")!
    /// The user's own valuations, cents per point by program id; they override `rules/points.yaml`.
    public var centsPerPoint: [String: Decimal] = [:]

    /// Default preferences.
    public init() {}
}
