/// Cleans a captured merchant or payee name for display and grouping, keeping its own case.
public enum MerchantNormalizer {
    /// Collapses whitespace (including newlines, NBSP) to single spaces, trims, strips surrounding quotes,
    /// leading `, ; : -`, trailing punctuation (`. , ; : -`) and trailing noise words ("on", "at", "via",
    /// "using", "ref", "Avl", "Avl Bal", "Avl Lmt", "Avl Limit", "Info", any case), repeatedly; a noise
    /// word standing alone is kept. Keeps the merchant's own case: "  CITY REALTY  on " → "CITY REALTY".
    /// Throws `merchant.empty` when nothing is left.
    public static func normalize(_ raw: String) throws(FieldError) -> String {
        var words: [String.UnicodeScalarView] = []
        var current = String.UnicodeScalarView()
        for s in raw.unicodeScalars {
            if NormalizingText.isSpace(s) || s.properties.generalCategory == .control {
                if !current.isEmpty { words.append(current); current = String.UnicodeScalarView() }
            } else {
                current.append(s)
            }
        }
        if !current.isEmpty { words.append(current) }

        var changed = true
        while changed, !words.isEmpty {
            changed = false
            // Surrounding quotes.
            if let first = words.first?.first, let last = words.last?.last, let close = quotePairs[first],
               close == last, words.count > 1 || words[0].count > 1 {
                words[0].removeFirst()
                words[words.count - 1].removeLast()
                words.removeAll { $0.isEmpty }
                changed = true
                continue
            }
            // Leading separators.
            if let first = words.first?.first, leadingPunctuation.contains(first) {
                words[0].removeFirst()
                if words[0].isEmpty { words.removeFirst() }
                changed = true
                continue
            }
            // Trailing punctuation.
            if let last = words.last?.last, trailingPunctuation.contains(last) {
                words[words.count - 1].removeLast()
                if words[words.count - 1].isEmpty { words.removeLast() }
                changed = true
                continue
            }
            // Trailing noise words, never the only word.
            if words.count >= 2 {
                let last = folded(words[words.count - 1])
                if words.count >= 3, noisePairs.contains([folded(words[words.count - 2]), last]) {
                    words.removeLast(2)
                    changed = true
                } else if noiseWords.contains(last) {
                    words.removeLast()
                    changed = true
                }
            }
        }
        guard !words.isEmpty else {
            throw FieldError(.merchantEmpty, "nothing is left of the merchant \"\(raw)\"")
        }
        var result = String.UnicodeScalarView()
        for (index, word) in words.enumerated() {
            if index > 0 { result.append(" ") }
            result.append(contentsOf: word)
        }
        return String(result)
    }

    private static func folded(_ word: String.UnicodeScalarView) -> String {
        NormalizingText.foldedLowercase(word.last == "." ? word.dropLast() : word[...])
    }

    private static let noiseWords: Set<String> = ["on", "at", "via", "using", "ref", "avl", "info"]
    private static let noisePairs: Set<[String]> = [["avl", "bal"], ["avl", "lmt"], ["avl", "limit"]]
    private static let trailingPunctuation: Set<Unicode.Scalar> = [".", ",", ";", ":", "-", "\u{2013}", "\u{2014}"]
    private static let leadingPunctuation: Set<Unicode.Scalar> = [",", ";", ":", "-", "\u{2013}", "\u{2014}"]
    private static let quotePairs: [Unicode.Scalar: Unicode.Scalar] = [
        "\"": "\"", "'": "'", "\u{201C}": "\u{201D}", "\u{2018}": "\u{2019}", "\u{00AB}": "\u{00BB}",
        "\u{201E}": "\u{201C}", "`": "`",
    ]
}
