import Foundation

/// One credit card's reward rules (`rules/cards/<card>.yaml`): who issues it, what it earns
/// where, with caps and conditions. The reward groups are a decision table with the collect
/// policy: every group that applies to a purchase is a candidate; `priority` chooses between
/// groups of one card that cover the same thing.
public struct CardRules: Sendable {
    /// Stable id (`amex-gold`), what a wallet names.
    public var id: Located<String>
    /// Display name (`American Express Gold Card`).
    public var name: String?
    /// The issuing bank (`American Express`).
    public var issuer: String?
    /// The payment network, lower case: visa, mastercard, amex, discover, rupay, diners.
    public var network: Located<String>?
    /// ISO 3166 country the card is issued in.
    public var country: String?
    /// ISO 4217 billing currency; a purchase in another currency pays the foreign transaction fee.
    public var currency: String?
    /// The reward program id (`amex-mr`, `cash`), a key of `rules/points.yaml`.
    public var program: Located<String>?
    /// Annual fee in the card's currency (informative).
    public var annualFee: Decimal?
    /// Foreign transaction fee in percent of the purchase (`3` for 3%).
    public var foreignTransactionFee: Decimal?
    /// The date the rates were read from the source (`2026-11-22`).
    public var asOf: Located<String>?
    /// Where the rates come from: the issuer's public pages.
    public var sources: [String] = []
    /// The reward groups, in written order.
    public var rewards: [RewardGroup] = []
    /// Where the `rewards` key is, for diagnostics about the table as a whole.
    public var rewardsLocation: SourceLocation?
    /// Where the file starts.
    public var location: SourceLocation

    /// Creates a card.
    public init(id: Located<String>, location: SourceLocation) {
        self.id = id
        self.location = location
    }

    /// The catch-all groups: those that earn on any purchase.
    public var baseGroups: [RewardGroup] { rewards.filter(\.isCatchAll) }
}

/// How much a reward group earns: points per spend unit, or a percentage back.
public enum RewardRate: Sendable, Hashable {
    /// `multiplier` points for every `per` units of currency spent (4 per 1; 4 per 150 rupees).
    case multiplier(Decimal, per: Decimal)
    /// A percentage of the amount back in cash (`5` for 5%).
    case percent(Decimal)

    /// The same kind of rate with another figure: a cap's rate after the cap.
    public func with(_ figure: Decimal) -> RewardRate {
        switch self {
        case let .multiplier(_, per): return .multiplier(figure, per: per)
        case .percent: return .percent(figure)
        }
    }

    /// The figure as written: the multiplier or the percentage.
    public var figure: Decimal {
        switch self {
        case let .multiplier(value, _): return value
        case let .percent(value): return value
        }
    }
}

/// The periods a reward cap can reset on.
public enum CapPeriod: String, Sendable, CaseIterable {
    /// Calendar month.
    case month
    /// Calendar quarter.
    case quarter
    /// Calendar year.
    case year
    /// The card's statement cycle (the wallet gives the statement day).
    case statement
    /// The card-membership year from the anniversary date (the wallet gives it).
    case anniversary
}

/// A limit on the spending that earns a group's rate in each period.
public struct RewardCap: Sendable {
    /// Spending (in the card's currency) that earns the group's rate per period.
    public var amount: Located<Decimal>
    /// When the cap resets.
    public var period: CapPeriod
    /// The rate's figure for spending beyond the cap, in the group's unit (`1` for 1x or 1%);
    /// zero when nothing is earned beyond it.
    public var after: Decimal

    /// Creates a cap.
    public init(amount: Located<Decimal>, period: CapPeriod, after: Decimal) {
        self.amount = amount
        self.period = period
        self.after = after
    }
}

/// The bonus categories and merchants of one calendar quarter, for rotating groups.
public struct RotatingQuarter: Sendable {
    /// `2026-Q1`.
    public var quarter: Located<String>
    /// Categories or subcategories of the quarter.
    public var categories: [Located<String>] = []
    /// Merchants of the quarter, matched by name.
    public var merchants: [Located<String>] = []

    /// Creates a quarter.
    public init(quarter: Located<String>) {
        self.quarter = quarter
    }
}

/// One row of a card's reward table: what it covers, what it earns, its cap and conditions.
public struct RewardGroup: Sendable {
    /// Stable id within the card (`groceries`); `<card>.<group>` across cards.
    public var id: Located<String>
    /// What the group is, for people.
    public var description: String?
    /// Categories or subcategories covered.
    public var categories: [Located<String>] = []
    /// Merchant names covered (matched case-insensitively as a word sequence of the merchant).
    public var merchants: [Located<String>] = []
    /// Merchant category codes covered (four digits).
    public var mccs: [Located<String>] = []
    /// Categories excluded even when covered.
    public var excludeCategories: [Located<String>] = []
    /// Merchants excluded even when covered (`Walmart` from supermarkets).
    public var excludeMerchants: [Located<String>] = []
    /// MCCs excluded even when covered.
    public var excludeMCCs: [Located<String>] = []
    /// What the group earns.
    public var rate: Located<RewardRate>?
    /// A spending cap per period, with the rate after it.
    public var cap: RewardCap?
    /// First day the group applies (ISO date), inclusive.
    public var activeFrom: Located<String>?
    /// Last day the group applies (ISO date), inclusive.
    public var activeUntil: Located<String>?
    /// Rotating quarterly categories: the group covers the quarter's categories and merchants.
    public var quarters: [RotatingQuarter] = []
    /// Whether the group rotates by quarter (it covers nothing in a quarter it does not list).
    public var isRotating = false
    /// Whether the cardholder must activate each quarter (rotating groups).
    public var requiresActivation = false
    /// Only purchases made online.
    public var onlineOnly = false
    /// Only purchases of at least this amount (card currency).
    public var minimumSpend: Decimal?
    /// Chooses between groups of one card that cover the same purchase: the higher wins.
    public var priority: Int?
    /// Where the group starts.
    public var location: SourceLocation

    /// Creates a group.
    public init(id: Located<String>, location: SourceLocation) {
        self.id = id
        self.location = location
    }

    /// Whether the group names nothing it covers: it covers every purchase its conditions allow.
    public var coversEverything: Bool {
        categories.isEmpty && merchants.isEmpty && mccs.isEmpty && quarters.isEmpty && !isRotating
    }

    /// A catch-all row: it covers every purchase, with no condition.
    public var isCatchAll: Bool {
        coversEverything && !onlineOnly
            && minimumSpend == nil && activeFrom == nil && activeUntil == nil
    }
}

/// A reward program's valuation (`rules/points.yaml`).
public struct PointProgram: Sendable {
    /// Program id (`amex-mr`).
    public var id: Located<String>
    /// Display name, also the point type shown to users (`Membership Rewards points`).
    public var name: String?
    /// The value of one point in hundredths of `currency` (cents, paise).
    public var centsPerPoint: Located<Decimal>?
    /// ISO 4217 currency the value is in; nil for currency-neutral cash back.
    public var currency: String?
    /// Why the value is what it is, and where it comes from.
    public var basis: String?

    /// Creates a program.
    public init(id: Located<String>) {
        self.id = id
    }
}
