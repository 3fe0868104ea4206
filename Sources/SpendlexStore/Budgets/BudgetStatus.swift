import Foundation
import SpendlexEngine
import SpendlexRules

/// Where each budget stands on a day: spent in the period that holds the day, left, and the
/// pace against the share of the period gone. `spendlex budget`, the report and GET /budgets
/// all show this, so they agree.
///
/// Spending is counted as the report counts expenses: debits, less refunds and reversals, in the
/// budget's category (and subcategory) and currency, duplicates and transfers between the
/// person's own accounts left out, declined payments too.
public struct BudgetStatus: Sendable, Equatable {
    /// One budget on the day.
    public struct Entry: Sendable, Equatable {
        /// "Food & Dining", "Food & Dining / Restaurants".
        public var name: String
        public var currency: String
        public var period: String
        /// The period's label ("2026-03") and days.
        public var label: String
        public var start: LocalDate
        public var end: LocalDate
        public var limit: Decimal
        /// With rollover, what earlier periods left (negative: overspent) and adds to this one's limit.
        public var carried: Decimal
        public var spent: Decimal
        /// `limit + carried - spent`; negative when over.
        public var left: Decimal { limit + carried - spent }
        /// The share of the period gone on the day, 0...1.
        public var elapsed: Double
        /// The share of the budget (limit and carried) spent, 0... (above 1 when over).
        public var used: Double
        /// The transactions counted (ledger ids).
        public var transactions: [Int64]

        /// Over the budget, ahead of the pace (more used than the period gone, by a tenth), or on track.
        public var state: String {
            if left < 0 { return "over" }
            if used > elapsed + 0.1 { return "ahead of pace" }
            return "on track"
        }
    }

    public var day: LocalDate
    public var entries: [Entry]

    /// Each of `budgets` on `day`, from `transactions` (a ledger's).
    public init(budgets: Budgets, transactions: [StoredTransaction], day: LocalDate) {
        self.day = day
        let own = OwnTransfers.pairs(transactions)
        let counted = transactions.filter { t in
            t.duplicateOf == nil && own[t.id] == nil && t.amount != nil && t.date != nil && t.direction != nil
        }
        entries = budgets.budgets.map { budget in
            let period = ReportPeriod(rawValue: budget.period.rawValue) ?? .month
            let current = period.interval(containing: day)
            let mine = counted.filter { t in
                t.currency == budget.currency && t.category == budget.category.value
                    && (budget.subcategory == nil || t.subcategory == budget.subcategory)
            }
            /// Spending in a period: debits less refunds (declines and card bills move nothing here).
            func spending(_ from: LocalDate, _ to: LocalDate) -> (Decimal, [Int64]) {
                var sum: Decimal = 0
                var ids: [Int64] = []
                for t in mine where t.date! >= from && t.date! <= to {
                    switch MoneyFlow(direction: t.direction!, kind: t.kind) {
                    case .expense: sum += abs(t.amount!)
                    case .refund: sum -= abs(t.amount!)
                    case .income, .transfer, .declined: continue
                    }
                    ids.append(t.id)
                }
                return (sum, ids)
            }
            var carried: Decimal = 0
            if budget.rollover {
                // Every whole period from the start (or the category's first transaction) up to this one.
                let first = budget.start.flatMap(LocalDate.init(iso:)) ?? mine.compactMap(\.date).min()
                if let first, first < current.start {
                    var interval = period.interval(containing: first)
                    while interval.start < current.start {
                        carried += budget.limit - spending(interval.start, interval.end).0
                        guard let next = interval.end.adding(days: 1) else { break }
                        interval = period.interval(containing: next)
                    }
                }
            }
            let (spent, ids) = spending(current.start, current.end)
            let days = Double(current.end.daysSinceEpoch - current.start.daysSinceEpoch + 1)
            let gone = Double(day.daysSinceEpoch - current.start.daysSinceEpoch + 1)
            let budgetTotal = budget.limit + carried
            let used = budgetTotal > 0 ? NSDecimalNumber(decimal: spent / budgetTotal).doubleValue : (spent > 0 ? .infinity : 0)
            return Entry(name: budget.name, currency: budget.currency, period: budget.period.rawValue, label: current.label,
                         start: current.start, end: current.end, limit: budget.limit, carried: carried, spent: spent,
                         elapsed: min(1, max(0, gone / days)), used: used, transactions: ids)
        }
    }

    /// A line per budget: spent of the limit, left, the pace, and a warning when over.
    public func text() -> String {
        guard !entries.isEmpty else { return "no budgets\n" }
        var out = "Budgets on \(day)\n"
        for e in entries {
            let money = { MoneyText.display($0, currency: e.currency) }
            out += "\(e.name) (\(e.period) \(e.label)): spent \(money(e.spent)) of \(money(e.limit + e.carried))"
                + (e.carried != 0 ? " (\(money(e.limit)) and \(money(e.carried)) carried)" : "")
                + ", left \(money(e.left)); \(Self.percent(e.used)) used, \(Self.percent(e.elapsed)) of the \(e.period) gone: \(e.state)\n"
        }
        let over = entries.filter { $0.left < 0 }
        for e in over {
            out += "warning: \(e.name) is over budget by \(MoneyText.display(-e.left, currency: e.currency))\n"
        }
        return out
    }

    static func percent(_ share: Double) -> String {
        share.isFinite ? "\(Int((share * 100).rounded()))%" : "∞"
    }

    /// The JSON form: per budget its period, limit, carried, spent and left (decimal strings),
    /// used and elapsed shares, state and the ledger ids counted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Body(self))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The JSON body (`spendlex budget --format json`, GET /budgets).
    public struct Body: Encodable, Sendable {
        struct EntryBody: Encodable, Sendable {
            let category: String
            let currency: String
            let period: String
            let label: String
            let start: String
            let end: String
            let limit: String
            let carried: String
            let spent: String
            let left: String
            let used: Double?
            let elapsed: Double
            let state: String
            let transactions: [Int64]
        }

        let day: String
        let budgets: [EntryBody]

        public init(_ status: BudgetStatus) {
            day = status.day.description
            budgets = status.entries.map { e in
                EntryBody(category: e.name, currency: e.currency, period: e.period, label: e.label, start: e.start.description,
                          end: e.end.description, limit: "\(e.limit)", carried: "\(e.carried)", spent: "\(e.spent)",
                          left: "\(e.left)", used: e.used.isFinite ? (e.used * 10000).rounded() / 10000 : nil,
                          elapsed: (e.elapsed * 10000).rounded() / 10000, state: e.state, transactions: e.transactions)
            }
        }
    }
}
