import Foundation
import SpendlexRules

/// Spending already made on a card, for caps: the ledger, grouped by category and merchant.
public protocol CardSpendingSource {
    /// Debits on the card with these last four digits, from `start` through `end` (inclusive),
    /// summed by category, subcategory and merchant. Uncategorized spending has a nil category.
    func spending(last4: String, from start: LocalDate, through end: LocalDate) throws -> [SpendingTotal]
}

/// Spending summed over one category, subcategory and merchant.
public struct SpendingTotal: Sendable, Equatable {
    /// The category, nil when uncategorized.
    public var category: String?
    /// The subcategory.
    public var subcategory: String?
    /// The merchant.
    public var merchant: String?
    /// The sum, in the card's currency.
    public var amount: Decimal

    /// Creates a total.
    public init(category: String?, subcategory: String?, merchant: String?, amount: Decimal) {
        self.category = category
        self.subcategory = subcategory
        self.merchant = merchant
        self.amount = amount
    }
}

/// Failures of the advisor that are not findings: nothing to choose from.
public enum AdvisorError: Error, Equatable, CustomStringConvertible {
    /// The wallet holds no card the rules know.
    case emptyWallet

    public var description: String {
        switch self {
        case .emptyWallet: return "the wallet has no cards the card rules know: add cards to the wallet file"
        }
    }
}

/// Chooses the card to pay with: every applicable reward row of every wallet card, each valued
/// as amount × rate × cents per point with the amount split at a cap's remaining room, minus a
/// foreign transaction fee when the purchase's currency is not the card's; ranked by value, ties
/// to the preferred program.
public struct CardAdvisor: Sendable {
    /// The cards and valuations.
    public let table: RewardTable
    /// How merchants and words become categories.
    public let resolver: any PurchaseCategoryResolver

    /// An advisor over `table`.
    public init(table: RewardTable, resolver: any PurchaseCategoryResolver = KeywordCategoryResolver()) {
        self.table = table
        self.resolver = resolver
    }

    /// Resolves a request's category and MCC: an explicit category wins; else how the merchant
    /// usually codes; else the category the words name. The words' category is kept as what the
    /// user said, to warn when the merchant codes otherwise.
    public func resolve(_ request: PurchaseRequest) -> Purchase {
        var purchase = Purchase(merchant: request.merchant, mcc: request.mcc, amount: request.amount,
                                currency: request.currency, online: request.online)
        let fromMerchant = request.merchant.flatMap(resolver.category(forMerchant:))
            ?? (request.merchant == nil ? resolver.merchant(in: request.words) : nil)
        if purchase.merchant == nil, let found = fromMerchant?.merchant { purchase.merchant = found }
        let fromWords = resolver.category(forWords: request.words)
        let explicit = request.category.flatMap { name -> ResolvedCategory? in
            guard let resolved = table.categories.resolve(name) else { return nil }
            let parent = table.categories.parent(of: resolved)
            return ResolvedCategory(category: parent ?? resolved, subcategory: parent == nil ? nil : resolved)
        }
        let stated = explicit ?? fromWords
        let chosen = explicit ?? fromMerchant ?? fromWords
        purchase.category = chosen?.category
        purchase.subcategory = chosen?.subcategory
        purchase.statedCategory = stated.map { $0.subcategory ?? $0.category }
        if purchase.subcategory == "Online" { purchase.online = true }
        if purchase.mcc == nil { purchase.mcc = (explicit == nil ? fromMerchant?.mcc ?? fromWords?.mcc : nil) }
        return purchase
    }

    /// The recommendation for `purchase` made on `date` with a card of `wallet`. Spending so far
    /// comes from `spending` (the ledger) when given, else from the wallet's `spent`.
    public func advise(_ purchase: Purchase, wallet: Wallet, on date: LocalDate,
                       spending: (any CardSpendingSource)? = nil) throws -> Advice {
        let held = wallet.cards.compactMap { card in table.cards[card.card.value].map { (card, $0) } }
        guard !held.isEmpty else { throw AdvisorError.emptyWallet }
        let amountGiven = purchase.amount != nil
        let amount = purchase.amount ?? 100
        var evaluations: [CardEvaluation] = []
        var options: [CardOption] = []
        var warnings: [String] = []
        var suggestions: [String] = []
        let preferences = wallet.preferences

        for (order, (walletCard, card)) in held.enumerated() {
            let name = card.name ?? card.id.value
            let cents = table.centsPerPoint(card.program?.value, overrides: preferences.centsPerPoint)
            let foreign = purchase.currency != nil && card.currency != nil && purchase.currency != card.currency
            let fee = foreign ? amount * (card.foreignTransactionFee ?? 0) / 100 : 0
            var rows: [RowEvaluation] = []
            var best: (option: CardOption, priority: Int)?
            for match in table.rows(of: card, for: purchase, on: date, activated: walletCard.activated) {
                let group = match.group
                guard let rate = group.rate?.value else { continue }
                var row = RowEvaluation(groupID: group.id.value, description: group.description ?? group.id.value,
                                        rate: Self.rateText(rate), status: match.status)
                if case let .notActivated(quarter) = match.status {
                    warnings.append("\(name): the rotating \(Self.rateText(rate)) on \(purchase.categoryLabel) in \(quarter) is not activated; it earns the base rate")
                    suggestions.append("Activate \(quarter) on \(name) to earn \(Self.rateText(rate)) on \(purchase.categoryLabel) (activation counts for the whole quarter).")
                }
                if case let .excluded(what) = match.status, let merchant = purchase.merchant {
                    warnings.append("\(name): '\(group.description ?? group.id.value)' excludes \(what); \(merchant) earns the base rate")
                }
                if match.coversStatedCategory, case .notCovered = match.status, let merchant = purchase.merchant,
                   let stated = purchase.statedCategory {
                    let excluded = table.covers(categories: group.excludeCategories, merchants: group.excludeMerchants,
                                                mccs: group.excludeMCCs, purchase)
                    warnings.append("\(merchant) usually codes as \(purchase.categoryLabel), not \(stated): \(name)'s \(Self.rateText(rate)) on '\(group.description ?? group.id.value)' "
                                    + (excluded.map { "excludes it (\($0))" } ?? "does not apply there"))
                }
                guard case let .applies(matched) = match.status else {
                    rows.append(row)
                    continue
                }
                // Spending so far in this cap period, and the split at the cap's room.
                var spent: Decimal?
                var window: CapPeriodWindow?
                var bonusPart = amount
                if let cap = group.cap {
                    let period = CapPeriodWindow(cap.period, containing: date, statementDay: walletCard.statementDay,
                                                 anniversary: walletCard.anniversary)
                    window = period
                    let soFar = try spentSoFar(group, card: card, walletCard: walletCard, in: period, source: spending)
                    spent = soFar
                    bonusPart = min(amount, max(0, cap.amount.value - soFar))
                }
                let restPart = amount - bonusPart
                let afterRate = group.cap.map { rate.with($0.after) }
                let value = Self.value(of: bonusPart, at: rate, cents: cents)
                    + (afterRate.map { Self.value(of: restPart, at: $0, cents: cents) } ?? 0) - fee
                let points = Self.points(of: bonusPart, at: rate) + (afterRate.map { Self.points(of: restPart, at: $0) } ?? 0)
                let limitReached = group.cap.map { (spent ?? 0) >= $0.amount.value } ?? false
                var why = "\(Self.rateText(rate)) \(table.pointType(of: card))"
                if case .multiplier = rate {
                    let programCurrency = card.program.flatMap { table.programs[$0.value]?.currency } ?? card.currency
                    why += " (\(Self.money(cents / 100, programCurrency, scale: cents < 1 ? 3 : 2)) each)"
                }
                why += " on \(matched)"
                if let cap = group.cap, let afterRate {
                    let room = max(0, cap.amount.value - (spent ?? 0))
                    if limitReached {
                        why += "; the \(Self.money(cap.amount.value, card.currency)) \(cap.period.rawValue) cap is reached, so it earns \(Self.rateText(afterRate))"
                    } else if restPart > 0 {
                        why += "; \(Self.money(bonusPart, purchase.currency ?? card.currency)) fits the cap's remaining \(Self.money(room, card.currency)), the other \(Self.money(restPart, purchase.currency ?? card.currency)) earns \(Self.rateText(afterRate))"
                    } else {
                        why += "; \(Self.money(spent ?? 0, card.currency)) of the \(Self.money(cap.amount.value, card.currency)) \(cap.period.rawValue) cap used"
                    }
                }
                if fee > 0 { why += "; minus a \(Self.plain(card.foreignTransactionFee ?? 0))% foreign transaction fee (\(Self.money(Self.rounded(fee), purchase.currency)))" }
                let option = CardOption(
                    cardID: card.id.value, cardName: name, nickname: walletCard.nickname, walletOrder: order,
                    groupID: group.id.value, category: group.description ?? purchase.categoryLabel,
                    multiplier: (limitReached ? afterRate : rate)?.figure ?? rate.figure,
                    rateText: Self.rateText(limitReached ? afterRate ?? rate : rate),
                    program: card.program?.value, pointType: table.pointType(of: card), points: Self.rounded(points),
                    estimatedValue: Self.rounded(value), currency: purchase.currency ?? card.currency,
                    currentSpending: spent, limit: group.cap?.amount.value, isLimitReached: limitReached,
                    capPeriodEnd: window?.end, foreignFee: Self.rounded(fee), rank: 0, reasoning: why)
                row.value = option.estimatedValue
                row.reasoning = why
                rows.append(row)
                let priority = group.priority ?? 0
                if best == nil || priority > best!.priority
                    || (priority == best!.priority && option.estimatedValue > best!.option.estimatedValue) {
                    best = (option, priority)
                }
            }
            evaluations.append(CardEvaluation(cardID: card.id.value, cardName: name, rows: rows,
                                              chosenGroup: best?.option.groupID))
            if let best { options.append(best.option) }
        }

        options.sort { a, b in
            if a.estimatedValue != b.estimatedValue { return a.estimatedValue > b.estimatedValue }
            let preferred = preferences.preferredProgram
            let aPreferred = a.program != nil && a.program == preferred
            let bPreferred = b.program != nil && b.program == preferred
            if aPreferred != bPreferred { return aPreferred }
            return a.walletOrder < b.walletOrder
        }
        for index in options.indices { options[index].rank = index + 1 }

        // Caps near or at their limit, for the two cards shown.
        for option in options.prefix(2) {
            guard let limit = option.limit, limit > 0, let spent = option.currentSpending else { continue }
            let after = spent + amount
            if spent >= limit {
                warnings.append("\(option.cardName): the \(Self.money(limit, option.currency)) cap on \(option.category) is reached\(option.capPeriodEnd.map { " until \($0)" } ?? "")")
            } else if after / limit >= preferences.alertThreshold {
                let share = Self.rounded(after / limit * 100, scale: 0)
                warnings.append("\(option.cardName): this purchase brings \(option.category) to \(share)% of its \(Self.money(limit, option.currency)) cap (\(Self.money(after, option.currency)))")
            }
        }
        // Acceptance.
        if let primary = options.first, let network = table.cards[primary.cardID]?.network?.value {
            if let merchant = purchase.merchant, let accepted = Self.acceptedNetworks(at: merchant), !accepted.contains(network) {
                warnings.append("\(merchant) may not accept \(Self.networkName(network)) (it takes \(accepted.map(Self.networkName).joined(separator: ", "))): have \(options.dropFirst().first?.cardName ?? "another card") ready")
            } else if purchase.currency != nil, purchase.currency != table.cards[primary.cardID]?.currency,
                      ["amex", "discover", "rupay", "diners"].contains(network) {
                warnings.append("\(Self.networkName(network)) is accepted at fewer merchants abroad than Visa or Mastercard")
            }
        }
        if let primary = options.first, primary.foreignFee > 0 {
            suggestions.append("\(primary.cardName) charges a foreign transaction fee; a card without one would keep \(Self.money(primary.foreignFee, primary.currency)).")
        }
        if let primary = options.first, primary.isLimitReached, let end = primary.capPeriodEnd {
            suggestions.append("\(primary.cardName)'s bonus on \(primary.category) comes back after \(end).")
        }
        if !amountGiven {
            suggestions.append("No amount given: values are for \(Self.money(100, options.first?.currency)).")
        }

        var reasoning = ""
        if let primary = options.first {
            reasoning = "\(primary.cardName) earns the most on \(purchase.merchant.map { "\(purchase.categoryLabel) at \($0)" } ?? purchase.categoryLabel): \(primary.reasoning), about \(Self.money(primary.estimatedValue, primary.currency))"
            if let second = options.dropFirst().first {
                reasoning += "; \(second.cardName) is next with \(Self.money(second.estimatedValue, second.currency))"
                if second.estimatedValue == primary.estimatedValue, let program = preferences.preferredProgram,
                   primary.program == program {
                    reasoning += " (a tie, broken by your preferred program \(program))"
                }
            }
            reasoning += "."
        }
        return Advice(purchase: purchase, date: date, amountGiven: amountGiven, options: options,
                      evaluations: evaluations, reasoning: reasoning, warnings: Self.unique(warnings),
                      suggestions: Self.unique(suggestions))
    }

    /// Spending on the card in this group's cap period: the ledger's totals that the group covers,
    /// else what the wallet says. A correction set by hand for a day of this period replaces
    /// everything up to that day; the ledger's totals after it are added.
    func spentSoFar(_ group: RewardGroup, card: CardRules, walletCard: WalletCard, in window: CapPeriodWindow,
                    source: (any CardSpendingSource)?) throws -> Decimal {
        if let correction = walletCard.spentCorrections[group.id.value],
           let day = LocalDate(year: correction.asOf.year, month: correction.asOf.month, day: correction.asOf.day),
           day >= window.start, day <= window.end {
            guard let source, let last4 = walletCard.last4, let next = day.adding(days: 1), next <= window.end else {
                return correction.amount
            }
            return correction.amount + (try ledgerSpent(group, last4: last4, from: next, in: window, source: source))
        }
        guard let source, let last4 = walletCard.last4 else { return walletCard.spent[group.id.value]?.value ?? 0 }
        return try ledgerSpent(group, last4: last4, from: window.start, in: window, source: source)
    }

    /// The ledger's spending on the card from `start` to the window's end that the group covers.
    private func ledgerSpent(_ group: RewardGroup, last4: String, from start: LocalDate, in window: CapPeriodWindow,
                             source: any CardSpendingSource) throws -> Decimal {
        let totals = try source.spending(last4: last4, from: start, through: window.end)
        return totals.reduce(Decimal(0)) { sum, total in
            if group.coversEverything { return sum + total.amount }
            let purchase = Purchase(merchant: total.merchant, category: total.category ?? "Uncategorized",
                                    subcategory: total.subcategory)
            let lists = [(group.categories, group.merchants)] + group.quarters
                .filter { $0.quarter.value == window.start.quarterID }.map { ($0.categories, $0.merchants) }
            let covered = lists.contains { table.covers(categories: $0.0, merchants: $0.1, mccs: [], purchase) != nil }
            let excluded = table.covers(categories: group.excludeCategories, merchants: group.excludeMerchants, mccs: [], purchase) != nil
            return covered && !excluded ? sum + total.amount : sum
        }
    }

    // MARK: - Arithmetic and wording

    /// Value in the purchase's currency units of `amount` earned at `rate`.
    static func value(of amount: Decimal, at rate: RewardRate, cents: Decimal) -> Decimal {
        switch rate {
        case let .multiplier(figure, per): return amount / per * figure * cents / 100
        case let .percent(figure): return amount * figure / 100
        }
    }

    /// Points earned (cash back counts in currency units).
    static func points(of amount: Decimal, at rate: RewardRate) -> Decimal {
        switch rate {
        case let .multiplier(figure, per): return amount / per * figure
        case let .percent(figure): return amount * figure / 100
        }
    }

    static func rateText(_ rate: RewardRate) -> String {
        switch rate {
        case let .multiplier(figure, per): return per == 1 ? "\(plain(figure))x" : "\(plain(figure)) per \(plain(per))"
        case let .percent(figure): return "\(plain(figure))%"
        }
    }

    static func rounded(_ value: Decimal, scale: Int = 2) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, scale, .plain)
        return output
    }

    static func plain(_ value: Decimal) -> String { "\(value)" }

    /// `$12.00`, `₹1,500.00` style, always two decimals; no grouping.
    static func money(_ value: Decimal, _ currency: String?, scale: Int = 2) -> String {
        let text = twoDecimals(value < 0 ? -value : value, scale: scale)
        let sign = value < 0 ? "-" : ""
        switch currency {
        case "USD", nil: return sign + "$" + text
        case "INR": return sign + "₹" + text
        case "EUR": return sign + "€" + text
        case "GBP": return sign + "£" + text
        case let code?: return "\(sign)\(code) \(text)"
        }
    }

    /// Two decimals, thousands grouped with commas: `25,000.00`.
    static func twoDecimals(_ value: Decimal, scale: Int = 2) -> String {
        let text = "\(rounded(value, scale: scale))"
        let negative = text.hasPrefix("-")
        let parts = (negative ? String(text.dropFirst()) : text).split(separator: ".", omittingEmptySubsequences: false)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole = String(whole.dropLast(3))
        }
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let padded = fraction.count >= 2 ? fraction : String((fraction + "00").prefix(2))
        return (negative ? "-" : "") + whole + grouped + "." + padded
    }

    static func networkName(_ network: String) -> String {
        ["visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover",
         "rupay": "RuPay", "diners": "Diners Club"][network] ?? network
    }

    /// Networks a merchant is known to take, when it restricts them (Costco's U.S. warehouses take only Visa).
    static func acceptedNetworks(at merchant: String) -> [String]? {
        if RewardTable.merchant(merchant, isNamed: "costco") { return ["visa"] }
        return nil
    }

    static func unique(_ lines: [String]) -> [String] {
        var seen = Set<String>()
        return lines.filter { seen.insert($0).inserted }
    }
}
