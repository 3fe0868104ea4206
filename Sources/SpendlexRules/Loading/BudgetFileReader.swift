import Foundation
import Yams

/// Reads a budgets file. Every problem is a located diagnostic, as in rule files: unknown keys,
/// a limit that is not a decimal amount, a period or a currency the language does not know, a
/// category the categories file does not declare.
public enum BudgetFileReader {
    static let fileKeys = ["budgets"]
    static let budgetKeys = ["category", "limit", "currency", "period", "rollover", "start"]

    /// Reads the budgets at `path`, checking categories against `categories` (skipped when it is
    /// empty). The source text is returned for printing diagnostics.
    public static func load(path: String, categories: CategoryList) -> (Budgets?, [Diagnostic], SourceText?) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            return (nil, [.unreadable(path, reason: "\(error.localizedDescription)")], nil)
        }
        let (budgets, diagnostics) = read(text: text, path: path, categories: categories)
        return (budgets, diagnostics, SourceText(path: path, text: text))
    }

    /// Reads budgets from text (see `load(path:categories:)`).
    public static func read(text: String, path: String, categories: CategoryList) -> (Budgets?, [Diagnostic]) {
        let source = SourceText(path: path, text: text)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)
        } catch {
            return (nil, [.yamlSyntax("\(error)", at: source.location(line: 1, column: 1))])
        }
        var reader = NodeReader(source: source)
        guard let root, let entries = reader.entries(of: root, context: "a budgets file", allowed: fileKeys),
              let list = entries.first(where: { $0.key.value == "budgets" })?.value else {
            reader.report(.missingKey("budgets", in: "a budgets file", at: source.location(line: 1, column: 1)))
            return (nil, reader.diagnostics)
        }
        var budgets = Budgets(location: reader.location(of: root))
        for item in reader.list(list, key: "budgets") {
            if let budget = budget(item, categories: categories, with: &reader) { budgets.budgets.append(budget) }
        }
        return (budgets, reader.diagnostics)
    }

    static func budget(_ node: Node, categories: CategoryList, with reader: inout NodeReader) -> Budgets.Budget? {
        guard let entries = reader.entries(of: node, context: "a budget", allowed: budgetKeys) else { return nil }
        let location = reader.location(of: node)
        func value(_ key: String) -> Node? { entries.first { $0.key.value == key }?.value }
        for key in ["category", "limit", "currency"] where value(key) == nil {
            reader.report(.missingKey(key, in: "a budget", at: location))
        }
        guard let categoryNode = value("category"), let written = reader.string(categoryNode, key: "category"),
              let limitNode = value("limit"), let limitText = reader.string(limitNode, key: "limit"),
              let currencyNode = value("currency"), let currency = reader.string(currencyNode, key: "currency") else { return nil }
        // "Food & Dining" or "Food & Dining/Restaurants".
        let parts = written.value.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let category = Located(parts[0], at: written.location)
        let subcategory = parts.count > 1 ? parts[1] : nil
        if !categories.entries.isEmpty {
            if let entry = categories.entries.first(where: { $0.name == category.value }) {
                if let subcategory, !entry.subcategories.contains(subcategory) {
                    reader.report(.unknownCategory(subcategory, under: entry.name, known: entry.subcategories, at: written.location))
                }
            } else {
                reader.report(.unknownCategory(category.value, known: categories.entries.map(\.name), at: written.location))
            }
        }
        // Money is an exact decimal: "15000", "2500.50"; no thousands separators, no sign.
        let plain = limitText.value.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && limitText.value.filter { $0 == "." }.count <= 1
        guard plain, let limit = Decimal(string: limitText.value, locale: Locale(identifier: "en_US_POSIX")), limit > 0 else {
            reader.report(.invalidValue(limitText.value, for: "limit", allowed: "a positive decimal amount, such as 15000 or 2500.50",
                                        at: limitText.location))
            return nil
        }
        guard currency.value.count == 3, currency.value.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            reader.report(.invalidValue(currency.value, for: "currency", allowed: "an ISO 4217 code, such as INR or EUR",
                                        at: currency.location))
            return nil
        }
        var period = Budgets.Period.month
        if let node = value("period") {
            if let chosen = reader.choice(node, key: "period", as: Budgets.Period.self) { period = chosen.value } else { return nil }
        }
        let rollover = value("rollover").flatMap { reader.bool($0, key: "rollover") } ?? false
        var start: String?
        if let node = value("start"), let text = reader.string(node, key: "start") {
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "UTC")
            format.dateFormat = "yyyy-MM-dd"
            guard text.value.count == 10, format.date(from: text.value) != nil else {
                reader.report(.invalidValue(text.value, for: "start", allowed: "a day, yyyy-mm-dd", at: text.location))
                return nil
            }
            start = text.value
        }
        return Budgets.Budget(category: category, subcategory: subcategory, limit: limit, currency: currency.value, period: period,
                              rollover: rollover, start: start, location: location)
    }
}
