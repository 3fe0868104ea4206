import Foundation
import SpendlexEngine
import SpendlexMeaning
import SpendlexRules

/// The answer to a `Question`: the figure in words, the figures per currency (never added
/// across currencies), the query that was run, and the transactions it counted, as citations.
public struct Answer: Sendable {
    /// One currency's figure.
    public struct Figure: Sendable, Equatable {
        public var currency: String
        public var amount: Decimal
    }

    /// One row of a breakdown: a month's income and spending, or one of the biggest purchases.
    public struct Row: Sendable, Equatable {
        public var label: String
        public var currency: String
        public var values: [Decimal]
    }

    public var question: Question
    /// "You spent 1,234.50 INR on Groceries from 2026-03-01 to 2026-03-31 (4 transactions)."
    public var text: String
    /// The totals per currency (spending, income), or empty for a breakdown.
    public var figures: [Figure]
    /// The count, for `count`.
    public var count: Int?
    /// Month rows (`incomeVsSpending`: income, spending, net) or purchases (`biggest`: amount).
    public var rows: [Row]
    /// The query that was run, in words and filters.
    public var query: String
    /// The ledger ids of the transactions counted.
    public var citations: [Int64]
    /// The merchants of the transactions counted, with how many of them each, most first.
    public var merchants: [(name: String, transactions: Int)] = []
    /// How a phrase that names no merchant was read by meaning, when it was.
    public var reading: MeaningReading?
    /// Why a phrase that names no merchant was not read by meaning (no model), when it was not.
    public var notice: String?
}

extension Ledger {
    /// Answers `question` from the ledger's primaries (duplicates are never counted twice). A
    /// merchant phrase that no merchant's name holds ("cab rides", "gym") is read by meaning with
    /// `embedder` (`readByMeaning`): a category the nearest merchants share, or those merchants.
    public func answer(_ question: Question, embedder: TextEmbedder? = nil) throws -> Answer {
        let all = try transactions(TransactionQuery(from: question.from, to: question.to))
        var merchantWords = question.merchant.map { QuestionReader.tokens($0) } ?? []
        var reading: MeaningReading?
        var notice: String?
        if let phrase = question.merchant, !merchantWords.isEmpty, try !namesAMerchant(merchantWords) {
            if question.merchantIsAName {
                notice = "no merchant's name holds \"\(phrase)\", written as a name: names are found by their letters, not by meaning"
            } else if let embedder {
                let direction: Direction? = switch question.intent {
                case .spending, .biggest: .debit
                case .income: .credit
                case .count, .incomeVsSpending: nil
                }
                reading = try readByMeaning(phrase, direction: direction, embedder: embedder)
            } else {
                notice = "no merchant's name holds \"\(phrase)\"; it would be read by meaning with the embedding model "
                    + "(not installed: scripts/dev model)"
            }
        }
        // What the reading took, when a meaning stood out; else the phrase's words, which no merchant holds.
        let taken = reading?.stoodOut == true ? reading : nil
        let categories = question.category ?? taken?.category
        let meantMerchants = Set(taken?.merchants ?? [])
        if taken != nil { merchantWords = [] }
        func matches(_ t: StoredTransaction) -> Bool {
            if let categories, t.category != categories && t.subcategory != categories { return false }
            if !meantMerchants.isEmpty, !meantMerchants.contains(t.merchant ?? "") { return false }
            if !merchantWords.isEmpty {
                let merchant = QuestionReader.tokens(t.merchant ?? "").joined(separator: " ")
                guard merchantWords.allSatisfy({ merchant.contains($0) }) else { return false }
            }
            return true
        }
        let selected = all.filter(matches)
        // Both sides of a transfer between own accounts are transfers, wherever the other side falls.
        let own = OwnTransfers.pairs(try transactions(TransactionQuery(
            from: question.from.flatMap { $0.adding(days: -3) }, to: question.to.flatMap { $0.adding(days: 3) })))
        func flow(_ t: StoredTransaction) -> MoneyFlow? { MoneyFlow(t, ownTransfers: own) }

        var filters: [String] = []
        switch (question.from, question.to) {
        case let (from?, to?): filters.append("date from \(from) to \(to)")
        case let (from?, nil): filters.append("date from \(from)")
        case let (nil, to?): filters.append("date to \(to)")
        case (nil, nil): filters.append("every date")
        }
        let meant = taken.map { " (read by meaning from \"\($0.phrase)\")" } ?? ""
        if let categories { filters.append("category or subcategory \(categories)" + (question.category == nil ? meant : "")) }
        if !meantMerchants.isEmpty {
            filters.append("merchant one of " + (taken?.merchants ?? []).map { "\"\($0)\"" }.joined(separator: ", ") + meant)
        } else if let merchant = question.merchant, taken == nil {
            filters.append("merchant containing \"\(merchant)\"" + (reading != nil ? " (no merchant's meaning stood out)" : ""))
        }
        filters.append("duplicates left out")
        let period = Self.period(question)
        let at = !meantMerchants.isEmpty ? (taken?.merchants ?? []).joined(separator: " or ") : taken == nil ? question.merchant : nil
        let what = [categories.map { "on \($0)" }, at.map { "at \($0)" }].compactMap { $0 }.joined(separator: " ")
        var answer = try answer(question, selected: selected, flow: flow, filters: filters, period: period, what: what)
        answer.reading = reading
        answer.notice = notice
        var counts: [String: Int] = [:]
        let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in answer.citations { if let merchant = byID[id]?.merchant { counts[merchant, default: 0] += 1 } }
        answer.merchants = counts.map { (name: $0.key, transactions: $0.value) }
            .sorted { $0.transactions != $1.transactions ? $0.transactions > $1.transactions : $0.name < $1.name }
        return answer
    }

    /// The answer of `question`'s intent over `selected`.
    private func answer(_ question: Question, selected: [StoredTransaction], flow: (StoredTransaction) -> MoneyFlow?,
                        filters: [String], period: String, what: String) throws -> Answer {

        switch question.intent {
        case .spending, .income:
            let spending = question.intent == .spending
            var sums: [String: Decimal] = [:]
            var cited: [Int64] = []
            for t in selected {
                guard let amount = t.amount, let currency = t.currency, let flow = flow(t) else { continue }
                switch (spending, flow) {
                case (true, .expense): sums[currency, default: 0] += amount
                case (true, .refund): sums[currency, default: 0] -= amount
                case (false, .income): sums[currency, default: 0] += amount
                default: continue
                }
                cited.append(t.id)
            }
            let figures = sums.keys.sorted().map { Answer.Figure(currency: $0, amount: sums[$0]!) }
            let money = figures.isEmpty ? "nothing" : figures.map { "\(Self.money($0.amount)) \($0.currency)" }.joined(separator: " and ")
            let verb = spending ? "You spent" : "You received"
            let text = "\(verb) \(money)\(what.isEmpty ? "" : " " + what) \(period) (\(cited.count) transaction\(cited.count == 1 ? "" : "s"))."
            let rule = spending ? "debits (spending) less refunds and reversals, per currency" : "credits that are income (not refunds), per currency"
            return Answer(question: question, text: text, figures: figures, count: nil, rows: [],
                          query: "sum of \(rule); " + filters.joined(separator: "; "), citations: cited)
        case .count:
            let counted = selected.filter { flow($0) != .declined }
            let text = "\(counted.count) transaction\(counted.count == 1 ? "" : "s")\(what.isEmpty ? "" : " " + what) \(period)."
            return Answer(question: question, text: text, figures: [], count: counted.count, rows: [],
                          query: "count of transactions that moved money; " + filters.joined(separator: "; "),
                          citations: counted.map(\.id))
        case .biggest:
            // The biggest of each currency: amounts in two currencies are not compared.
            let purchases = Dictionary(grouping: selected.filter { flow($0) == .expense && $0.amount != nil && $0.currency != nil },
                                       by: { $0.currency! })
                .sorted { $0.key < $1.key }
                .flatMap { _, list in list.sorted { ($0.amount!, $1.id) > ($1.amount!, $0.id) }.prefix(question.limit) }
            let rows = purchases.map { t in
                Answer.Row(label: "\(t.date?.description ?? "-") \(t.merchant ?? "-")", currency: t.currency!, values: [t.amount!])
            }
            var text = "Your biggest purchases\(what.isEmpty ? "" : " " + what) \(period), at most \(question.limit) per currency:"
            if rows.isEmpty { text = "No purchase\(what.isEmpty ? "" : " " + what) \(period)." }
            for row in rows { text += "\n  \(Self.money(row.values[0])) \(row.currency)  \(row.label)" }
            return Answer(question: question, text: text, figures: [], count: nil, rows: rows,
                          query: "debits (spending) ordered by amount, largest first, at most \(question.limit) per currency; "
                              + filters.joined(separator: "; "),
                          citations: purchases.map(\.id))
        case .incomeVsSpending:
            struct Month { var income: Decimal = 0; var spending: Decimal = 0 }
            var months: [String: [String: Month]] = [:]
            var cited: [Int64] = []
            for t in selected {
                guard let amount = t.amount, let currency = t.currency, let date = t.date, let flow = flow(t) else { continue }
                let key = String(date.description.prefix(7))
                var month = months[key, default: [:]][currency, default: Month()]
                switch flow {
                case .income: month.income += amount
                case .expense: month.spending += amount
                case .refund: month.spending -= amount
                case .transfer, .declined: continue
                }
                months[key, default: [:]][currency] = month
                cited.append(t.id)
            }
            var rows: [Answer.Row] = []
            for key in months.keys.sorted() {
                for currency in months[key]!.keys.sorted() {
                    let month = months[key]![currency]!
                    rows.append(Answer.Row(label: key, currency: currency, values: [month.income, month.spending, month.income - month.spending]))
                }
            }
            var text = "Income and spending by month \(period):"
            if rows.isEmpty { text = "No income or spending \(period)." }
            for row in rows {
                text += "\n  \(row.label)  income \(Self.money(row.values[0])) \(row.currency), spending \(Self.money(row.values[1])) "
                    + "\(row.currency), net \(Self.money(row.values[2])) \(row.currency)"
            }
            return Answer(question: question, text: text, figures: [], count: nil, rows: rows,
                          query: "per month and currency: income (credits that are not refunds), spending (debits less refunds "
                              + "and reversals), net; transfers between own accounts and declines left out; " + filters.joined(separator: "; "),
                          citations: cited)
        }
    }

    static func period(_ q: Question) -> String {
        switch (q.from, q.to) {
        case let (from?, to?) where from == to: return "on \(from)"
        case let (from?, to?): return "from \(from) to \(to)"
        case let (from?, nil): return "since \(from)"
        case let (nil, to?): return "until \(to)"
        case (nil, nil): return "in all the ledger holds"
        }
    }

    /// "1,234.50": thousands grouped, two decimals at least.
    static func money(_ amount: Decimal) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.numberStyle = .decimal
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        formatter.groupingSize = 3
        formatter.minimumFractionDigits = 2
        formatter.maximumFractionDigits = 4
        return formatter.string(from: amount as NSDecimalNumber) ?? "\(amount)"
    }
}
