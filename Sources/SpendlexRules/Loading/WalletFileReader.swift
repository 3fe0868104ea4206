import Foundation
import Yams

/// Reads a wallet file: the user's cards and preferences. Every problem is a located
/// diagnostic, as in rule files: unknown keys, wrong types, cards no card file defines.
public enum WalletFileReader {
    static let walletKeys = ["cards", "preferences"]
    static let cardKeys = ["card", "last4", "nickname", "anniversary", "statement_day", "activated", "spent"]
    static let preferenceKeys = ["preferred_program", "alert_threshold", "points"]

    /// Reads the wallet at `path`, checking card ids against `cards` and program ids against
    /// `programs` (each check skipped when its list is empty). The source text is returned for
    /// printing diagnostics; the wallet is nil when the file is not a readable wallet.
    public static func load(path: String, cards: [CardRules], programs: [PointProgram]) -> (Wallet?, [Diagnostic], SourceText?) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            return (nil, [.unreadable(path, reason: "\(error.localizedDescription)")], nil)
        }
        let (wallet, diagnostics) = read(text: text, path: path, cards: cards, programs: programs)
        return (wallet, diagnostics, SourceText(path: path, text: text))
    }

    /// Reads a wallet from text (see `load(path:cards:programs:)`).
    public static func read(text: String, path: String, cards: [CardRules], programs: [PointProgram]) -> (Wallet?, [Diagnostic]) {
        let source = SourceText(path: path, text: text)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)
        } catch {
            return (nil, [.yamlSyntax("\(error)", at: source.location(line: 1, column: 1))])
        }
        var reader = NodeReader(source: source)
        guard let root else {
            return (nil, [.walletEmpty(at: source.location(line: 1, column: 1))])
        }
        guard let entries = reader.entries(of: root, context: "a wallet file", allowed: walletKeys) else {
            return (nil, reader.diagnostics)
        }
        var wallet = Wallet(location: reader.location(of: root))
        let knownCards = Dictionary(cards.map { ($0.id.value, $0) }, uniquingKeysWith: { first, _ in first })
        let knownPrograms = programs.map(\.id.value)
        for (key, node) in entries {
            if key.value == "cards" {
                for item in reader.list(node, key: "cards") {
                    if let card = card(item, known: knownCards, with: &reader) { wallet.cards.append(card) }
                }
            } else {
                wallet.preferences = preferences(node, programs: knownPrograms, with: &reader)
            }
        }
        if wallet.cards.isEmpty, !reader.diagnostics.containsErrors {
            reader.report(.walletEmpty(at: entries.first { $0.key.value == "cards" }?.key.location ?? wallet.location))
        }
        return (wallet, reader.diagnostics)
    }

    static func card(_ node: Node, known: [String: CardRules], with reader: inout NodeReader) -> WalletCard? {
        guard let entries = reader.entries(of: node, context: "a wallet card", allowed: cardKeys) else { return nil }
        guard let idNode = entries.first(where: { $0.key.value == "card" })?.value,
              let id = reader.string(idNode, key: "card") else {
            if !entries.contains(where: { $0.key.value == "card" }) {
                reader.report(.missingKey("card", in: "a wallet card", at: reader.location(of: node)))
            }
            return nil
        }
        let rules = known[id.value]
        if !known.isEmpty, rules == nil {
            reader.report(.walletUnknownCard(id.value, known: known.keys.sorted(), at: id.location))
        }
        var card = WalletCard(card: id)
        for (key, value) in entries {
            switch key.value {
            case "last4":
                if let text = reader.string(value, key: "last4") {
                    if text.value.count == 4, text.value.allSatisfy({ $0.isASCII && $0.isNumber }) { card.last4 = text.value } else {
                        reader.report(.invalidValue(text.value, for: "last4", allowed: "four digits, quoted: \"1234\"",
                                                    at: text.location))
                    }
                }
            case "nickname": card.nickname = reader.string(value, key: "nickname")?.value
            case "anniversary":
                if let text = CardFileReader.date(value, key: "anniversary", with: &reader) {
                    card.anniversary = LocalDay(iso: text.value)
                }
            case "statement_day":
                if let text = reader.string(value, key: "statement_day") {
                    if let day = Int(text.value), (1...31).contains(day) { card.statementDay = day } else {
                        reader.report(.invalidValue(text.value, for: "statement_day", allowed: "a day of the month, 1 to 31",
                                                    at: text.location))
                    }
                }
            case "activated":
                for item in reader.list(value, key: "activated") {
                    guard let quarter = reader.string(item, key: "a quarter") else { continue }
                    if CardFileReader.isQuarter(quarter.value) { card.activated.append(quarter.value) } else {
                        reader.report(.invalidValue(quarter.value, for: "quarter", allowed: "a quarter such as 2026-Q4",
                                                    at: quarter.location))
                    }
                }
            case "spent":
                let names = value.mapping?.keys.compactMap(\.scalar?.string) ?? []
                guard let items = reader.entries(of: value, context: "spent", allowed: names) else { continue }
                for (group, amount) in items {
                    if let rules, !rules.rewards.contains(where: { $0.id.value == group.value }) {
                        reader.report(.walletUnknownGroup(group.value, card: id.value, known: rules.rewards.map(\.id.value),
                                                          at: group.location))
                        continue
                    }
                    if let amount = CardFileReader.decimal(amount, key: "spent", with: &reader) {
                        card.spent[group.value] = amount
                    }
                }
            default: break
            }
        }
        return card
    }

    static func preferences(_ node: Node, programs: [String], with reader: inout NodeReader) -> WalletPreferences {
        var preferences = WalletPreferences()
        guard let entries = reader.entries(of: node, context: "preferences", allowed: preferenceKeys) else { return preferences }
        for (key, value) in entries {
            switch key.value {
            case "preferred_program":
                if let program = reader.string(value, key: "preferred_program") {
                    if !programs.isEmpty, !programs.contains(program.value) {
                        reader.report(.walletUnknownProgram(program.value, known: programs, at: program.location))
                    }
                    preferences.preferredProgram = program.value
                }
            case "alert_threshold":
                if let threshold = CardFileReader.decimal(value, key: "alert_threshold", with: &reader) {
                    if threshold.value <= 1 { preferences.alertThreshold = threshold.value } else {
                        reader.report(.invalidValue("\(threshold.value)", for: "alert_threshold",
                                                    allowed: "a share between 0 and 1, such as 0.85", at: threshold.location))
                    }
                }
            default:
                let names = value.mapping?.keys.compactMap(\.scalar?.string) ?? []
                guard let items = reader.entries(of: value, context: "points", allowed: names) else { continue }
                for (program, cents) in items {
                    if !programs.isEmpty, !programs.contains(program.value) {
                        reader.report(.walletUnknownProgram(program.value, known: programs, at: program.location))
                    }
                    if let cents = CardFileReader.decimal(cents, key: "cents per point", with: &reader) {
                        preferences.centsPerPoint[program.value] = cents.value
                    }
                }
            }
        }
        return preferences
    }
}
