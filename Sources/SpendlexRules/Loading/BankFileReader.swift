import Foundation
import Yams

/// Reads a bank file into `BankRules`. The accepted keys of each mapping are listed
/// here and in `grammars/spendlex-rules.schema.json`; keep the two in step.
enum BankFileReader {
    static let bankKeys = ["bank", "id", "description", "country", "currency", "locale", "timezone",
                           "decimal", "date_order", "fallback", "senders", "subjects", "detect", "personal_senders", "ignore",
                           "parsers"]
    static let parserKeys = ["id", "description", "direction", "kind", "channel", "account_type", "pattern",
                             "when", "unless", "unless_amount", "fields", "required", "layer", "enabled", "examples", "counter_examples"]
    static let fieldKeys = ["pattern", "value", "format", "decimal"]
    static let exampleKeys = ["text", "sender", "subject", "received_at", "expect"]
    static let counterExampleKeys = ["text", "sender", "subject"]
    static let ignoreKeys = ["id", "pattern", "unless", "description"]

    static func read(_ root: Node, with reader: inout NodeReader) -> BankRules? {
        guard let entries = reader.entries(of: root, context: "a bank file", allowed: bankKeys) else { return nil }
        let fileStart = reader.location(of: root)
        guard let idNode = entries.first(where: { $0.key.value == "id" })?.value else {
            reader.report(.missingKey("id", in: "a bank file", at: fileStart))
            return nil
        }
        guard let id = reader.string(idNode, key: "id") else { return nil }
        if !isRuleID(id.value) {
            reader.report(.invalidValue(id.value, for: "id", allowed: "lower case letters, digits, '.', '_' and '-'",
                                        at: id.location))
        }
        var bank = BankRules(id: id, location: fileStart)
        var sawParsers = false
        var personalSendersKey: SourceLocation?
        for (key, node) in entries {
            switch key.value {
            case "bank": bank.name = reader.string(node, key: "bank")?.value
            case "description": _ = reader.string(node, key: "description")
            case "country":
                if let value = reader.string(node, key: "country") {
                    if isCode(value.value, length: 2) { bank.country = value.value } else {
                        reader.report(.invalidValue(value.value, for: "country", allowed: "an ISO 3166 code such as IN",
                                                    at: value.location))
                    }
                }
            case "currency":
                if let value = reader.string(node, key: "currency") {
                    if isCode(value.value, length: 3) { bank.currency = value.value } else {
                        reader.report(.invalidValue(value.value, for: "currency", allowed: "an ISO 4217 code such as INR",
                                                    at: value.location))
                    }
                }
            case "locale": bank.locale = reader.string(node, key: "locale")?.value
            case "timezone":
                if let value = reader.string(node, key: "timezone") {
                    if TimeZone(identifier: value.value) != nil { bank.timeZone = value } else {
                        reader.report(.invalidValue(value.value, for: "timezone", allowed: "an IANA time zone such as Asia/Kolkata",
                                                    at: value.location))
                    }
                }
            case "decimal": bank.decimalMark = decimalMark(node, with: &reader)
            case "date_order":
                if let value = reader.string(node, key: "date_order") {
                    if ["dmy", "mdy", "ymd"].contains(value.value) { bank.dateOrder = value } else {
                        reader.report(.invalidValue(value.value, for: "date_order", allowed: "dmy, mdy or ymd", at: value.location))
                    }
                }
            case "fallback": bank.isFallback = reader.bool(node, key: "fallback") ?? false
            case "senders":
                bank.senders = reader.list(node, key: "senders").compactMap { reader.string($0, key: "a sender") }
            case "subjects":
                bank.subjects = reader.list(node, key: "subjects").compactMap { reader.pattern($0, key: "a subject") }
            case "detect":
                bank.detect = reader.list(node, key: "detect").compactMap { reader.pattern($0, key: "a detect pattern") }
            case "personal_senders":
                personalSendersKey = key.location
                bank.personalSenders = reader.list(node, key: "personal_senders")
                    .compactMap { reader.pattern($0, key: "a personal sender pattern") }
            case "ignore":
                for (index, item) in reader.list(node, key: "ignore").enumerated() {
                    if let rule = ignoreRule(item, number: index + 1, bank: id.value, with: &reader) {
                        bank.ignore.append(rule)
                    }
                }
            case "parsers":
                sawParsers = true
                for item in reader.list(node, key: "parsers") {
                    if let parser = parser(item, with: &reader) { bank.parsers.append(parser) }
                }
            default: break
            }
        }
        if !sawParsers {
            reader.report(.missingKey("parsers", in: "bank '\(id.value)'", at: fileStart))
        }
        // A bank's own messages are routed by `senders`; only a fallback reads unknown senders.
        if let personalSendersKey, !bank.isFallback {
            reader.report(Diagnostic(.ruleInvalidValue, .error, at: personalSendersKey,
                                     "personal_senders applies to fallback files only (fallback: true)"))
        }
        return bank
    }

    static func ignoreRule(_ node: Node, number: Int, bank: String, with reader: inout NodeReader) -> IgnoreRule? {
        let defaultID = "\(bank).ignore.\(number)"
        if node.scalar != nil {
            return reader.pattern(node, key: "ignore").map { IgnoreRule(id: defaultID, pattern: $0) }
        }
        guard let entries = reader.entries(of: node, context: "an ignore rule", allowed: ignoreKeys) else { return nil }
        var id = defaultID
        var pattern: PatternText?
        var unless: PatternText?
        for (key, value) in entries {
            switch key.value {
            case "id": id = reader.string(value, key: "id")?.value ?? id
            case "pattern": pattern = reader.pattern(value, key: "pattern")
            case "unless": unless = reader.pattern(value, key: "unless")
            default: _ = reader.string(value, key: key.value)
            }
        }
        guard let pattern else {
            reader.report(.missingKey("pattern", in: "an ignore rule", at: reader.location(of: node)))
            return nil
        }
        return IgnoreRule(id: id, pattern: pattern, unless: unless)
    }

    static func parser(_ node: Node, with reader: inout NodeReader) -> ParserRule? {
        guard let entries = reader.entries(of: node, context: "a parser", allowed: parserKeys) else { return nil }
        let start = reader.location(of: node)
        guard let idNode = entries.first(where: { $0.key.value == "id" })?.value else {
            reader.report(.missingKey("id", in: "a parser", at: start))
            return nil
        }
        guard let id = reader.string(idNode, key: "id") else { return nil }
        if !isRuleID(id.value) {
            reader.report(.invalidValue(id.value, for: "id", allowed: "lower case letters, digits, '.', '_' and '-'",
                                        at: id.location))
        }
        var parser = ParserRule(id: id, location: start)
        for (key, value) in entries {
            switch key.value {
            case "direction": parser.direction = reader.choice(value, key: "direction", as: Direction.self)
            case "kind": parser.kind = reader.choice(value, key: "kind", as: TransactionKind.self)
            case "channel": parser.channel = reader.string(value, key: "channel")?.value.lowercased()
            case "account_type":
                if let type = reader.string(value, key: "account_type") {
                    if ["card", "account"].contains(type.value) {
                        parser.accountType = type.value
                    } else if type.value.hasSuffix("_card"), let kind = CardKind(rawValue: String(type.value.dropLast(5))) {
                        parser.accountType = "card"
                        parser.cardKind = kind
                    } else {
                        reader.report(.invalidValue(type.value, for: "account_type",
                                                    allowed: "card, credit_card, debit_card, prepaid_card or account", at: type.location))
                    }
                }
            case "pattern": parser.pattern = reader.pattern(value, key: "pattern")
            case "when": parser.when = reader.pattern(value, key: "when")
            case "unless": parser.unless = reader.pattern(value, key: "unless")
            case "unless_amount": parser.unlessAmount = reader.pattern(value, key: "unless_amount")
            case "fields": parser.fields = fields(value, with: &reader)
            case "required":
                parser.required = reader.list(value, key: "required").compactMap {
                    reader.choice($0, key: "a required field", as: FieldName.self)
                }
            case "enabled": parser.enabled = reader.bool(value, key: "enabled") ?? true
            case "layer":
                // `layer: false` switches every field layer finder off; a mapping, the named ones.
                if value.scalar != nil {
                    if reader.bool(value, key: "layer") == false { parser.layerOff = Set(FieldLayerFileReader.layerFields + [.channel]) }
                } else if let switches = reader.entries(of: value, context: "layer",
                                                        allowed: (FieldLayerFileReader.layerFields + [.channel]).map(\.rawValue)) {
                    for (field, flag) in switches where reader.bool(flag, key: field.value) == false {
                        if let name = FieldName(rawValue: field.value) { parser.layerOff.insert(name) }
                    }
                }
            case "examples":
                parser.examples = reader.list(value, key: "examples").compactMap { example($0, with: &reader) }
            case "counter_examples":
                parser.counterExamples = reader.list(value, key: "counter_examples").compactMap {
                    counterExample($0, with: &reader)
                }
            case "description": _ = reader.string(value, key: "description")
            default: break
            }
        }
        if parser.pattern == nil && parser.fields.allSatisfy({ $0.pattern == nil }) {
            reader.report(.missingKey("pattern", in: "parser '\(id.value)' (or per-field patterns under 'fields')",
                                      at: start))
        }
        if parser.pattern != nil, let perField = parser.fields.first(where: { $0.pattern != nil }) {
            reader.report(.invalidValue("pattern", for: "field option", allowed:
                "no per-field pattern when the parser has one 'pattern'", at: perField.pattern!.location))
        }
        return parser
    }

    static func fields(_ node: Node, with reader: inout NodeReader) -> [FieldRule] {
        let names = node.mapping?.keys.compactMap(\.scalar?.string) ?? []
        guard let entries = reader.entries(of: node, context: "fields", allowed: names) else { return [] }
        var result: [FieldRule] = []
        for (key, value) in entries {
            guard let name = FieldName(rawValue: key.value) else {
                reader.report(.unknownField(key.value, at: key.location))
                continue
            }
            var field = FieldRule(name: Located(name, at: key.location))
            if value.scalar != nil {
                field.pattern = reader.pattern(value, key: key.value)
            } else if let options = reader.entries(of: value, context: "field '\(key.value)'", allowed: fieldKeys) {
                for (option, optionValue) in options {
                    switch option.value {
                    case "pattern": field.pattern = reader.pattern(optionValue, key: "pattern")
                    case "value": field.value = reader.string(optionValue, key: "value")
                    case "format": field.format = reader.string(optionValue, key: "format")
                    case "decimal": field.decimalMark = decimalMark(optionValue, with: &reader)
                    default: break
                    }
                }
            }
            result.append(field)
        }
        return result
    }

    static func example(_ node: Node, with reader: inout NodeReader) -> RuleExample? {
        guard let entries = reader.entries(of: node, context: "an example", allowed: exampleKeys) else { return nil }
        let start = reader.location(of: node)
        guard let textNode = entries.first(where: { $0.key.value == "text" })?.value,
              let text = reader.string(textNode, key: "text") else {
            if !entries.contains(where: { $0.key.value == "text" }) {
                reader.report(.missingKey("text", in: "an example", at: start))
            }
            return nil
        }
        var example = RuleExample(text: text, location: start)
        var sawExpect = false
        for (key, value) in entries {
            switch key.value {
            case "sender": example.sender = reader.string(value, key: "sender")?.value
            case "subject": example.subject = reader.string(value, key: "subject")?.value
            case "received_at":
                if let raw = reader.string(value, key: "received_at") {
                    if parseTimestamp(raw.value) == nil {
                        reader.report(.invalidValue(raw.value, for: "received_at",
                                                    allowed: "an ISO 8601 time such as 2026-05-02T16:56:01Z", at: raw.location))
                    } else {
                        example.receivedAt = raw
                    }
                }
            case "expect":
                sawExpect = true
                let names = ExpectedField.allCases.map(\.rawValue)
                guard let expectations = reader.entries(of: value, context: "expect", allowed: names) else { continue }
                for (field, expected) in expectations {
                    guard let name = ExpectedField(rawValue: field.value),
                          let wanted = reader.optionalString(expected, key: field.value) else { continue }
                    example.expect.append((Located(name, at: field.location), wanted))
                }
            default: break
            }
        }
        if !sawExpect {
            reader.report(.missingKey("expect", in: "an example", at: start))
        }
        return example
    }

    static func counterExample(_ node: Node, with reader: inout NodeReader) -> CounterExample? {
        if node.scalar != nil {
            return reader.string(node, key: "a counter-example").map { CounterExample(text: $0) }
        }
        guard let entries = reader.entries(of: node, context: "a counter-example", allowed: counterExampleKeys) else {
            return nil
        }
        var text: Located<String>?
        var sender: String?
        var subject: String?
        for (key, value) in entries {
            switch key.value {
            case "text": text = reader.string(value, key: "text")
            case "sender": sender = reader.string(value, key: "sender")?.value
            case "subject": subject = reader.string(value, key: "subject")?.value
            default: break
            }
        }
        guard let text else {
            reader.report(.missingKey("text", in: "a counter-example", at: reader.location(of: node)))
            return nil
        }
        return CounterExample(text: text, sender: sender, subject: subject)
    }

    static func decimalMark(_ node: Node, with reader: inout NodeReader) -> Located<String>? {
        guard let value = reader.string(node, key: "decimal") else { return nil }
        guard value.value == "." || value.value == "," else {
            reader.report(.invalidValue(value.value, for: "decimal", allowed: "'.' or ','", at: value.location))
            return nil
        }
        return value
    }

    /// `[a-z0-9][a-z0-9._-]*`.
    static func isRuleID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, isLowerAlnum(first) else { return false }
        return id.unicodeScalars.allSatisfy { isLowerAlnum($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }

    private static func isLowerAlnum(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isCode(_ text: String, length: Int) -> Bool {
        text.unicodeScalars.count == length && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }
}
