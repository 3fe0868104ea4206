import Foundation
import PCRE2
import SpendlexRules

/// What the decision tables made of a transaction.
public struct CategoryDecision: Sendable, Equatable {
    /// The category; nil only when no table decided and none has a catch-all.
    public var category: String?
    /// The subcategory, when the deciding row gives one.
    public var subcategory: String?
    /// Tags from every table's deciding rows, in table and row order, without repeats.
    public var tags: [String]
    /// The table that decided the category.
    public var table: String?
    /// The deciding row ids: one, or several under `collect` (or an overlapping `unique` table).
    public var rows: [String]
    /// Why: for each deciding row, the conditions that held (`merchant keyword 'Swiggy' matched "SWIGGY"`).
    public var reasons: [String]
    /// Whether a catch-all row decided: nothing more specific matched.
    public var isDefault: Bool

    /// Creates a decision.
    public init(category: String?, subcategory: String?, tags: [String] = [], table: String?, rows: [String],
                reasons: [String] = [], isDefault: Bool = false) {
        self.category = category
        self.subcategory = subcategory
        self.tags = tags
        self.table = table
        self.rows = rows
        self.reasons = reasons
        self.isDefault = isDefault
    }
}

/// Categorizes transactions with the decision tables of the categories files.
///
/// Tables are applied in file order. The category comes from the first table that decides by
/// a row with conditions (a merchant table before an MCC table, say); when none does, from the
/// first table's catch-all row. Tags come from every table. Immutable and `Sendable`; matching
/// uses the caller's per-thread `MatchScratch`.
public final class Categorizer: Sendable {
    /// The tables, in order.
    public let tables: [DecisionTable]
    /// The declared categories.
    public let categories: [CategoryDeclaration]
    /// Tables after which some table still adds tags (index of the last one with tags).
    private let lastTableWithTags: Int

    /// Compiles the rule set's tables; diagnostics are appended for patterns PCRE2 refuses.
    init(ruleSet: RuleSet, diagnostics: inout [Diagnostic]) {
        tables = ruleSet.categoryTables.map { DecisionTable($0, diagnostics: &diagnostics) }
        categories = ruleSet.categories
        lastTableWithTags = tables.lastIndex { $0.hasTags } ?? -1
    }

    /// Number of rows over all tables.
    public var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }

    /// Categorizes one transaction, with the reasons for the decision.
    public func categorize(_ input: CategoryInput, scratch: MatchScratch) -> CategoryDecision {
        decide(input, scratch: scratch, explaining: true)
    }

    /// Categorizes one transaction. A convenience for one-off calls: it makes a `MatchScratch`
    /// each time; loops should keep one and call `categorize(_:scratch:)`.
    public func categorize(merchant: String?, mcc: Int? = nil, amount: Decimal? = nil, direction: Direction? = nil,
                           kind: TransactionKind? = nil, bank: String? = nil,
                           account: (type: String?, last4: String?)? = nil) -> CategoryDecision {
        categorize(CategoryInput(merchant: merchant, mcc: mcc, amount: amount, direction: direction, kind: kind,
                                 bank: bank, last4: account?.last4, accountType: account?.type),
                   scratch: MatchScratch())
    }

    /// Category and subcategory only: what the engine stores on every transaction.
    func categoryOutput(_ input: CategoryInput, scratch: MatchScratch) -> (category: String?, subcategory: String?, row: String?) {
        for table in tables {
            switch table.evaluate(input, scratch: scratch) {
            case .row(let index):
                let row = table.rows[index]
                if let category = row.category { return (category, row.subcategory, row.id) }
            case .rows(let indices):
                if let row = indices.lazy.map({ table.rows[$0] }).first(where: { $0.category != nil }) {
                    return (row.category, row.subcategory, row.id)
                }
            case .none, .catchAll: continue
            }
        }
        let fallback = tables.lazy.compactMap { table in table.catchAll.map { table.rows[$0] } }.first
        return (fallback?.category, fallback?.subcategory, fallback?.id)
    }

    func decide(_ input: CategoryInput, scratch: MatchScratch, explaining: Bool) -> CategoryDecision {
        var decision: CategoryDecision?
        var fallback: CategoryDecision?
        var tags: [String] = []
        for (tableIndex, table) in tables.enumerated() {
            if decision != nil && tableIndex > lastTableWithTags { break }
            var merchantHits: [Int: (MerchantMatcher.Hit, Range<Int>)] = [:]
            let hit = table.evaluate(input, scratch: scratch, found: explaining ? { found, range in
                if merchantHits[found.row] == nil { merchantHits[found.row] = (found, range) }
            } : nil)
            let indices = hit.indices
            if case .catchAll(let index) = hit {
                if fallback == nil { fallback = Self.decision(table, [index], input, [:], explaining, isDefault: true) }
                continue
            }
            for index in indices { tags += table.rows[index].tags }
            if decision == nil, indices.contains(where: { table.rows[$0].category != nil }) {
                decision = Self.decision(table, indices, input, merchantHits, explaining, isDefault: false)
            }
        }
        if fallback == nil, decision == nil, let table = tables.first(where: { $0.catchAll != nil }) {
            fallback = Self.decision(table, [table.catchAll!], input, [:], explaining, isDefault: true)
        }
        var result = decision ?? fallback ?? CategoryDecision(category: nil, subcategory: nil, table: nil, rows: [])
        var seen: Set<String> = []
        result.tags = tags.filter { seen.insert($0).inserted }
        return result
    }

    private static func decision(_ table: DecisionTable, _ indices: [Int], _ input: CategoryInput,
                                 _ merchantHits: [Int: (MerchantMatcher.Hit, Range<Int>)], _ explaining: Bool,
                                 isDefault: Bool) -> CategoryDecision {
        let first = indices.lazy.map { table.rows[$0] }.first { $0.category != nil } ?? table.rows[indices[0]]
        var reasons: [String] = []
        if explaining {
            for index in indices {
                let row = table.rows[index]
                reasons.append("\(row.id): " + reasonsText(row, input: input, merchantHit: merchantHits[index]))
            }
        }
        return CategoryDecision(category: first.category, subcategory: first.subcategory, table: table.id,
                                rows: indices.map { table.rows[$0].id }, reasons: reasons, isDefault: isDefault)
    }

    /// The conditions of a row that held for the input, in words.
    static func reasonsText(_ row: CompiledRow, input: CategoryInput,
                            merchantHit: (MerchantMatcher.Hit, Range<Int>)?) -> String {
        if row.isCatchAll { return "no other row matched (catch-all)" }
        var parts: [String] = []
        let conditions = row.rule.conditions
        if let (hit, range) = merchantHit, let merchant = conditions.merchant, let text = input.merchant {
            let matched = text.utf8Slice(range)
            parts.append(hit.isPattern
                ? "merchant pattern '\(merchant.patterns[hit.index].value)' matched \"\(matched)\""
                : "merchant keyword '\(merchant.keywords[hit.index].value)' matched \"\(matched)\"")
        }
        if let code = input.mcc, !row.mcc.isEmpty { parts.append("mcc \(code) in \(Self.describe(row.mcc))") }
        if let amount = conditions.amount, let value = input.amount {
            let low = amount.min.map { "\($0.value) <= " } ?? ""
            let high = amount.max.map { " < \($0.value)" } ?? ""
            parts.append("amount \(low)\(value)\(high)")
        }
        if let direction = row.direction { parts.append("direction \(direction.rawValue)") }
        if let kind = input.kind, !row.kinds.isEmpty { parts.append("kind \(kind.rawValue)") }
        if let bank = input.bank, !row.banks.isEmpty { parts.append("bank \(bank)") }
        if let digits = input.last4, !row.last4.isEmpty { parts.append("account last4 \(digits)") }
        if let type = row.accountType { parts.append("account type \(type)") }
        return parts.joined(separator: ", ")
    }

    static func describe(_ ranges: [ClosedRange<Int>]) -> String {
        ranges.map { $0.count == 1 ? String(format: "%04d", $0.lowerBound)
            : String(format: "%04d-%04d", $0.lowerBound, $0.upperBound) }.joined(separator: ", ")
    }
}
