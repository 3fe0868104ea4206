import Foundation

/// One card's best reward row for a purchase, valued: what phone apps show as a recommendation.
public struct CardOption: Sendable, Equatable {
    /// The card file's id.
    public var cardID: String
    /// The card's display name.
    public var cardName: String
    /// The user's nickname for it.
    public var nickname: String?
    /// Position in the wallet file (0-based), the last tie-breaker.
    public var walletOrder: Int
    /// The reward group that decided.
    public var groupID: String
    /// What the row covers, for people (`U.S. supermarkets`).
    public var category: String
    /// The rate's figure: the multiplier (4 for 4x) or the percentage (5 for 5%).
    public var multiplier: Decimal
    /// The rate as text: `4x`, `5%`, `4 points per 150`.
    public var rateText: String
    /// The reward program id.
    public var program: String?
    /// What the points are called.
    public var pointType: String
    /// Points earned (cash back: currency units).
    public var points: Decimal
    /// The value of the reward minus fees, in `currency`, rounded to cents.
    public var estimatedValue: Decimal
    /// The purchase's currency (else the card's).
    public var currency: String?
    /// Spending so far in the row's cap period (nil without a cap).
    public var currentSpending: Decimal?
    /// The cap (nil without one).
    public var limit: Decimal?
    /// Whether the cap was already reached before this purchase.
    public var isLimitReached: Bool
    /// The last day of the cap period.
    public var capPeriodEnd: LocalDate?
    /// The foreign transaction fee subtracted.
    public var foreignFee: Decimal
    /// 1 for the best card.
    public var rank: Int
    /// Why this value, in one sentence.
    public var reasoning: String
}

/// One reward row of one card, as `recommend --explain` shows it.
public struct RowEvaluation: Sendable {
    /// The group id.
    public var groupID: String
    /// What it covers.
    public var description: String
    /// Its rate as text.
    public var rate: String
    /// Whether and why it applies.
    public var status: RewardTable.RowStatus
    /// Its value when it applies.
    public var value: Decimal?
    /// How the value was found.
    public var reasoning: String?

    init(groupID: String, description: String, rate: String, status: RewardTable.RowStatus) {
        self.groupID = groupID
        self.description = description
        self.rate = rate
        self.status = status
    }
}

/// Every row of one card.
public struct CardEvaluation: Sendable {
    /// The card id.
    public var cardID: String
    /// Its name.
    public var cardName: String
    /// Its rows in file order.
    public var rows: [RowEvaluation]
    /// The row that decided the card's value (highest priority, then value).
    public var chosenGroup: String?
}

/// The advisor's answer: ranked options, reasons, warnings and suggestions.
public struct Advice: Sendable {
    /// The purchase as resolved.
    public var purchase: Purchase
    /// The day of the purchase.
    public var date: LocalDate
    /// Whether the user gave an amount (else values are per 100).
    public var amountGiven: Bool
    /// Every card that earns something, best first.
    public var options: [CardOption]
    /// Every card's rows, for explaining.
    public var evaluations: [CardEvaluation]
    /// Why the first card wins.
    public var reasoning: String
    /// Caps near or at their limit, activation missing, merchants coding elsewhere, acceptance.
    public var warnings: [String]
    /// What to do to earn more.
    public var suggestions: [String]

    /// The best card.
    public var primary: CardOption? { options.first }
    /// The runner-up.
    public var secondary: CardOption? { options.dropFirst().first }
}

/// Renders advice for people (text, explain) and for phone apps (JSON).
public enum AdviceWriter {
    /// A few lines: the best card, the runner-up, warnings, suggestions.
    public static func text(_ advice: Advice) -> String {
        var out = "Purchase: \(describe(advice.purchase)) on \(advice.date)\n"
        if let primary = advice.primary {
            out += "1. \(label(primary)): \(primary.rateText) \(primary.pointType) on \(primary.category), about \(CardAdvisor.money(primary.estimatedValue, primary.currency))\n"
            out += "   \(primary.reasoning)\n"
        } else {
            out += "No card in the wallet earns anything on this purchase.\n"
        }
        if let secondary = advice.secondary {
            out += "2. \(label(secondary)): \(secondary.rateText) \(secondary.pointType) on \(secondary.category), about \(CardAdvisor.money(secondary.estimatedValue, secondary.currency))\n"
            out += "   \(secondary.reasoning)\n"
        }
        for warning in advice.warnings { out += "warning: \(warning)\n" }
        for suggestion in advice.suggestions { out += "suggestion: \(suggestion)\n" }
        return out
    }

    /// Every card's every row: applies or not and why, values, the winner and the losers.
    public static func explain(_ advice: Advice) -> String {
        var out = "Purchase: \(describe(advice.purchase)) on \(advice.date)\n"
        let ranks = Dictionary(advice.options.map { ($0.cardID, $0) }, uniquingKeysWith: { a, _ in a })
        for evaluation in advice.evaluations {
            let option = ranks[evaluation.cardID]
            let place = option.map { $0.rank == 1 ? "winner" : "rank \($0.rank)" } ?? "earns nothing"
            out += "\n\(evaluation.cardName) (\(evaluation.cardID)): \(place)"
            if let option { out += ", \(CardAdvisor.money(option.estimatedValue, option.currency)) from '\(option.groupID)'" }
            out += "\n"
            for row in evaluation.rows {
                let mark = row.groupID == evaluation.chosenGroup ? "*" : " "
                out += "  \(mark) \(row.groupID.padding(toLength: 18, withPad: " ", startingAt: 0)) \(row.rate.padding(toLength: 8, withPad: " ", startingAt: 0)) "
                switch row.status {
                case let .applies(match):
                    out += "applies (\(match)): \(CardAdvisor.money(row.value ?? 0, option?.currency ?? advice.purchase.currency))"
                    if let reasoning = row.reasoning { out += " — \(reasoning)" }
                case .notCovered: out += "does not cover \(advice.purchase.categoryLabel)"
                case let .excluded(what): out += "excluded: \(what)"
                case let .inactive(why): out += "inactive: \(why)"
                case let .notActivated(quarter): out += "not activated for \(quarter)"
                case let .conditionNotMet(why): out += "condition not met: \(why)"
                }
                out += "\n"
            }
        }
        if let primary = advice.primary {
            out += "\nWinner: \(primary.cardName). " + advice.reasoning + "\n"
            for loser in advice.options.dropFirst() {
                let gap = primary.estimatedValue - loser.estimatedValue
                out += "  \(loser.cardName) loses by \(CardAdvisor.money(gap, loser.currency))"
                out += gap == 0 ? " (a tie broken by preferred program, then wallet order)\n" : "\n"
            }
        }
        for warning in advice.warnings { out += "warning: \(warning)\n" }
        for suggestion in advice.suggestions { out += "suggestion: \(suggestion)\n" }
        return out
    }

    /// The JSON phone apps of this kind expect: `primaryRecommendation`, `secondaryRecommendation`,
    /// `reasoning`, `warnings`, `suggestions`. Money is written as JSON numbers from exact decimals.
    public static func json(_ advice: Advice) -> String {
        let purchase = advice.purchase
        var fields: [(String, String)] = [
            ("purchase", object([
                ("merchant", string(purchase.merchant)), ("category", string(purchase.category)),
                ("subcategory", string(purchase.subcategory)), ("statedCategory", string(purchase.statedCategory)),
                ("mcc", string(purchase.mcc)), ("amount", number(purchase.amount)),
                ("currency", string(purchase.currency)), ("online", purchase.online ? "true" : "false"),
                ("date", string(advice.date.description)),
            ])),
            ("primaryRecommendation", advice.primary.map(recommendation) ?? "null"),
            ("secondaryRecommendation", advice.secondary.map(recommendation) ?? "null"),
            ("reasoning", string(advice.reasoning)),
            ("warnings", "[" + advice.warnings.map { string($0) }.joined(separator: ",") + "]"),
            ("suggestions", "[" + advice.suggestions.map { string($0) }.joined(separator: ",") + "]"),
        ]
        fields.append(("alternatives", "[" + advice.options.dropFirst(2).map(recommendation).joined(separator: ",") + "]"))
        return object(fields) + "\n"
    }

    static func recommendation(_ option: CardOption) -> String {
        object([
            ("cardId", string(option.cardID)), ("cardName", string(option.cardName)),
            ("nickname", string(option.nickname)), ("category", string(option.category)),
            ("multiplier", number(option.multiplier)), ("rate", string(option.rateText)),
            ("pointType", string(option.pointType)), ("points", number(option.points)),
            ("estimatedValue", number(option.estimatedValue)), ("currency", string(option.currency)),
            ("currentSpending", number(option.currentSpending)), ("limit", number(option.limit)),
            ("isLimitReached", option.isLimitReached ? "true" : "false"), ("rank", "\(option.rank)"),
            ("reasoning", string(option.reasoning)),
        ])
    }

    static func describe(_ purchase: Purchase) -> String {
        var text = purchase.categoryLabel
        if let merchant = purchase.merchant { text += " at \(merchant)" }
        if let amount = purchase.amount { text += ", \(CardAdvisor.money(amount, purchase.currency))" }
        if let mcc = purchase.mcc { text += " (MCC \(mcc))" }
        if purchase.online { text += ", online" }
        return text
    }

    static func label(_ option: CardOption) -> String {
        option.nickname.map { "\(option.cardName) (\($0))" } ?? option.cardName
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Decimal?) -> String {
        guard let value else { return "null" }
        return "\(value)"
    }

    /// A JSON string literal (or `null`), escaped as every JSON output of Spendlex is.
    static func string(_ value: String?) -> String {
        guard let value else { return "null" }
        var out = ByteWriter(capacity: value.utf8.count + 2)
        defer { out.deallocate() }
        JSONObjectWriter.appendString(value, to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
