import Foundation
import SpendlexEngine
import SpendlexRules

/// Payments that repeat: subscriptions, bills, rent, a salary. Found from the ledger alone, from
/// merchant, amount and cadence, with no list of known subscriptions:
///
/// 1. Transactions are grouped by merchant (its letters, case and punctuation folded: "NETFLIX.COM"
///    and "Netflix" are one), currency and direction; declined payments and transfers between the
///    person's own accounts are left out, and so are duplicates.
/// 2. A group (or, when it is not regular as a whole, each run of its transactions with like
///    amounts: Amazon Prime among Amazon shopping) repeats when the gaps between its payments are
///    a cadence (weekly, fortnightly, monthly, quarterly, yearly) or whole multiples of it (a
///    skipped month is a gap of two), within a tolerance for day shifts (a weekend, a short
///    month), and its amount holds steady: each payment within `amountTolerance` of the one before,
///    or a step to a new price that then holds (a price rise).
/// 3. Three payments at least, two for a yearly cadence (a year of mail holds one or two).
///
/// Each recurring payment gives its cadence, typical (latest) amount, last and next expected
/// date, its price changes and the occurrences it missed, with the transactions as citations.
public struct RecurringPayments: Sendable {
    /// How often a payment repeats.
    public enum Cadence: String, Sendable, CaseIterable, Comparable {
        case weekly, fortnightly, monthly, quarterly, yearly

        /// The gap between two payments, in days, and the slack a gap may have either way.
        var days: (typical: Int, slack: Int) {
            switch self {
            case .weekly: (7, 1)
            case .fortnightly: (14, 2)
            case .monthly: (30, 4)       // 28 to 34: February, a weekend either side
            case .quarterly: (91, 8)
            case .yearly: (365, 12)
            }
        }

        /// Calendar months per period, for the ones that keep a day of the month.
        var months: Int? {
            switch self {
            case .monthly: 1
            case .quarterly: 3
            case .yearly: 12
            case .weekly, .fortnightly: nil
            }
        }

        /// How many periods a gap of `days` is (1: the next payment, 2: one missed, ...); nil
        /// when it is no whole number of periods within the slack (a slack that grows with the
        /// number of periods, as day shifts add up).
        func periods(in days: Int) -> Int? {
            let (typical, slack) = self.days
            let count = Int((Double(days) / Double(typical)).rounded())
            guard count >= 1, count <= 6, abs(days - count * typical) <= slack * count else { return nil }
            return count
        }

        public static func < (lhs: Cadence, rhs: Cadence) -> Bool { lhs.days.typical < rhs.days.typical }
    }

    /// A price change: the amount from one payment to the next.
    public struct PriceChange: Sendable, Equatable {
        /// The date of the first payment at the new price.
        public var date: LocalDate
        public var from: Decimal
        public var to: Decimal
    }

    /// One recurring payment.
    public struct Payment: Sendable, Equatable {
        /// The merchant as the latest transaction names it.
        public var merchant: String
        public var currency: String
        /// Debit: a subscription or a bill; credit: a salary, a refund that repeats.
        public var direction: Direction
        public var cadence: Cadence
        /// The latest amount (what the next payment will most likely be).
        public var amount: Decimal
        /// The category of the latest transaction, when it has one.
        public var category: String?
        public var first: LocalDate
        public var last: LocalDate
        /// When the next payment is due: a calendar period after the last (the same day of the
        /// month, clamped to the month's length), or a week or two for those cadences.
        public var next: LocalDate
        /// The price changes, in time order.
        public var priceChanges: [PriceChange]
        /// The dates when a payment was due and none came (gaps of two periods or more).
        public var missed: [LocalDate]
        /// The transactions, in time order (ledger ids).
        public var transactions: [Int64]
        /// Whether it still runs: its next payment is not overdue by more than a period's slack
        /// at `asOf` (a cancelled subscription stops).
        public var active: Bool
    }

    /// Every recurring payment found, the active ones first, each group by merchant.
    public var payments: [Payment]
    /// The day the ledger's latest transaction is dated: what "overdue" is measured against.
    public var asOf: LocalDate?

    /// How far a payment may differ from the one before and still be the same payment: 3%.
    public static let amountTolerance: Decimal = 0.03
    /// A new price holds when the next payments keep it; more changes than this share of the
    /// payments, and the amounts are shopping, not a price.
    static let maxChangeShare = 0.25

    /// Recurring payments among `transactions` (a ledger's, in any order).
    public init(transactions: [StoredTransaction]) {
        let own = OwnTransfers.pairs(transactions)
        var groups: [String: [StoredTransaction]] = [:]
        for t in transactions where t.duplicateOf == nil && own[t.id] == nil {
            guard let merchant = t.merchant, let key = Self.merchantKey(merchant), let currency = t.currency,
                  let direction = t.direction, let amount = t.amount, amount > 0, t.date != nil,
                  t.kind != .declined, t.kind != .cardPayment else { continue }
            groups["\(key)\u{1F}\(currency)\u{1F}\(direction.rawValue)", default: []].append(t)
        }
        let latest = transactions.compactMap(\.date).max()
        asOf = latest
        var found: [Payment] = []
        for key in groups.keys.sorted() {
            let group = groups[key]!.sorted(by: Self.earlier)
            if let payment = Self.recurring(group, asOf: latest) {
                found.append(payment)
                continue
            }
            // Not regular as a whole: the payments of one amount in it (a subscription among
            // shopping), then runs of like amounts; one price after another is one payment whose
            // price changed.
            var inGroup: [Payment] = []
            var taken = Set<Int64>()
            for run in Self.sameAmounts(group) + Self.likeAmounts(group) where run.count < group.count {
                guard !run.contains(where: { taken.contains($0.id) }), let payment = Self.recurring(run, asOf: latest) else { continue }
                taken.formUnion(payment.transactions)
                inGroup.append(payment)
            }
            found += Self.joiningPriceSteps(inGroup, asOf: latest)
        }
        payments = found.sorted { a, b in
            if a.active != b.active { return a.active }
            if a.merchant != b.merchant { return a.merchant < b.merchant }
            return a.cadence < b.cadence
        }
    }

    /// The merchant's letters and digits, upper case, accents folded, a web address's ending and
    /// a payment processor's prefix dropped ("NETFLIX.COM" and "Netflix" are "NETFLIX"); nil
    /// when nothing is left.
    static func merchantKey(_ merchant: String) -> String? {
        var text = merchant.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).uppercased()
        for ending in [".COM", ".IN", ".NET", ".CO", ".ORG", ".IO"] where text.hasSuffix(ending) { text.removeLast(ending.count) }
        if let star = text.firstIndex(of: "*"), text.distance(from: text.startIndex, to: star) <= 4 {
            text = String(text[text.index(after: star)...])  // "PYU*NETFLIX", "DL*SPOTIFY": the processor's prefix
        }
        let kept = text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
        return kept.isEmpty ? nil : String(String.UnicodeScalarView(kept))
    }

    static func earlier(_ a: StoredTransaction, _ b: StoredTransaction) -> Bool {
        if a.date != b.date { return a.date! < b.date! }
        return a.id < b.id
    }

    /// The transactions of each amount that two or more have, in time order each.
    static func sameAmounts(_ group: [StoredTransaction]) -> [[StoredTransaction]] {
        Dictionary(grouping: group) { $0.amount! }.values.filter { $0.count >= 2 }
            .map { $0.sorted(by: earlier) }.sorted { earlier($0[0], $1[0]) }
    }

    /// `payments` (of one merchant) with each one that starts a period after another of the same
    /// cadence ends joined to it, as a price change: 649 a month until May, 799 from June.
    static func joiningPriceSteps(_ payments: [Payment], asOf: LocalDate?) -> [Payment] {
        var joined: [Payment] = []
        for payment in payments.sorted(by: { $0.first < $1.first }) {
            if let index = joined.firstIndex(where: { earlier in
                earlier.cadence == payment.cadence && earlier.last < payment.first
                    && earlier.cadence.periods(in: payment.first.daysSinceEpoch - earlier.last.daysSinceEpoch) == 1
            }) {
                var merged = joined[index]
                merged.priceChanges += [PriceChange(date: payment.first, from: merged.amount, to: payment.amount)] + payment.priceChanges
                merged.missed += payment.missed
                merged.transactions += payment.transactions
                merged.amount = payment.amount
                merged.category = payment.category ?? merged.category
                merged.merchant = payment.merchant
                merged.last = payment.last
                merged.next = payment.next
                merged.active = payment.active
                joined[index] = merged
            } else {
                joined.append(payment)
            }
        }
        return joined
    }

    /// Runs of transactions whose amounts are alike (within the tolerance of the run's first),
    /// in time order each; only runs of two or more.
    static func likeAmounts(_ group: [StoredTransaction]) -> [[StoredTransaction]] {
        let byAmount = group.sorted { $0.amount! < $1.amount! }
        var runs: [[StoredTransaction]] = []
        var current: [StoredTransaction] = []
        for t in byAmount {
            if let base = current.first?.amount, t.amount! - base > base * amountTolerance {
                runs.append(current)
                current = []
            }
            current.append(t)
        }
        runs.append(current)
        return runs.filter { $0.count >= 2 }.map { $0.sorted(by: earlier) }
    }

    /// `group` (time order) as a recurring payment, or nil when it is not one.
    static func recurring(_ group: [StoredTransaction], asOf: LocalDate?) -> Payment? {
        guard group.count >= 2 else { return nil }
        let dates = group.map { $0.date! }
        // Two payments the same day are one payment told twice, or two purchases: not a cadence.
        let gaps = zip(dates, dates.dropFirst()).map { $1.daysSinceEpoch - $0.daysSinceEpoch }
        guard !gaps.contains(0) else { return nil }
        // The shortest cadence that every gap is a whole number of periods of, most of them one
        // period: a payment skipped now and then is a missed occurrence, but payments a month
        // apart are not weekly with three missed each.
        guard let cadence = Cadence.allCases.first(where: { cadence in
            let periods = gaps.map(cadence.periods(in:))
            return !periods.contains(nil) && periods.filter { $0 == 1 }.count * 2 > periods.count
        }) else { return nil }
        let periods = gaps.map { cadence.periods(in: $0)! }
        // A year of mail holds one or two yearly payments; a short cadence needs more to be told
        // from shopping that happens to fall a week apart.
        let needed = switch cadence {
        case .yearly: 2
        case .monthly, .quarterly: 3
        case .weekly, .fortnightly: 4
        }
        guard group.count >= needed else { return nil }

        // The amount holds, or steps to a new price that then holds.
        var changes: [PriceChange] = []
        for (previous, next) in zip(group, group.dropFirst()) {
            let (a, b) = (previous.amount!, next.amount!)
            guard abs(b - a) > a * amountTolerance else { continue }
            changes.append(PriceChange(date: next.date!, from: a, to: b))
        }
        guard Double(changes.count) <= max(1, Double(group.count) * maxChangeShare) else { return nil }
        // A price that changed back and forth is shopping: each change must hold for the next payment.
        for (index, change) in changes.enumerated() where index + 1 < changes.count {
            if changes[index + 1].to == change.from { return nil }
        }

        var missed: [LocalDate] = []
        for (index, count) in periods.enumerated() where count > 1 {
            for skipped in 1..<count { missed.append(step(dates[index], cadence, times: skipped)) }
        }
        let last = dates.last!
        let next = step(last, cadence, times: 1)
        let active = asOf.map { next.daysSinceEpoch + cadence.days.slack >= $0.daysSinceEpoch } ?? true
        let latest = group.last!
        return Payment(merchant: latest.merchant ?? "", currency: latest.currency ?? "", direction: latest.direction!,
                       cadence: cadence, amount: latest.amount!, category: latest.category, first: dates.first!, last: last,
                       next: next, priceChanges: changes, missed: missed, transactions: group.map(\.id), active: active)
    }

    /// `times` periods after `date`: calendar months keep the day of the month (clamped: 31 Jan
    /// and a month is 28 or 29 Feb), weeks are days.
    static func step(_ date: LocalDate, _ cadence: Cadence, times: Int) -> LocalDate {
        guard let months = cadence.months else {
            return date.adding(days: cadence.days.typical * times) ?? date
        }
        let total = date.year * 12 + (date.month - 1) + months * times
        let (year, month) = (total / 12, total % 12 + 1)
        return LocalDate(year: year, month: month, day: min(date.day, LocalDate.daysInMonth(month, year: year))) ?? date
    }
}
