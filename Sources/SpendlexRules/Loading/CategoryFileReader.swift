import Foundation
import Yams

/// Reads a categories file: the declared categories and decision tables. The accepted keys
/// of each mapping are listed here and in `grammars/spendlex-rules.schema.json`; keep the
/// two in step (`SchemaTests` checks).
enum CategoryFileReader {
    static let fileKeys = ["description", "categories", "tables"]
    static let tableKeys = ["id", "description", "hit_policy", "rows"]
    static let rowKeys = ["id", "description", "merchant", "mcc", "amount", "account", "direction", "kind", "bank",
                          "category", "subcategory", "tags", "priority", "examples"]
    static let merchantKeys = ["keywords", "patterns"]
    static let amountKeys = ["min", "max"]
    static let accountKeys = ["last4", "type"]
    static let exampleKeys = ["merchant", "mcc", "amount", "direction", "kind", "bank", "last4", "account_type"]

    static func read(_ root: Node, with reader: inout NodeReader, into ruleSet: inout RuleSet) {
        guard let entries = reader.entries(of: root, context: "a categories file", allowed: fileKeys) else { return }
        for (key, node) in entries {
            switch key.value {
            case "description": _ = reader.string(node, key: "description")
            case "categories": ruleSet.categories += categories(node, with: &reader)
            case "tables":
                for item in reader.list(node, key: "tables") {
                    if let table = table(item, with: &reader) { ruleSet.categoryTables.append(table) }
                }
            default: break
            }
        }
    }

    /// `Name: [Sub, Sub]`, `Name: []` or `Name: ~`.
    static func categories(_ node: Node, with reader: inout NodeReader) -> [CategoryDeclaration] {
        let names = node.mapping?.keys.compactMap(\.scalar?.string) ?? []
        guard let entries = reader.entries(of: node, context: "categories", allowed: names) else { return [] }
        return entries.map { name, value in
            var seen: Set<String> = []
            var subcategories: [Located<String>] = []
            for item in reader.list(value, key: "subcategories of '\(name.value)'") {
                guard let sub = reader.string(item, key: "a subcategory") else { continue }
                if seen.insert(sub.value).inserted {
                    subcategories.append(sub)
                } else {
                    reader.report(.duplicateID(sub.value, at: sub.location,
                                               first: subcategories.first { $0.value == sub.value }!.location))
                }
            }
            return CategoryDeclaration(name: name, subcategories: subcategories)
        }
    }

    static func table(_ node: Node, with reader: inout NodeReader) -> CategoryTable? {
        guard let entries = reader.entries(of: node, context: "a decision table", allowed: tableKeys) else { return nil }
        let start = reader.location(of: node)
        guard let id = requiredID(entries, context: "a decision table", at: start, with: &reader) else { return nil }
        var policy: Located<HitPolicy>?
        var rows: [CategoryRow] = []
        var sawPolicy = false
        for (key, value) in entries {
            switch key.value {
            case "hit_policy":
                sawPolicy = true
                policy = reader.choice(value, key: "hit_policy", as: HitPolicy.self)
            case "rows":
                rows = reader.list(value, key: "rows").compactMap { row($0, with: &reader) }
            case "description": _ = reader.string(value, key: "description")
            default: break
            }
        }
        if !sawPolicy {
            reader.report(.missingKey("hit_policy", in: "table '\(id.value)' (unique, first, priority or collect)",
                                      at: id.location))
        }
        guard let policy else { return nil }
        if !entries.contains(where: { $0.key.value == "rows" }) {
            reader.report(.missingKey("rows", in: "table '\(id.value)'", at: id.location))
        }
        return CategoryTable(id: id, hitPolicy: policy, rows: rows, location: start)
    }

    static func row(_ node: Node, with reader: inout NodeReader) -> CategoryRow? {
        guard let entries = reader.entries(of: node, context: "a table row", allowed: rowKeys) else { return nil }
        let start = reader.location(of: node)
        guard let id = requiredID(entries, context: "a table row", at: start, with: &reader) else { return nil }
        var row = CategoryRow(id: id, location: start)
        for (key, value) in entries {
            switch key.value {
            case "merchant": row.conditions.merchant = merchant(value, with: &reader)
            case "mcc":
                row.conditions.mcc = reader.list(value, key: "mcc").compactMap { mccRange($0, with: &reader) }
            case "amount": row.conditions.amount = amount(value, with: &reader)
            case "account": row.conditions.account = account(value, with: &reader)
            case "direction": row.conditions.direction = reader.choice(value, key: "direction", as: Direction.self)
            case "kind":
                row.conditions.kinds = reader.list(value, key: "kind").compactMap {
                    reader.choice($0, key: "kind", as: TransactionKind.self)
                }
            case "bank":
                row.conditions.banks = reader.list(value, key: "bank").compactMap { reader.string($0, key: "a bank id") }
            case "category": row.category = reader.string(value, key: "category")
            case "subcategory": row.subcategory = reader.string(value, key: "subcategory")
            case "tags": row.tags = reader.list(value, key: "tags").compactMap { reader.string($0, key: "a tag") }
            case "priority":
                if let text = reader.string(value, key: "priority") {
                    if let number = Int(text.value) { row.priority = Located(number, at: text.location) } else {
                        reader.report(.invalidValue(text.value, for: "priority", allowed: "a whole number", at: text.location))
                    }
                }
            case "examples":
                row.examples = reader.list(value, key: "examples").compactMap { example($0, with: &reader) }
            case "description": row.description = reader.string(value, key: "description")?.value
            default: break
            }
        }
        return row
    }

    /// `{keywords: [...], patterns: [...]}`, or a list (or one string) of keywords.
    static func merchant(_ node: Node, with reader: inout NodeReader) -> MerchantCondition? {
        let location = reader.location(of: node)
        if node.mapping == nil {
            let keywords = reader.list(node, key: "merchant").compactMap { keyword($0, with: &reader) }
            return keywords.isEmpty ? nil : MerchantCondition(keywords: keywords, patterns: [], location: location)
        }
        guard let entries = reader.entries(of: node, context: "merchant", allowed: merchantKeys) else { return nil }
        var condition = MerchantCondition(keywords: [], patterns: [], location: location)
        for (key, value) in entries {
            if key.value == "keywords" {
                condition.keywords = reader.list(value, key: "keywords").compactMap { keyword($0, with: &reader) }
            } else {
                condition.patterns = reader.list(value, key: "patterns").compactMap { reader.pattern($0, key: "a pattern") }
            }
        }
        if condition.keywords.isEmpty && condition.patterns.isEmpty {
            reader.report(.missingKey("keywords", in: "merchant (or 'patterns')", at: location))
            return nil
        }
        return condition
    }

    static func keyword(_ node: Node, with reader: inout NodeReader) -> Located<String>? {
        guard let text = reader.string(node, key: "a keyword") else { return nil }
        guard text.value.contains(where: { $0.isLetter || $0.isNumber }) else {
            reader.report(.invalidValue(text.value, for: "keyword", allowed: "a word or phrase with letters or digits",
                                        at: text.location))
            return nil
        }
        return text
    }

    /// `5411` or `3000-3350`: four-digit codes, inclusive.
    static func mccRange(_ node: Node, with reader: inout NodeReader) -> Located<ClosedRange<Int>>? {
        guard let text = reader.string(node, key: "an mcc") else { return nil }
        let parts = text.value.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let codes = parts.compactMap { part in part.count == 4 && part.allSatisfy(\.isASCIIDigit) ? Int(part) : nil }
        guard parts.count <= 2, codes.count == parts.count, let low = codes.first, let high = codes.last, low <= high else {
            reader.report(.invalidValue(text.value, for: "mcc", allowed: "a four-digit code such as 5411, or a range such as 3000-3350",
                                        at: text.location))
            return nil
        }
        return Located(low...high, at: text.location)
    }

    static func amount(_ node: Node, with reader: inout NodeReader) -> AmountCondition? {
        guard let entries = reader.entries(of: node, context: "amount", allowed: amountKeys) else { return nil }
        var condition = AmountCondition(min: nil, max: nil, location: reader.location(of: node))
        for (key, value) in entries {
            guard let number = decimal(value, key: key.value, with: &reader) else { continue }
            if key.value == "min" { condition.min = number } else { condition.max = number }
        }
        if let min = condition.min, let max = condition.max, min.value >= max.value {
            reader.report(.invalidValue("\(max.value)", for: "amount max", allowed: "more than min (\(min.value))",
                                        at: max.location))
            return nil
        }
        if condition.min == nil && condition.max == nil {
            reader.report(.missingKey("min", in: "amount (or 'max')", at: condition.location))
            return nil
        }
        return condition
    }

    static func account(_ node: Node, with reader: inout NodeReader) -> AccountCondition? {
        guard let entries = reader.entries(of: node, context: "account", allowed: accountKeys) else { return nil }
        var condition = AccountCondition(last4: [], type: nil, location: reader.location(of: node))
        for (key, value) in entries {
            if key.value == "last4" {
                condition.last4 = reader.list(value, key: "last4").compactMap { last4($0, with: &reader) }
            } else if let type = reader.string(value, key: "type") {
                if ["card", "account"].contains(type.value) { condition.type = type } else {
                    reader.report(.invalidValue(type.value, for: "account type", allowed: "card or account", at: type.location))
                }
            }
        }
        if condition.last4.isEmpty && condition.type == nil {
            reader.report(.missingKey("last4", in: "account (or 'type')", at: condition.location))
            return nil
        }
        return condition
    }

    static func example(_ node: Node, with reader: inout NodeReader) -> CategoryExample? {
        var example = CategoryExample(location: reader.location(of: node))
        if node.scalar != nil {
            example.merchant = reader.string(node, key: "an example")
            return example.merchant == nil ? nil : example
        }
        guard let entries = reader.entries(of: node, context: "an example", allowed: exampleKeys) else { return nil }
        for (key, value) in entries {
            switch key.value {
            case "merchant": example.merchant = reader.string(value, key: "merchant")
            case "mcc": example.mcc = mccRange(value, with: &reader).flatMap { $0.value.count == 1 ? $0.value.lowerBound : nil }
            case "amount": example.amount = decimal(value, key: "amount", with: &reader)?.value
            case "direction": example.direction = reader.choice(value, key: "direction", as: Direction.self)?.value
            case "kind": example.kind = reader.choice(value, key: "kind", as: TransactionKind.self)?.value
            case "bank": example.bank = reader.string(value, key: "bank")?.value
            case "last4": example.last4 = last4(value, with: &reader)?.value
            case "account_type": example.accountType = reader.string(value, key: "account_type")?.value
            default: break
            }
        }
        return example
    }

    static func last4(_ node: Node, with reader: inout NodeReader) -> Located<String>? {
        guard let text = reader.string(node, key: "last4") else { return nil }
        guard (3...5).contains(text.value.count), text.value.allSatisfy(\.isASCIIDigit) else {
            reader.report(.invalidValue(text.value, for: "last4", allowed: "the last 3 to 5 digits", at: text.location))
            return nil
        }
        return text
    }

    /// A plain decimal: `500`, `12.50`, `-3`; never a float.
    static func decimal(_ node: Node, key: String, with reader: inout NodeReader) -> Located<Decimal>? {
        guard let text = reader.string(node, key: key) else { return nil }
        let body = text.value.hasPrefix("-") ? text.value.dropFirst() : Substring(text.value)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let value = Decimal(string: text.value, locale: Locale(identifier: "en_US_POSIX")) else {
            reader.report(.invalidValue(text.value, for: key, allowed: "a decimal number such as 500 or 12.50",
                                        at: text.location))
            return nil
        }
        return Located(value, at: text.location)
    }

    private static func requiredID(_ entries: [(key: Located<String>, value: Node)], context: String,
                                   at start: SourceLocation, with reader: inout NodeReader) -> Located<String>? {
        guard let idNode = entries.first(where: { $0.key.value == "id" })?.value else {
            reader.report(.missingKey("id", in: context, at: start))
            return nil
        }
        guard let id = reader.string(idNode, key: "id") else { return nil }
        if !BankFileReader.isRuleID(id.value) {
            reader.report(.invalidValue(id.value, for: "id", allowed: "lower case letters, digits, '.', '_' and '-'",
                                        at: id.location))
        }
        return id
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
