import Foundation
import Yams

/// Reads a country profile (`rules/countries/<cc>.yaml`). The accepted keys are listed here and
/// in `grammars/spendlex-rules.schema.json`; keep the two in step.
enum CountryFileReader {
    static let keys = ["profile", "name", "description", "currency", "symbols", "decimal", "date_order", "timezone",
                       "languages", "phone_prefixes", "senders", "bank_names", "text_cues", "likely_cues",
                       "non_transactions", "examples"]

    /// A profile is the file with a `profile` key.
    static func isProfile(_ keys: Set<String>) -> Bool { keys.contains("profile") }

    static func read(_ root: Node, with reader: inout NodeReader) -> CountryProfile? {
        guard let entries = reader.entries(of: root, context: "a country profile", allowed: keys) else { return nil }
        let start = reader.location(of: root)
        guard let codeNode = entries.first(where: { $0.key.value == "profile" })?.value,
              let code = reader.string(codeNode, key: "profile") else {
            return nil
        }
        guard code.value.count == 2, code.value.unicodeScalars.allSatisfy({ $0.properties.isUppercase && $0.isASCII }) else {
            reader.report(.invalidValue(code.value, for: "profile", allowed: "an upper-case ISO 3166 code such as IN",
                                        at: code.location))
            return nil
        }
        var profile = CountryProfile(country: code, location: start)
        let prefix = "country.\(code.value.lowercased())"
        for (key, node) in entries {
            switch key.value {
            case "name": profile.name = reader.string(node, key: "name")?.value
            case "description": _ = reader.string(node, key: "description")
            case "currency":
                if let value = reader.string(node, key: "currency") {
                    if isCurrencyCode(value.value) { profile.currency = value.value } else {
                        reader.report(.invalidValue(value.value, for: "currency", allowed: "an ISO 4217 code such as INR",
                                                    at: value.location))
                    }
                }
            case "symbols":
                for (written, codeNode) in reader.namedEntries(of: node, key: "symbols", expected: "written forms to ISO 4217 codes") ?? [] {
                    guard let target = reader.string(codeNode, key: written.value) else { continue }
                    if isCurrencyCode(target.value) {
                        profile.symbols.append((written.value, target.value))
                    } else {
                        reader.report(.invalidValue(target.value, for: written.value, allowed: "an ISO 4217 code such as NGN",
                                                    at: target.location))
                    }
                }
            case "decimal": profile.decimalMark = BankFileReader.decimalMark(node, with: &reader)
            case "date_order":
                if let value = reader.string(node, key: "date_order") {
                    if ["dmy", "mdy", "ymd"].contains(value.value) { profile.dateOrder = value } else {
                        reader.report(.invalidValue(value.value, for: "date_order", allowed: "dmy, mdy or ymd", at: value.location))
                    }
                }
            case "timezone":
                if let value = reader.string(node, key: "timezone") {
                    if TimeZone(identifier: value.value) != nil { profile.timeZone = value } else {
                        reader.report(.invalidValue(value.value, for: "timezone",
                                                    allowed: "an IANA time zone such as Asia/Kolkata", at: value.location))
                    }
                }
            case "languages":
                profile.languages = reader.list(node, key: "languages").compactMap { reader.string($0, key: "a language")?.value }
            case "phone_prefixes":
                for item in reader.list(node, key: "phone_prefixes") {
                    guard let value = reader.string(item, key: "a phone prefix") else { continue }
                    if value.value.hasPrefix("+"), value.value.count >= 2,
                       value.value.dropFirst().allSatisfy(\.isASCII), value.value.dropFirst().allSatisfy(\.isNumber) {
                        profile.phonePrefixes.append(value.value)
                    } else {
                        reader.report(.invalidValue(value.value, for: "phone_prefixes", allowed: "a dialling prefix such as +91",
                                                    at: value.location))
                    }
                }
            case "senders":
                profile.senders = reader.list(node, key: "senders").compactMap { reader.pattern($0, key: "a sender pattern") }
            case "bank_names":
                profile.bankNames = reader.list(node, key: "bank_names").compactMap { reader.pattern($0, key: "a bank name") }
            case "text_cues":
                profile.textCues = reader.list(node, key: "text_cues").compactMap { reader.pattern($0, key: "a text cue") }
            case "likely_cues":
                profile.likelyCues = reader.list(node, key: "likely_cues").compactMap { reader.pattern($0, key: "a likely cue") }
            case "non_transactions":
                for (index, item) in reader.list(node, key: "non_transactions").enumerated() {
                    if let rule = BankFileReader.ignoreRule(item, number: index + 1, bank: prefix, with: &reader) {
                        profile.nonTransactions.append(rule)
                    }
                }
            case "examples":
                profile.examples = reader.list(node, key: "examples").compactMap { BankFileReader.example($0, with: &reader) }
            default: break
            }
        }
        return profile
    }

    private static func isCurrencyCode(_ text: String) -> Bool {
        text.count == 3 && text.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isUppercase }
    }
}
