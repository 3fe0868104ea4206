import Foundation
import SpendlexRules

/// Card reward files and program valuations, ready to evaluate purchases: for one card, every
/// reward row with whether it applies and why (a decision table with the collect policy).
public struct RewardTable: Sendable {
    /// Cards by id.
    public let cards: [String: CardRules]
    /// Program valuations by id.
    public let programs: [String: PointProgram]
    /// The declared categories.
    public let categories: CategoryList

    /// A table of these cards and programs.
    public init(cards: [CardRules], programs: [PointProgram], categories: CategoryList = .standard) {
        self.cards = Dictionary(cards.map { ($0.id.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.programs = Dictionary(programs.map { ($0.id.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.categories = categories
    }

    /// A table of a loaded rule set's cards and points files.
    public init(_ ruleSet: RuleSet, categories: CategoryList = .standard) {
        self.init(cards: ruleSet.cards, programs: ruleSet.pointPrograms, categories: categories)
    }

    /// Cents (hundredths of the program's currency) one point is worth: the user's own value,
    /// else the points file's, else 1.
    public func centsPerPoint(_ program: String?, overrides: [String: Decimal] = [:]) -> Decimal {
        guard let program else { return 1 }
        return overrides[program] ?? programs[program]?.centsPerPoint?.value ?? 1
    }

    /// What a card's points are called (`Membership Rewards points`, `cash back`).
    public func pointType(of card: CardRules) -> String {
        guard let program = card.program?.value else { return "points" }
        return programs[program]?.name ?? program
    }

    /// How one reward row relates to a purchase.
    public enum RowStatus: Sendable, Equatable {
        /// The row earns on the purchase; `match` says what it matched.
        case applies(match: String)
        /// The purchase is not what the row covers.
        case notCovered
        /// The row covers the purchase but excludes it (`merchant Walmart`).
        case excluded(String)
        /// Outside the row's active window, or no rotating categories this quarter.
        case inactive(String)
        /// A rotating quarter covers the purchase but the user has not activated it.
        case notActivated(quarter: String)
        /// A condition is not met (online only, minimum spend).
        case conditionNotMet(String)
    }

    /// One row against one purchase.
    public struct RowMatch: Sendable {
        /// The row.
        public let group: RewardGroup
        /// Whether and why it applies.
        public let status: RowStatus
        /// Whether the row covers the category the user said, though the purchase codes otherwise.
        public let coversStatedCategory: Bool
    }

    /// Every row of `card` against `purchase` on `date`; `activated` lists the quarters the user activated.
    public func rows(of card: CardRules, for purchase: Purchase, on date: LocalDate, activated: [String]) -> [RowMatch] {
        card.rewards.map { group in
            RowMatch(group: group, status: status(of: group, for: purchase, on: date, activated: activated),
                     coversStatedCategory: coversStated(group, purchase, on: date))
        }
    }

    func status(of group: RewardGroup, for purchase: Purchase, on date: LocalDate, activated: [String]) -> RowStatus {
        let day = date.description
        if let from = group.activeFrom?.value, day < from { return .inactive("starts \(from)") }
        if let until = group.activeUntil?.value, day > until { return .inactive("ended \(until)") }
        var match: String? = group.coversEverything ? "every purchase" : nil
        var rotatingQuarter: String?
        if group.isRotating {
            guard let quarter = group.quarters.first(where: { $0.quarter.value == date.quarterID }) else {
                return .inactive("no rotating categories known for \(date.quarterID)")
            }
            match = covers(categories: quarter.categories, merchants: quarter.merchants, mccs: [], purchase)
            rotatingQuarter = quarter.quarter.value
        }
        if match == nil { match = covers(categories: group.categories, merchants: group.merchants, mccs: group.mccs, purchase) }
        guard let match else { return .notCovered }
        if let excluded = covers(categories: group.excludeCategories, merchants: group.excludeMerchants,
                                 mccs: group.excludeMCCs, purchase) {
            return .excluded(excluded)
        }
        if group.onlineOnly, !purchase.online { return .conditionNotMet("online purchases only") }
        if let minimum = group.minimumSpend, let amount = purchase.amount, amount < minimum {
            return .conditionNotMet("purchases of at least \(minimum) only")
        }
        if let rotatingQuarter, group.requiresActivation, !activated.contains(rotatingQuarter) {
            return .notActivated(quarter: rotatingQuarter)
        }
        return .applies(match: match)
    }

    /// What of the purchase a list covers (`category Groceries`, `merchant Amazon`, `MCC 5411`), or nil.
    func covers(categories names: [Located<String>], merchants: [Located<String>], mccs: [Located<String>],
                _ purchase: Purchase) -> String? {
        if let category = purchase.category,
           let name = names.first(where: { categories.covers($0.value, category: category, subcategory: purchase.subcategory) }) {
            return "category \(categories.resolve(name.value) ?? name.value)"
        }
        if let merchant = purchase.merchant, let name = merchants.first(where: { Self.merchant(merchant, isNamed: $0.value) }) {
            return "merchant \(name.value)"
        }
        if let mcc = purchase.mcc, mccs.contains(where: { $0.value == mcc }) { return "MCC \(mcc)" }
        return nil
    }

    private func coversStated(_ group: RewardGroup, _ purchase: Purchase, on date: LocalDate) -> Bool {
        guard let stated = purchase.statedCategory, stated != purchase.subcategory, stated != purchase.category else { return false }
        let parent = categories.parent(of: stated) ?? stated
        let subcategory = categories.parent(of: stated) == nil ? nil : stated
        var lists = [group.categories]
        if let quarter = group.quarters.first(where: { $0.quarter.value == date.quarterID }) { lists.append(quarter.categories) }
        return lists.contains { $0.contains { categories.covers($0.value, category: parent, subcategory: subcategory) } }
    }

    /// Whether a merchant's name contains `name` as a run of whole words, ignoring case and punctuation.
    static func merchant(_ merchant: String, isNamed name: String) -> Bool {
        let text = " " + KeywordCategoryResolver.normalized(merchant) + " "
        return text.contains(" " + KeywordCategoryResolver.normalized(name) + " ")
    }
}
