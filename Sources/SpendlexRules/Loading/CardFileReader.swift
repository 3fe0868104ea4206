import Foundation
import Yams

/// Reads a card reward file (`rules/cards/<card>.yaml`) into `CardRules`, and a points file
/// (`rules/points.yaml`) into `PointProgram`s. The accepted keys of each mapping are listed
/// here and in `grammars/spendlex-rules.schema.json`; keep the two in step.
enum CardFileReader {
    static let cardKeys = ["card", "id", "description", "issuer", "network", "country", "currency", "program",
                           "annual_fee", "foreign_transaction_fee", "as_of", "source", "rewards"]
    static let groupKeys = ["id", "description", "categories", "merchants", "mccs", "exclude", "multiplier", "per",
                            "percent", "cap", "active", "rotating", "online_only", "minimum_spend", "priority"]
    static let excludeKeys = ["categories", "merchants", "mccs"]
    static let capKeys = ["amount", "period", "after"]
    static let activeKeys = ["from", "until"]
    static let rotatingKeys = ["activation", "quarters"]
    static let quarterKeys = ["categories", "merchants"]
    static let pointsKeys = ["description", "programs"]
    static let programKeys = ["name", "cents_per_point", "currency", "basis"]
    static let networks = ["visa", "mastercard", "amex", "discover", "rupay", "diners"]

    /// Whether a file's top-level keys make it a card file.
    static func isCardFile(_ keys: Set<String>) -> Bool { keys.contains("rewards") || keys.contains("issuer") }

    /// Whether a file's top-level keys make it a points file.
    static func isPointsFile(_ keys: Set<String>) -> Bool { keys.contains("programs") }

    static func read(_ root: Node, with reader: inout NodeReader) -> CardRules? {
        guard let entries = reader.entries(of: root, context: "a card file", allowed: cardKeys) else { return nil }
        let fileStart = reader.location(of: root)
        guard let idNode = entries.first(where: { $0.key.value == "id" })?.value else {
            reader.report(.missingKey("id", in: "a card file", at: fileStart))
            return nil
        }
        guard let id = reader.string(idNode, key: "id") else { return nil }
        if !BankFileReader.isRuleID(id.value) {
            reader.report(.invalidValue(id.value, for: "id", allowed: "lower case letters, digits, '.', '_' and '-'",
                                        at: id.location))
        }
        var card = CardRules(id: id, location: fileStart)
        var sawRewards = false
        for (key, node) in entries {
            switch key.value {
            case "card": card.name = reader.string(node, key: "card")?.value
            case "description": _ = reader.string(node, key: "description")
            case "issuer": card.issuer = reader.string(node, key: "issuer")?.value
            case "network":
                if let value = reader.string(node, key: "network") {
                    if networks.contains(value.value) { card.network = value } else {
                        reader.report(.invalidValue(value.value, for: "network", allowed: networks.joined(separator: ", "),
                                                    at: value.location))
                    }
                }
            case "country": card.country = code(node, key: "country", length: 2, example: "US", with: &reader)
            case "currency": card.currency = code(node, key: "currency", length: 3, example: "USD", with: &reader)
            case "program": card.program = reader.string(node, key: "program")
            case "annual_fee": card.annualFee = decimal(node, key: "annual_fee", with: &reader)?.value
            case "foreign_transaction_fee":
                card.foreignTransactionFee = decimal(node, key: "foreign_transaction_fee", with: &reader)?.value
            case "as_of": card.asOf = date(node, key: "as_of", with: &reader)
            case "source": card.sources = reader.list(node, key: "source").compactMap { reader.string($0, key: "a source")?.value }
            case "rewards":
                sawRewards = true
                card.rewardsLocation = key.location
                for item in reader.list(node, key: "rewards") {
                    if let group = group(item, with: &reader) { card.rewards.append(group) }
                }
            default: break
            }
        }
        if !sawRewards { reader.report(.missingKey("rewards", in: "card '\(id.value)'", at: fileStart)) }
        for required in ["program", "as_of", "source"] where !entries.contains(where: { $0.key.value == required }) {
            reader.report(.missingKey(required, in: "card '\(id.value)'", at: fileStart))
        }
        return card
    }

    static func group(_ node: Node, with reader: inout NodeReader) -> RewardGroup? {
        guard let entries = reader.entries(of: node, context: "a reward group", allowed: groupKeys) else { return nil }
        let start = reader.location(of: node)
        guard let idNode = entries.first(where: { $0.key.value == "id" })?.value,
              let id = reader.string(idNode, key: "id") else {
            if !entries.contains(where: { $0.key.value == "id" }) {
                reader.report(.missingKey("id", in: "a reward group", at: start))
            }
            return nil
        }
        var group = RewardGroup(id: id, location: start)
        var multiplier: Located<Decimal>?
        var per: Decimal?
        var percent: Located<Decimal>?
        for (key, value) in entries {
            switch key.value {
            case "description": group.description = reader.string(value, key: "description")?.value
            case "categories": group.categories = strings(value, key: "categories", with: &reader)
            case "merchants": group.merchants = strings(value, key: "merchants", with: &reader)
            case "mccs": group.mccs = mccs(value, with: &reader)
            case "exclude":
                guard let items = reader.entries(of: value, context: "exclude", allowed: excludeKeys) else { continue }
                for (field, list) in items {
                    switch field.value {
                    case "categories": group.excludeCategories = strings(list, key: "categories", with: &reader)
                    case "merchants": group.excludeMerchants = strings(list, key: "merchants", with: &reader)
                    default: group.excludeMCCs = mccs(list, with: &reader)
                    }
                }
            case "multiplier": multiplier = decimal(value, key: "multiplier", with: &reader)
            case "per": per = decimal(value, key: "per", with: &reader)?.value
            case "percent": percent = decimal(value, key: "percent", with: &reader)
            case "cap": group.cap = cap(value, with: &reader)
            case "active":
                guard let items = reader.entries(of: value, context: "active", allowed: activeKeys) else { continue }
                for (field, day) in items {
                    if field.value == "from" { group.activeFrom = date(day, key: "from", with: &reader) }
                    else { group.activeUntil = date(day, key: "until", with: &reader) }
                }
            case "rotating":
                group.isRotating = true
                group.requiresActivation = true
                guard let items = reader.entries(of: value, context: "rotating", allowed: rotatingKeys) else { continue }
                for (field, item) in items {
                    if field.value == "activation" {
                        group.requiresActivation = reader.bool(item, key: "activation") ?? true
                    } else {
                        group.quarters = quarters(item, with: &reader)
                    }
                }
            case "online_only": group.onlineOnly = reader.bool(value, key: "online_only") ?? false
            case "minimum_spend": group.minimumSpend = decimal(value, key: "minimum_spend", with: &reader)?.value
            case "priority":
                if let text = reader.string(value, key: "priority") {
                    if let number = Int(text.value) { group.priority = number } else {
                        reader.report(.invalidValue(text.value, for: "priority", allowed: "a whole number", at: text.location))
                    }
                }
            default: break
            }
        }
        switch (multiplier, percent) {
        case let (.some(multiplier), nil):
            group.rate = Located(.multiplier(multiplier.value, per: per ?? 1), at: multiplier.location)
        case let (nil, .some(percent)):
            group.rate = Located(.percent(percent.value), at: percent.location)
        case let (.some, .some(percent)):
            reader.report(.invalidValue("percent", for: "reward group key", allowed:
                "either 'multiplier' or 'percent', not both", at: percent.location))
        case (nil, nil):
            reader.report(.missingKey("multiplier", in: "reward group '\(id.value)' (or 'percent')", at: start))
        }
        if per == 0 {
            reader.report(.invalidValue("0", for: "per", allowed: "a spend unit above zero", at: start))
            group.rate = nil
        }
        return group
    }

    static func cap(_ node: Node, with reader: inout NodeReader) -> RewardCap? {
        guard let entries = reader.entries(of: node, context: "a cap", allowed: capKeys) else { return nil }
        var amount: Located<Decimal>?
        var period: CapPeriod?
        var after: Decimal = 0
        for (key, value) in entries {
            switch key.value {
            case "amount": amount = decimal(value, key: "amount", with: &reader)
            case "period": period = reader.choice(value, key: "period", as: CapPeriod.self)?.value
            default: after = decimal(value, key: "after", with: &reader)?.value ?? 0
            }
        }
        let start = reader.location(of: node)
        for (name, missing) in [("amount", amount == nil), ("period", period == nil)] where missing
            && !entries.contains(where: { $0.key.value == name }) {
            reader.report(.missingKey(name, in: "a cap", at: start))
        }
        guard let amount, let period else { return nil }
        return RewardCap(amount: amount, period: period, after: after)
    }

    static func quarters(_ node: Node, with reader: inout NodeReader) -> [RotatingQuarter] {
        let names = node.mapping?.keys.compactMap(\.scalar?.string) ?? []
        guard let entries = reader.entries(of: node, context: "quarters", allowed: names) else { return [] }
        var result: [RotatingQuarter] = []
        for (key, value) in entries {
            guard isQuarter(key.value) else {
                reader.report(.invalidValue(key.value, for: "quarter", allowed: "a quarter such as 2026-Q1", at: key.location))
                continue
            }
            var quarter = RotatingQuarter(quarter: key)
            guard let items = reader.entries(of: value, context: "quarter '\(key.value)'", allowed: quarterKeys) else { continue }
            for (field, list) in items {
                if field.value == "categories" { quarter.categories = strings(list, key: "categories", with: &reader) }
                else { quarter.merchants = strings(list, key: "merchants", with: &reader) }
            }
            result.append(quarter)
        }
        return result
    }

    /// Reads a points file: `programs:` mapping program ids to valuations.
    static func readPoints(_ root: Node, with reader: inout NodeReader) -> [PointProgram] {
        guard let entries = reader.entries(of: root, context: "a points file", allowed: pointsKeys) else { return [] }
        var programs: [PointProgram] = []
        for (key, value) in entries where key.value == "programs" {
            let names = value.mapping?.keys.compactMap(\.scalar?.string) ?? []
            guard let items = reader.entries(of: value, context: "programs", allowed: names) else { continue }
            for (name, body) in items {
                var program = PointProgram(id: name)
                guard let fields = reader.entries(of: body, context: "program '\(name.value)'", allowed: programKeys) else { continue }
                for (field, node) in fields {
                    switch field.value {
                    case "name": program.name = reader.string(node, key: "name")?.value
                    case "cents_per_point": program.centsPerPoint = decimal(node, key: "cents_per_point", with: &reader)
                    case "currency": program.currency = code(node, key: "currency", length: 3, example: "USD", with: &reader)
                    default: program.basis = reader.string(node, key: "basis")?.value
                    }
                }
                if program.centsPerPoint == nil, !fields.contains(where: { $0.key.value == "cents_per_point" }) {
                    reader.report(.missingKey("cents_per_point", in: "program '\(name.value)'", at: name.location))
                }
                programs.append(program)
            }
        }
        return programs
    }

    // MARK: - Values

    static func strings(_ node: Node, key: String, with reader: inout NodeReader) -> [Located<String>] {
        reader.list(node, key: key).compactMap { reader.string($0, key: "an item of '\(key)'") }
    }

    static func mccs(_ node: Node, with reader: inout NodeReader) -> [Located<String>] {
        strings(node, key: "mccs", with: &reader).filter { mcc in
            let ok = mcc.value.count == 4 && mcc.value.allSatisfy(\.isASCII) && mcc.value.allSatisfy(\.isNumber)
            if !ok {
                reader.report(.invalidValue(mcc.value, for: "MCC", allowed: "four digits such as 5411", at: mcc.location))
            }
            return ok
        }
    }

    /// A non-negative decimal written plainly (`4`, `2.5`, `25000`): money and rates, never Double.
    static func decimal(_ node: Node, key: String, with reader: inout NodeReader) -> Located<Decimal>? {
        guard let text = reader.string(node, key: key) else { return nil }
        guard let value = parseDecimal(text.value) else {
            reader.report(.invalidValue(text.value, for: key, allowed: "a number such as 4 or 2.5", at: text.location))
            return nil
        }
        return Located(value, at: text.location)
    }

    /// `123`, `1.5`, `.5`: digits with at most one point; nil otherwise.
    static func parseDecimal(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.contains(where: { !$0.isEmpty }) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// An ISO date `YYYY-MM-DD`.
    static func date(_ node: Node, key: String, with reader: inout NodeReader) -> Located<String>? {
        guard let text = reader.string(node, key: key) else { return nil }
        guard isISODate(text.value) else {
            reader.report(.invalidValue(text.value, for: key, allowed: "a date such as 2026-11-22", at: text.location))
            return nil
        }
        return text
    }

    static func isISODate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    static func isQuarter(_ text: String) -> Bool {
        let parts = text.split(separator: "-")
        return parts.count == 2 && parts[0].count == 4 && Int(parts[0]) != nil && ["Q1", "Q2", "Q3", "Q4"].contains(String(parts[1]))
    }

    static func code(_ node: Node, key: String, length: Int, example: String, with reader: inout NodeReader) -> String? {
        guard let value = reader.string(node, key: key) else { return nil }
        guard value.value.unicodeScalars.count == length,
              value.value.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            reader.report(.invalidValue(value.value, for: key, allowed: "a code such as \(example)", at: value.location))
            return nil
        }
        return value.value
    }
}
