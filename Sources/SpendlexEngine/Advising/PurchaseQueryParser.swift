import Foundation

/// Reads a plain English or Spanish purchase query into a `PurchaseRequest`:
/// "groceries at Whole Foods for $150", "cena en Nobu 200 dólares", "gas", "Netflix subscription".
/// The merchant is what follows "at", "en", "from", "@" (up to "for", "por", "para", "with",
/// "con" or the amount); the amount is a number with a currency symbol, code or word; the
/// remaining words may name a category.
public enum PurchaseQueryParser {
    static let merchantMarks: Set<String> = ["at", "en", "from", "@"]
    static let stopWords: Set<String> = ["for", "por", "para", "with", "con", "of", "around", "about", "unos", "like"]
    static let currencyWords: [String: String] = [
        "$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD", "dólar": "USD", "dólares": "USD",
        "dolar": "USD", "dolares": "USD",
        "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
        "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "libras": "GBP",
        "₹": "INR", "inr": "INR", "rs": "INR", "rs.": "INR", "rupee": "INR", "rupees": "INR", "rupias": "INR",
        "mxn": "MXN", "pesos": "MXN", "peso": "MXN",
        "cad": "CAD", "aud": "AUD", "jpy": "JPY", "¥": "JPY", "yen": "JPY",
    ]
    static let symbols: [(String, String)] = [("us$", "USD"), ("rs.", "INR"), ("rs", "INR"), ("$", "USD"), ("€", "EUR"),
                                              ("£", "GBP"), ("₹", "INR"), ("¥", "JPY")]
    static let onlineWords: Set<String> = ["online", "en línea", "en linea", "internet", "web"]

    /// Parses a query. Never fails: what it cannot read stays in `words`.
    public static func parse(_ query: String) -> PurchaseRequest {
        var request = PurchaseRequest()
        var tokens = query.split(whereSeparator: \.isWhitespace).map(String.init)
        var used = Set<Int>()

        // Money: "$150", "150$", "150 dollars", "USD 150", "Rs.500", "200 dólares".
        for (index, raw) in tokens.enumerated() where request.amount == nil {
            let token = raw.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ",;!?"))
            if let (amount, currency) = money(token) {
                request.amount = amount
                request.currency = currency
                used.insert(index)
                if currency == nil, index + 1 < tokens.count, let code = currencyWords[tokens[index + 1].lowercased()] {
                    request.currency = code
                    used.insert(index + 1)
                }
                if request.currency == nil, index > 0, let code = currencyWords[tokens[index - 1].lowercased()] {
                    request.currency = code
                    used.insert(index - 1)
                }
            }
        }
        // Online.
        let lowered = query.lowercased()
        request.online = onlineWords.contains { lowered.contains($0) }

        // Merchant: after a mark, up to a stop word or the amount.
        if let mark = tokens.indices.first(where: { merchantMarks.contains(tokens[$0].lowercased()) && !used.contains($0)
            && $0 + 1 < tokens.count && !used.contains($0 + 1) }) {
            var end = mark + 1
            while end < tokens.count, !used.contains(end), !stopWords.contains(tokens[end].lowercased()) { end += 1 }
            let name = tokens[(mark + 1)..<end].joined(separator: " ")
                .trimmingCharacters(in: CharacterSet(charactersIn: ".,;!?"))
            if !name.isEmpty {
                request.merchant = name
                for index in mark..<end { used.insert(index) }
            }
        }
        tokens = tokens.enumerated().filter { !used.contains($0.offset) && !stopWords.contains($0.element.lowercased()) }
            .map(\.element)
        request.words = tokens.joined(separator: " ")
        return request
    }

    /// A money token: digits with optional grouping and decimals, with an optional currency
    /// symbol before or after. Amounts are exact decimals.
    public static func money(_ token: String) -> (Decimal, String?)? {
        var text = Substring(token)
        var currency: String?
        for (symbol, code) in symbols {
            if text.hasPrefix(symbol) { text = text.dropFirst(symbol.count); currency = code; break }
            if text.hasSuffix(symbol), symbol.count == 1 { text = text.dropLast(symbol.count); currency = code; break }
        }
        let digits = text.replacingOccurrences(of: ",", with: "")
        guard let first = digits.first, first.isNumber,
              digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1,
              let amount = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        return (amount, currency)
    }
}
