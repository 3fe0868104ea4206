import Foundation
import SpendlexEngine
import SpendlexRules

/// Income, spending and their breakdowns, per period and per currency: currencies are never
/// added together, and nothing is converted. Built from primaries only, so a purchase
/// reported by SMS and by email counts once.
///
/// Income is money in that is not spending given back; expenses are debits less refunds and
/// reversals; net is income less expenses; transfers between the user's own accounts (card
/// bills paid) are neither, but are counted and show in the per-account totals; declined
/// payments moved no money and are in no total but their own. See `MoneyFlow`.
public struct LedgerReport: Sendable, Equatable {
    /// How time is split.
    public var period: ReportPeriod
    /// The first day asked for, if any.
    public var from: LocalDate?
    /// The last day asked for, if any.
    public var to: LocalDate?
    /// Every period with transactions, in order.
    public var periods: [Section]
    /// The whole range, all periods together.
    public var total: Section
    /// Transactions left out: no amount, currency, date or direction.
    public var leftOut: Int
    /// The payments that repeat among the range's transactions (`RecurringPayments`).
    public var recurring: [RecurringPayments.Payment] = []
    /// Where the person's budgets stand on the range's last day, when they have budgets
    /// (`BudgetStatus`, over the whole ledger, set by the caller).
    public var budgets: BudgetStatus?

    /// A span of days: one period, or the whole range.
    public struct Section: Sendable, Equatable {
        /// "2026-05", "2026-W18", "2026-Q2", "2026", or "total".
        public var label: String
        /// The first day (clipped to the range asked for); nil for an empty total.
        public var start: LocalDate?
        /// The last day (clipped to the range asked for).
        public var end: LocalDate?
        /// One entry per currency, by code.
        public var currencies: [CurrencyTotals]
    }

    /// Everything about one currency in one section.
    public struct CurrencyTotals: Sendable, Equatable {
        /// ISO 4217 code.
        public var currency: String
        /// Money in, refunds excepted.
        public var income: Decimal = 0
        /// Debits less refunds and reversals.
        public var expenses: Decimal = 0
        /// Income less expenses.
        public var net: Decimal { income - expenses }
        /// Moved between the user's own accounts (card bills paid), either side: in no other total.
        public var transfers: Decimal = 0
        /// Asked for and declined: no money moved, in no other total (nor an account's).
        public var declined: Decimal = 0
        /// Transactions, of every flow.
        public var count = 0
        /// Spending by category, largest first; each with its subcategories.
        public var categories: [CategoryTotal] = []
        /// Where most was spent, largest first.
        public var merchants: [NamedTotal] = []
        /// Each day with transactions, in order.
        public var days: [DayTotal] = []
        /// Each card or account: money in and out (transfers included).
        public var accounts: [AccountTotal] = []

        /// Totals of `currency`, all zero.
        public init(currency: String) {
            self.currency = currency
        }
    }

    /// Spending under one name (refunds subtracted) and how many transactions.
    public struct NamedTotal: Sendable, Equatable {
        /// The category, subcategory or merchant.
        public var name: String
        /// Spending, refunds subtracted.
        public var amount: Decimal
        /// Transactions.
        public var count: Int
    }

    /// A category's spending and its subcategories' ("(none)" for the part without one).
    public struct CategoryTotal: Sendable, Equatable {
        /// The category and its totals.
        public var total: NamedTotal
        /// Its subcategories, largest first; empty when none was assigned.
        public var subcategories: [NamedTotal]
    }

    /// One day's income and expenses.
    public struct DayTotal: Sendable, Equatable {
        /// The day.
        public var date: LocalDate
        /// Money in, refunds excepted.
        public var income: Decimal
        /// Debits less refunds.
        public var expenses: Decimal
    }

    /// One card's or account's money in and out.
    public struct AccountTotal: Sendable, Equatable {
        /// "hdfc card 0000", "icici account 000", or the bank alone when no account was named.
        public var name: String
        /// Credits.
        public var moneyIn: Decimal
        /// Debits.
        public var moneyOut: Decimal
        /// Transactions.
        public var count: Int
    }

    /// The report of `transactions` (primaries, as `Ledger.transactions()` returns them), split
    /// by `period`, with at most `topMerchants` merchants per currency.
    public init(transactions: [StoredTransaction], period: ReportPeriod, from: LocalDate? = nil, to: LocalDate? = nil,
                topMerchants: Int = 10) {
        self.period = period
        self.from = from
        self.to = to
        var usable: [(StoredTransaction, Decimal, String, LocalDate, Direction)] = []
        var leftOut = 0
        for t in transactions {
            guard let amount = t.amount, let currency = t.currency, let date = t.date, let direction = t.direction
            else {
                leftOut += 1
                continue
            }
            if let from, date < from { continue }
            if let to, to < date { continue }
            usable.append((t, abs(amount), currency, date, direction))
        }
        self.leftOut = leftOut

        // Both sides of a transfer between the person's own accounts are transfers.
        let own = OwnTransfers.pairs(transactions)
        var builders: [String: SectionBuilder] = [:]
        var order: [String] = []
        var total = SectionBuilder(label: "total", start: nil, end: nil)
        for (t, amount, currency, date, direction) in usable {
            let interval = period.interval(containing: date)
            if builders[interval.label] == nil {
                order.append(interval.label)
                builders[interval.label] = SectionBuilder(label: interval.label, start: Self.later(interval.start, from),
                                                          end: Self.earlier(interval.end, to))
            }
            let ownTransfer = own[t.id] != nil
            builders[interval.label]!.add(t, amount: amount, currency: currency, date: date, direction: direction,
                                          ownTransfer: ownTransfer)
            total.add(t, amount: amount, currency: currency, date: date, direction: direction, ownTransfer: ownTransfer)
            total.start = Swift.min(total.start ?? date, date)
            total.end = Swift.max(total.end ?? date, date)
        }
        total.start = from ?? total.start
        total.end = to ?? total.end
        periods = order.sorted { builders[$0]!.start! < builders[$1]!.start! }
            .map { builders[$0]!.section(topMerchants: topMerchants) }
        self.total = total.section(topMerchants: topMerchants)
        recurring = RecurringPayments(transactions: usable.map(\.0)).payments
    }

    private static func later(_ a: LocalDate, _ b: LocalDate?) -> LocalDate { b.map { Swift.max(a, $0) } ?? a }
    private static func earlier(_ a: LocalDate, _ b: LocalDate?) -> LocalDate { b.map { Swift.min(a, $0) } ?? a }
}

/// Sums one section, currency by currency, before sorting.
private struct SectionBuilder {
    let label: String
    var start: LocalDate?
    var end: LocalDate?
    var currencies: [String: CurrencyBuilder] = [:]

    init(label: String, start: LocalDate?, end: LocalDate?) {
        self.label = label
        self.start = start
        self.end = end
    }

    mutating func add(_ t: StoredTransaction, amount: Decimal, currency: String, date: LocalDate, direction: Direction,
                      ownTransfer: Bool) {
        currencies[currency, default: CurrencyBuilder(currency: currency)]
            .add(t, amount: amount, date: date, direction: direction, ownTransfer: ownTransfer)
    }

    func section(topMerchants: Int) -> LedgerReport.Section {
        LedgerReport.Section(label: label, start: start, end: end,
                             currencies: currencies.keys.sorted().map { currencies[$0]!.totals(topMerchants: topMerchants) })
    }
}

private struct CurrencyBuilder {
    var totals: LedgerReport.CurrencyTotals
    var categories: [String: (amount: Decimal, count: Int, subcategories: [String: (Decimal, Int)])] = [:]
    var merchants: [String: (Decimal, Int)] = [:]
    var days: [LocalDate: (income: Decimal, expenses: Decimal)] = [:]
    var accounts: [String: (moneyIn: Decimal, moneyOut: Decimal, count: Int)] = [:]

    static let noSubcategory = "(none)"
    static let noMerchant = "(no merchant)"

    init(currency: String) {
        totals = LedgerReport.CurrencyTotals(currency: currency)
    }

    mutating func add(_ t: StoredTransaction, amount: Decimal, date: LocalDate, direction: Direction, ownTransfer: Bool) {
        totals.count += 1
        let kindFlow = MoneyFlow(direction: direction, kind: t.kind)
        let flow = ownTransfer && kindFlow != .declined ? .transfer : kindFlow
        if flow == .declined {
            totals.declined += amount
            return
        }
        let account = t.account.map { "\(t.bank) \($0.type) \($0.last4)" } ?? t.bank
        var perAccount = accounts[account, default: (0, 0, 0)]
        perAccount.count += 1
        if direction == .debit { perAccount.moneyOut += amount } else { perAccount.moneyIn += amount }
        accounts[account] = perAccount

        // Spending, signed: refunds and reversals take it back.
        let spent: Decimal
        switch flow {
        case .declined: return
        case .transfer:
            totals.transfers += amount
            return
        case .income:
            totals.income += amount
            days[date, default: (0, 0)].income += amount
            return
        case .expense: spent = amount
        case .refund: spent = -amount
        }
        totals.expenses += spent
        days[date, default: (0, 0)].expenses += spent
        var category = categories[t.categoryName, default: (0, 0, [:])]
        category.amount += spent
        category.count += 1
        if t.category != nil {
            let name = t.subcategory.flatMap { $0.isEmpty ? nil : $0 } ?? Self.noSubcategory
            let sub = category.subcategories[name, default: (0, 0)]
            category.subcategories[name] = (sub.0 + spent, sub.1 + 1)
        }
        categories[t.categoryName] = category
        let merchant = t.merchant.flatMap { $0.isEmpty ? nil : $0 } ?? Self.noMerchant
        let seen = merchants[merchant, default: (0, 0)]
        merchants[merchant] = (seen.0 + spent, seen.1 + 1)
    }

    func totals(topMerchants: Int) -> LedgerReport.CurrencyTotals {
        var result = totals
        result.categories = categories.map { name, value in
            let subcategories = value.subcategories.map { LedgerReport.NamedTotal(name: $0.key, amount: $0.value.0, count: $0.value.1) }
            // A category whose only part has no subcategory lists none.
            let shown = subcategories.count == 1 && subcategories[0].name == Self.noSubcategory ? [] : subcategories
            return LedgerReport.CategoryTotal(total: LedgerReport.NamedTotal(name: name, amount: value.amount, count: value.count),
                                              subcategories: shown.sorted(by: Self.largestFirst))
        }.sorted { Self.largestFirst($0.total, $1.total) }
        result.merchants = Array(merchants.map { LedgerReport.NamedTotal(name: $0.key, amount: $0.value.0, count: $0.value.1) }
            .sorted(by: Self.largestFirst).prefix(max(0, topMerchants)))
        result.days = days.keys.sorted().map { LedgerReport.DayTotal(date: $0, income: days[$0]!.income, expenses: days[$0]!.expenses) }
        result.accounts = accounts.keys.sorted().map {
            LedgerReport.AccountTotal(name: $0, moneyIn: accounts[$0]!.moneyIn, moneyOut: accounts[$0]!.moneyOut,
                                      count: accounts[$0]!.count)
        }
        return result
    }

    /// Largest amount first; ties by name, so the order never depends on hashing.
    static func largestFirst(_ a: LedgerReport.NamedTotal, _ b: LedgerReport.NamedTotal) -> Bool {
        a.amount != b.amount ? a.amount > b.amount : a.name < b.name
    }
}
