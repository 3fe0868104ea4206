import Foundation

/// A declared category and its subcategories: categories are a closed list, and every
/// row of a decision table must name one of them.
public struct CategoryDeclaration: Sendable {
    /// The category's name (`Food & Dining`).
    public var name: Located<String>
    /// Its subcategories (`Groceries`, `Restaurants`), possibly none.
    public var subcategories: [Located<String>]

    /// Creates a declaration.
    public init(name: Located<String>, subcategories: [Located<String>]) {
        self.name = name
        self.subcategories = subcategories
    }
}

/// How a decision table picks its result when several rows match.
public enum HitPolicy: String, Sendable, Hashable, CaseIterable {
    /// At most one row may match; two rows that can both match are an error (`table.overlap`).
    case unique
    /// The first matching row, in file order, decides.
    case first
    /// The matching row with the highest `priority` decides; on a tie, the earlier row.
    case priority
    /// Every matching row contributes: the first one's category, every row's tags.
    case collect
}

/// A decision table: rows of conditions and outputs, applied with a hit policy.
public struct CategoryTable: Sendable {
    /// Stable id (`merchants`).
    public var id: Located<String>
    /// How the result is picked when several rows match.
    public var hitPolicy: Located<HitPolicy>
    /// The rows, in file order.
    public var rows: [CategoryRow]
    /// Where the table's mapping starts.
    public var location: SourceLocation

    /// Creates a table.
    public init(id: Located<String>, hitPolicy: Located<HitPolicy>, rows: [CategoryRow], location: SourceLocation) {
        self.id = id
        self.hitPolicy = hitPolicy
        self.rows = rows
        self.location = location
    }
}

/// One row: conditions (all must hold; an absent condition holds for anything) and outputs.
public struct CategoryRow: Sendable {
    /// Stable id, unique across every table (`food.delivery`).
    public var id: Located<String>
    /// What a transaction must look like for the row to match.
    public var conditions: CategoryConditions
    /// The category this row assigns; optional only in `collect` tables (rows that add tags).
    public var category: Located<String>?
    /// The subcategory, one of the category's declared subcategories.
    public var subcategory: Located<String>?
    /// Free-form tags added to the decision.
    public var tags: [Located<String>]
    /// For the `priority` hit policy: higher wins; 0 when absent.
    public var priority: Located<Int>?
    /// Inputs this row must decide; each one is a test.
    public var examples: [CategoryExample]
    /// What the row says of itself (`description:`), if anything.
    public var description: String?
    /// Where the row's mapping starts.
    public var location: SourceLocation

    /// Creates a row without conditions or outputs.
    public init(id: Located<String>, location: SourceLocation) {
        self.id = id
        self.conditions = CategoryConditions()
        self.tags = []
        self.examples = []
        self.location = location
    }

    /// A row without conditions: it matches anything, and serves as the table's default.
    public var isCatchAll: Bool { conditions.isEmpty }
}

/// The conditions of a row. Each one present must hold; absent ones hold for anything.
public struct CategoryConditions: Sendable {
    /// Merchant keywords and patterns: holds when any of them matches.
    public var merchant: MerchantCondition?
    /// ISO 18245 merchant category codes: holds when the code is in one of the ranges.
    public var mcc: [Located<ClosedRange<Int>>] = []
    /// Amount range.
    public var amount: AmountCondition?
    /// The card or account.
    public var account: AccountCondition?
    /// Debit or credit.
    public var direction: Located<Direction>?
    /// Transaction kinds: holds when the kind is one of them.
    public var kinds: [Located<TransactionKind>] = []
    /// Bank ids: holds when the transaction's bank is one of them.
    public var banks: [Located<String>] = []

    /// Creates empty conditions.
    public init() {}

    /// Whether no condition is set (a catch-all).
    public var isEmpty: Bool {
        merchant == nil && mcc.isEmpty && amount == nil && account == nil && direction == nil
            && kinds.isEmpty && banks.isEmpty
    }
}

/// Merchant names a row recognises.
public struct MerchantCondition: Sendable {
    /// Case-insensitive whole words or phrases (`Uber Eats`). A space, `-`, `.`, `_`, `*` or `/` in a
    /// keyword matches any run of those (or none); an apostrophe is optional.
    public var keywords: [Located<String>]
    /// PCRE2 patterns, searched in the merchant as written (add `(?i)` for any case).
    public var patterns: [PatternText]
    /// Where the condition is written.
    public var location: SourceLocation

    /// Creates a merchant condition.
    public init(keywords: [Located<String>], patterns: [PatternText], location: SourceLocation) {
        self.keywords = keywords
        self.patterns = patterns
        self.location = location
    }
}

/// An amount range: `min` inclusive, `max` exclusive, either may be absent. Exact decimals.
public struct AmountCondition: Sendable {
    /// Lowest amount that matches.
    public var min: Located<Decimal>?
    /// Amounts from this one up do not match.
    public var max: Located<Decimal>?
    /// Where the condition is written.
    public var location: SourceLocation

    /// Creates a range.
    public init(min: Located<Decimal>?, max: Located<Decimal>?, location: SourceLocation) {
        self.min = min
        self.max = max
        self.location = location
    }

    /// Whether `amount` is in the range.
    public func contains(_ amount: Decimal) -> Bool {
        (min.map { amount >= $0.value } ?? true) && (max.map { amount < $0.value } ?? true)
    }
}

/// The card or account a row applies to.
public struct AccountCondition: Sendable {
    /// Last digits: holds when the transaction's are one of them.
    public var last4: [Located<String>]
    /// `card` or `account`.
    public var type: Located<String>?
    /// Where the condition is written.
    public var location: SourceLocation

    /// Creates an account condition.
    public init(last4: [Located<String>], type: Located<String>?, location: SourceLocation) {
        self.last4 = last4
        self.type = type
        self.location = location
    }
}

/// An input a row must decide: a merchant name, optionally with more of the transaction.
public struct CategoryExample: Sendable {
    /// The merchant as a message writes it (`SWIGGY BANGALORE`).
    public var merchant: Located<String>?
    /// Merchant category code.
    public var mcc: Int?
    /// Amount.
    public var amount: Decimal?
    /// Debit or credit.
    public var direction: Direction?
    /// Transaction kind.
    public var kind: TransactionKind?
    /// Bank id.
    public var bank: String?
    /// Last digits of the card or account.
    public var last4: String?
    /// `card` or `account`.
    public var accountType: String?
    /// Where the example is written.
    public var location: SourceLocation

    /// Creates an example.
    public init(location: SourceLocation) {
        self.location = location
    }
}
