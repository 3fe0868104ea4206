import Foundation
import SpendlexEngine
import SpendlexRules

/// A question about the ledger, read deterministically from English or Spanish words (no model, no
/// network): what is asked (`Intent`), over which days, of which category or merchant.
public struct Question: Sendable, Equatable {
    /// What is asked.
    public enum Intent: String, Sendable, Equatable {
        /// Money spent: debits less the refunds and reversals that gave it back.
        case spending
        /// Money received that is not spending given back (salary, interest, transfers in).
        case income
        /// The largest purchases, biggest first.
        case biggest
        /// How many transactions.
        case count
        /// Income and spending side by side, month by month.
        case incomeVsSpending = "income_vs_spending"
    }

    public var intent: Intent
    /// The first day, inclusive; nil: from the start.
    public var from: LocalDate?
    /// The last day, inclusive; nil: to the end.
    public var to: LocalDate?
    /// A declared category or subcategory name.
    public var category: String?
    /// Words of a merchant's name ("netflix").
    public var merchant: String?
    /// Whether the question wrote a word of `merchant` with a capital past its first word ("what did
    /// I pay Ravi"): a name, found by its letters only, never read by meaning ("Ravi" is not "RAPPI").
    public var merchantIsAName = false
    /// How many for `biggest`.
    public var limit = 5
}

/// Why a question could not be read, with examples of what can be.
public struct QuestionRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

/// Reads questions. The words it knows (periods, month names, what is asked, category names
/// in Spanish) are the grammar of two languages, not knowledge of any bank; categories and
/// subcategories are matched by the names the categories file declares.
public enum QuestionReader {
    /// Examples shown when a question cannot be read.
    public static let examples = [
        "how much did I spend on groceries in March?", "biggest purchases last month", "what did I pay Netflix this year",
        "income vs spending by month", "how many transactions at Amazon in 2026?", "¿cuánto gasté en restaurantes el mes pasado?",
        "mayores compras de este año", "¿cuánto pagué a Netflix este año?", "ingresos vs gastos por mes",
    ]

    /// Reads `text` as of `today`; categories resolved against `categories`.
    public static func read(_ text: String, today: LocalDate, categories: CategoryList) -> Result<Question, QuestionRefusal> {
        var words = tokens(text)
        guard !words.isEmpty else { return .failure(refusal(text)) }
        let period = readPeriod(&words, today: today)
        guard let intent = readIntent(words) else { return .failure(refusal(text)) }
        var question = Question(intent: intent, from: period?.from, to: period?.to)
        if intent == .biggest, let number = words.lazy.compactMap({ Int($0) }).first(where: { (1...100).contains($0) }) {
            question.limit = number
        }
        // "income" names what is asked, not a category to filter on.
        if intent != .incomeVsSpending {
            question.category = readCategory(words, categories: categories)
            if intent == .income, question.category == categories.resolve("Income") { question.category = nil }
        }
        if question.category == nil, intent != .incomeVsSpending, let merchant = readMerchant(words) {
            question.merchant = merchant
            question.merchantIsAName = capitalized(text).contains { Set(tokens(merchant)).contains($0) }
        }
        return .success(question)
    }

    /// The words of `text` written with a capital, past its first word, folded as `tokens` folds them.
    static func capitalized(_ text: String) -> [String] {
        let written = text.split { !($0.isLetter || $0.isNumber || $0 == "&" || $0 == "-" || $0 == "'") }
        return written.dropFirst().filter { $0.first?.isUppercase == true }.flatMap { tokens(String($0)) }
    }

    static func refusal(_ text: String) -> QuestionRefusal {
        QuestionRefusal(description: "I can't answer that: \"\(text)\". I read questions such as: "
                        + examples.map { "\"\($0)\"" }.joined(separator: "; "))
    }

    /// Lower-case words without accents or punctuation ("¿Cuánto gasté?" → ["cuanto", "gaste"]).
    static func tokens(_ text: String) -> [String] {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .lowercased()
        var words: [String] = []
        var current = ""
        for character in folded {
            if character.isLetter || character.isNumber || character == "&" || character == "-" || character == "'" {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "-'")) }.filter { !$0.isEmpty }
    }

    // MARK: - Periods

    static let months: [String: Int] = {
        var table: [String: Int] = [:]
        let english = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                       "november", "december"]
        let spanish = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
                       "noviembre", "diciembre"]
        for (index, name) in english.enumerated() {
            table[name] = index + 1
            table[String(name.prefix(3))] = index + 1
        }
        for (index, name) in spanish.enumerated() { table[name] = index + 1 }
        table["setiembre"] = 9
        table["sept"] = 9
        return table
    }()

    /// Finds a period in `words` and removes its words; nil when none is named (all time).
    static func readPeriod(_ words: inout [String], today: LocalDate) -> (from: LocalDate?, to: LocalDate?)? {
        func remove(_ range: Range<Int>) { words.removeSubrange(range) }
        func find(_ phrase: [String]) -> Range<Int>? {
            guard phrase.count <= words.count else { return nil }
            for start in 0...(words.count - phrase.count) where Array(words[start..<start + phrase.count]) == phrase {
                return start..<start + phrase.count
            }
            return nil
        }
        let year = today.year, month = today.month
        let fixed: [([String], () -> (LocalDate?, LocalDate?))] = [
            (["today"], { (today, today) }), (["hoy"], { (today, today) }),
            (["yesterday"], { let day = shift(today, -1); return (day, day) }),
            (["ayer"], { let day = shift(today, -1); return (day, day) }),
            (["this", "week"], { (weekStart(today), today) }), (["esta", "semana"], { (weekStart(today), today) }),
            (["last", "week"], { let start = shift(weekStart(today), -7); return (start, shift(start, 6)) }),
            (["semana", "pasada"], { let start = shift(weekStart(today), -7); return (start, shift(start, 6)) }),
            (["this", "month"], { (LocalDate(year: year, month: month, day: 1), today) }),
            (["este", "mes"], { (LocalDate(year: year, month: month, day: 1), today) }),
            (["last", "month"], { monthRange(year: month == 1 ? year - 1 : year, month: month == 1 ? 12 : month - 1) }),
            (["mes", "pasado"], { monthRange(year: month == 1 ? year - 1 : year, month: month == 1 ? 12 : month - 1) }),
            (["this", "year"], { (LocalDate(year: year, month: 1, day: 1), today) }),
            (["este", "ano"], { (LocalDate(year: year, month: 1, day: 1), today) }),
            (["last", "year"], { (LocalDate(year: year - 1, month: 1, day: 1), LocalDate(year: year - 1, month: 12, day: 31)) }),
            (["ano", "pasado"], { (LocalDate(year: year - 1, month: 1, day: 1), LocalDate(year: year - 1, month: 12, day: 31)) }),
        ]
        for (phrase, range) in fixed {
            if let found = find(phrase) {
                // "el mes pasado", "la semana pasada": the article goes with the period.
                var lower = found.lowerBound
                if lower > 0, ["el", "la", "del", "de", "in", "during", "en", "durante"].contains(words[lower - 1]) { lower -= 1 }
                remove(lower..<found.upperBound)
                return range()
            }
        }
        // "last 30 days", "past 3 months", "los ultimos 30 dias".
        for (index, word) in words.enumerated() where ["last", "past", "ultimos", "ultimas"].contains(word) {
            guard index + 2 < words.count, let count = Int(words[index + 1]), count > 0 else { continue }
            let unit = words[index + 2]
            let days: Int
            switch unit {
            case "days", "day", "dias", "dia": days = count
            case "weeks", "week", "semanas", "semana": days = count * 7
            case "months", "month", "meses", "mes": days = count * 30
            default: continue
            }
            var lower = index
            if lower > 0, ["the", "los", "las", "in", "en"].contains(words[lower - 1]) { lower -= 1 }
            remove(lower..<index + 3)
            return (shift(today, -(days - 1)), today)
        }
        // "since March", "desde enero".
        for (index, word) in words.enumerated() where ["since", "desde"].contains(word) {
            guard index + 1 < words.count, let named = months[words[index + 1]] else { continue }
            var end = index + 2
            var start = named <= month ? year : year - 1
            if end < words.count, let explicit = Int(words[end]), (1900...2200).contains(explicit) { start = explicit; end += 1 }
            remove(index..<end)
            return (LocalDate(year: start, month: named, day: 1), today)
        }
        // "in March", "March 2026", "en marzo de 2025", "in 2025".
        for (index, word) in words.enumerated() {
            if let named = months[word], word.count >= 3, !(word == "may" && index > 0 && ["i", "you", "we"].contains(words[index - 1])) {
                var end = index + 1
                var chosen = named <= month ? year : year - 1
                if end < words.count, words[end] == "de", end + 1 < words.count, let explicit = Int(words[end + 1]) {
                    chosen = explicit
                    end += 2
                } else if end < words.count, let explicit = Int(words[end]), (1900...2200).contains(explicit) {
                    chosen = explicit
                    end += 1
                }
                var lower = index
                if lower > 0, ["in", "during", "for", "en", "durante", "de", "of"].contains(words[lower - 1]) { lower -= 1 }
                remove(lower..<end)
                return monthRange(year: chosen, month: named)
            }
            if let explicit = Int(word), (1900...2200).contains(explicit), word.count == 4 {
                var lower = index
                if lower > 0, ["in", "during", "for", "en", "durante", "de", "of"].contains(words[lower - 1]) { lower -= 1 }
                remove(lower..<index + 1)
                return (LocalDate(year: explicit, month: 1, day: 1), LocalDate(year: explicit, month: 12, day: 31))
            }
        }
        return nil
    }

    static func weekStart(_ day: LocalDate) -> LocalDate {
        // Monday: 1970-01-01 was a Thursday.
        let weekday = ((day.daysSinceEpoch % 7) + 7 + 3) % 7  // 0 = Monday
        return day.adding(days: -weekday) ?? day
    }

    static func shift(_ day: LocalDate?, _ days: Int) -> LocalDate? { day.flatMap { $0.adding(days: days) } }

    static func monthRange(year: Int, month: Int) -> (LocalDate?, LocalDate?) {
        let first = LocalDate(year: year, month: month, day: 1)
        let next = month == 12 ? LocalDate(year: year + 1, month: 1, day: 1) : LocalDate(year: year, month: month + 1, day: 1)
        return (first, shift(next, -1))
    }

    // MARK: - Intents, categories, merchants

    static func readIntent(_ words: [String]) -> Question.Intent? {
        let set = Set(words)
        let text = " " + words.joined(separator: " ") + " "
        if (set.contains("income") || set.contains("earnings")) && (set.contains("spending") || set.contains("expenses") || set.contains("spend"))
            || set.contains("ingresos") && set.contains("gastos") {
            return .incomeVsSpending
        }
        if !set.isDisjoint(with: ["biggest", "largest", "top", "mayores", "expensive", "caras", "caros"])
            || text.contains(" mas grandes ") {
            return .biggest
        }
        if text.contains(" how many ") || !set.isDisjoint(with: ["cuantas", "cuantos"]) { return .count }
        if !set.isDisjoint(with: ["earn", "earned", "received", "receive", "income", "gane", "recibi", "ingrese", "ingresos", "cobre"])
            || text.contains(" get paid ") || text.contains(" got paid ") {
            return .income
        }
        if !set.isDisjoint(with: ["spend", "spent", "spending", "pay", "paid", "cost", "gaste", "gastado", "gasto", "gastos",
                                  "pague", "pagado", "costo"]) {
            return .spending
        }
        return nil
    }

    /// Category words in Spanish (and a few English ones) for the declared names; a declared name
    /// is matched as written, in any case.
    static let categoryWords: [String: String] = [
        "food": "Food & Dining", "dining": "Food & Dining", "comida a domicilio": "Food Delivery", "eating out": "Restaurants", "comida": "Food & Dining",
        "supermercado": "Groceries", "supermercados": "Groceries", "despensa": "Groceries", "mercado": "Groceries",
        "restaurantes": "Restaurants", "restaurante": "Restaurants", "cafe": "Coffee", "transporte": "Transport",
        "gasolina": "Fuel", "combustible": "Fuel", "taxis": "Taxi & Rideshare", "taxi": "Taxi & Rideshare",
        "viajes": "Travel", "viaje": "Travel", "hoteles": "Hotels", "vuelos": "Airlines", "flights": "Airlines",
        "salud": "Health", "farmacia": "Pharmacy", "medicinas": "Pharmacy", "entretenimiento": "Entertainment",
        "servicios": "Bills & Utilities", "bills": "Bills & Utilities", "utilities": "Bills & Utilities",
        "luz": "Electricity", "electricidad": "Electricity", "agua": "Water", "telefono": "Mobile & Internet",
        "educacion": "Education", "efectivo": "Cash", "cajero": "ATM", "comisiones": "Fees & Charges", "fees": "Fees & Charges",
        "ropa": "Clothing", "electronica": "Electronics", "hogar": "Home", "sueldo": "Salary", "salario": "Salary",
        "nomina": "Salary", "intereses": "Interest", "streaming": "Streaming",
    ]

    static func readCategory(_ words: [String], categories: CategoryList) -> String? {
        let text = " " + words.joined(separator: " ") + " "
        // The longest declared name first ("food delivery" before "food").
        let declared = categories.allNames.sorted { $0.count > $1.count }
        for name in declared {
            let key = tokens(name).joined(separator: " ")
            if !key.isEmpty, text.contains(" \(key) ") || text.contains(" \(key)s ") { return name }
        }
        for (word, name) in categoryWords.sorted(by: { $0.key.count > $1.key.count }) where text.contains(" \(word) ") {
            if let resolved = categories.resolve(name) { return resolved }
        }
        return nil
    }

    /// Words that are never a merchant's name.
    static let stopWords: Set<String> = [
        "how", "much", "did", "do", "i", "we", "my", "me", "what", "have", "has", "spend", "spent", "spending", "pay", "paid",
        "to", "on", "at", "for", "the", "a", "an", "in", "of", "total", "by", "month", "per", "all", "many", "transactions",
        "purchases", "payments", "cost", "cuanto", "cuanta", "gaste", "gastado", "he", "en", "a", "le", "les", "pague", "pagado",
        "de", "del", "el", "la", "los", "las", "mis", "mi", "por", "total", "compras", "pagos", "transacciones", "did", "with",
        "is", "was", "and", "y", "que", "this", "so", "far", "far", "money", "dinero", "spend?", "hice", "realice", "veces",
        "times", "how", "ive",
    ]

    /// The merchant a question names: the words after "at", "pay", "to", "on" (or "a", "en"),
    /// without the question's own words.
    static func readMerchant(_ words: [String]) -> String? {
        let markers: Set<String> = ["at", "pay", "paid", "to", "on", "from", "a", "en", "de"]
        guard let index = words.lastIndex(where: { markers.contains($0) }) ?? nil else { return nil }
        let rest = words[(index + 1)...].filter { !stopWords.contains($0) }
        guard !rest.isEmpty else { return nil }
        return rest.joined(separator: " ")
    }
}
