import Foundation

/// A person's budgets file (`budgets.yaml`, beside their own rules): a spending limit per
/// category (or subcategory), currency and period, optionally rolling over what a period left
/// unspent (or overspent) into the next.
public struct Budgets: Sendable {
    /// How long a budget's period is.
    public enum Period: String, Sendable, CaseIterable {
        case week, month, quarter, year
    }

    /// One budget.
    public struct Budget: Sendable {
        /// The category it limits (`Food & Dining`).
        public var category: Located<String>
        /// Its subcategory, when it limits one only (`Restaurants`).
        public var subcategory: String?
        /// The limit per period, exact.
        public var limit: Decimal
        /// ISO 4217; the budget counts spending in this currency only.
        public var currency: String
        public var period: Period
        /// Whether a period's unspent (or overspent) amount carries into the next.
        public var rollover: Bool
        /// The day (yyyy-mm-dd) whose period is the first it counts (rollover adds up from there);
        /// nil: from the ledger's first transaction in the category.
        public var start: String?
        /// Where it is written.
        public var location: SourceLocation

        /// "Food & Dining", or "Food & Dining / Restaurants".
        public var name: String { subcategory.map { "\(category.value) / \($0)" } ?? category.value }
    }

    public var budgets: [Budget] = []
    /// Where the file starts.
    public var location: SourceLocation

    public init(location: SourceLocation) {
        self.location = location
    }
}
