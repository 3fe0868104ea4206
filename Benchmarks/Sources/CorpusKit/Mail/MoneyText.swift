/// Amounts written as banks of each country write them, from minor units (no floating point).
enum MoneyText {
    /// "1,23,456.78": Indian grouping, two decimals.
    static func inr(cents: Int) -> String {
        indianGrouping(cents / 100) + "." + pad2(cents % 100)
    }

    /// Indian digit grouping of a whole number: the last three digits, then pairs.
    static func indianGrouping(_ value: Int) -> String {
        let digits = String(value)
        guard digits.count > 3 else { return digits }
        var head = Substring(digits.dropLast(3))
        var parts: [Substring] = []
        while head.count > 2 {
            parts.insert(head.suffix(2), at: 0)
            head = head.dropLast(2)
        }
        if !head.isEmpty { parts.insert(head, at: 0) }
        return parts.joined(separator: ",") + "," + digits.suffix(3)
    }

    /// "1,234.56".
    static func usd(cents: Int) -> String {
        western(cents / 100, separator: ",") + "." + pad2(cents % 100)
    }

    /// "1.234,56".
    static func eur(cents: Int) -> String {
        western(cents / 100, separator: ".") + "," + pad2(cents % 100)
    }

    /// "50.000" or "50.000,00" (gen_mbox.py adds ",00" three times in ten).
    static func idr(_ rupiah: Int, _ random: inout CorpusRandom) -> String {
        western(rupiah, separator: ".") + (random.chance(0.3) ? ",00" : "")
    }

    /// Groups of three digits.
    static func western(_ value: Int, separator: String) -> String {
        let digits = String(value)
        var groups: [Substring] = []
        var rest = Substring(digits)
        while rest.count > 3 {
            groups.insert(rest.suffix(3), at: 0)
            rest = rest.dropLast(3)
        }
        groups.insert(rest, at: 0)
        return groups.joined(separator: separator)
    }
}
