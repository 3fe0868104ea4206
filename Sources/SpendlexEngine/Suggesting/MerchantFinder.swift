import Foundation
import PCRE2
import SpendlexRules

/// Finds the merchant of an alert: the name after "at", "to", "from", "bei", "chez", "en", "di",
/// "para", "towards", "an" or "on", up to the next stop word, lower-case word, punctuation or
/// slot. "at"-like words win over "to"-like ones, which win over "on" ("On HDFC Bank Card 0000
/// At EAZYDINE On …" names EAZYDINE).
enum MerchantFinder {
    /// The cue words, ranked: lower is stronger.
    static let cueRanks: [String: Int] = [
        "at": 0, "bei": 0, "chez": 0, "di": 0, "en": 0, "an": 0,
        "to": 1, "from": 1, "towards": 1, "para": 1,
        "on": 2,
    ]

    // A constant pattern known to compile.
    private static let cuePattern = try! Pattern(#"(?i)\b(?:at|to|from|bei|chez|en|di|para|towards|on|an) +"#)

    /// Words that end a merchant name, compared in lower case.
    private static let stopWords: Set<String> = [
        "on", "at", "to", "from", "with", "via", "using", "for", "by", "in", "is", "was", "were", "has", "have",
        "had", "been", "ref", "date", "dated", "am", "um", "le", "el", "your", "you", "avl", "bal", "balance",
        "info", "txn", "and", "or", "the", "a", "my", "our", "this", "that", "ihr", "ihre", "ihrem", "ihrer",
        "votre", "vos", "su", "tu", "sua", "seu", "anda", "mit", "über", "uber", "pour", "par", "por", "com",
        "pada", "tanggal", "sebesar", "und", "et", "y", "e", "de", "der", "die", "das", "of",
    ]

    /// Names that are not merchants: the account holder's own card or account.
    private static let accountWords: Set<String> = [
        "card", "account", "a/c", "acct", "ac", "karte", "konto", "carte", "compte", "tarjeta", "cuenta", "conta",
        "cartão", "kartu", "rekening", "wallet",
    ]

    /// The merchant slot, or nil. `end` is where the alert's tail starts; `slots` are the spans
    /// already recognised (sorted); a payment address right after a cue word is the merchant.
    static func find(in bytes: [UInt8], end: Int, slots: [GeneralizedMessage.Slot],
                     vpas: [Range<Int>]) -> GeneralizedMessage.Slot? {
        let scratch = MatchScratch()
        var best: (rank: Int, slot: GeneralizedMessage.Slot)?
        var offset = 0
        while offset < end, let match = try? cuePattern.firstMatch(in: bytes, from: offset, scratch: scratch) {
            offset = match.range.upperBound
            guard match.range.upperBound < end,
                  !slots.contains(where: { $0.range.overlaps(match.range) }) else { continue }
            let word = String(decoding: bytes[match.range], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces).lowercased()
            guard let rank = cueRanks[word], rank < (best?.rank ?? Int.max) else { continue }
            let nameStart = skippingLabel(in: bytes, from: match.range.upperBound, limit: end)
            if let vpa = vpas.first(where: { $0.lowerBound == nameStart }) {
                best = (rank, .init(form: .grammar("VPA"), field: .merchant, range: vpa,
                                    raw: String(decoding: bytes[vpa], as: UTF8.self)))
                continue
            }
            if slots.contains(where: { $0.range.lowerBound == nameStart }) { continue }
            let limit = min(end, slots.first { $0.range.lowerBound > nameStart }?.range.lowerBound ?? end)
            if let range = name(in: bytes, from: nameStart, limit: limit) {
                best = (rank, .init(form: .freeText, field: .merchant, range: range,
                                    raw: String(decoding: bytes[range], as: UTF8.self)))
            }
        }
        return best?.slot
    }

    /// The cue word just before a merchant starting at `offset`, lower-cased.
    static func cue(before offset: Int, in bytes: [UInt8]) -> String? {
        var index = offset
        while index > 0 && bytes[index - 1] == UInt8(ascii: " ") { index -= 1 }
        let wordEnd = index
        while index > 0 && PatternLiteral.isWordByte(bytes[index - 1]) { index -= 1 }
        let word = String(decoding: bytes[index..<wordEnd], as: UTF8.self).lowercased()
        return cueRanks[word] != nil ? word : nil
    }

    /// Words that label the name after a cue ("to VPA john@upi", "from payee: ACME"), skipped.
    private static let labels: Set<String> = [
        "vpa", "upi", "merchant", "payee", "beneficiary", "händler", "empfänger", "bénéficiaire", "beneficiario",
    ]

    /// `from` moved past a label word, its colon and spaces, when one is there.
    private static func skippingLabel(in bytes: [UInt8], from start: Int, limit: Int) -> Int {
        var end = start
        while end < limit && PatternLiteral.isWordByte(bytes[end]) { end += 1 }
        guard labels.contains(String(decoding: bytes[start..<end], as: UTF8.self).lowercased()) else { return start }
        if end < limit && bytes[end] == UInt8(ascii: ":") { end += 1 }
        guard end < limit && bytes[end] == UInt8(ascii: " ") else { return start }
        while end < limit && bytes[end] == UInt8(ascii: " ") { end += 1 }
        return end
    }

    /// A name in quotes, without them: `"ACME* CORP (US)"`, `“Café”`, `'Bob''s'`.
    private static func quotedName(in bytes: [UInt8], from start: Int, limit: Int) -> Range<Int>? {
        let pairs: [([UInt8], [UInt8])] = [(Array("\"".utf8), Array("\"".utf8)), (Array("“".utf8), Array("”".utf8)),
                                           (Array("'".utf8), Array("'".utf8)), (Array("«".utf8), Array("»".utf8))]
        for (open, close) in pairs where bytes[start...].starts(with: open) {
            let inner = start + open.count
            var index = inner
            while index + close.count <= limit {
                if bytes[index..<(index + close.count)].elementsEqual(close) {
                    return index > inner && index - inner <= 80 ? inner..<index : nil
                }
                if bytes[index] == UInt8(ascii: "\n") { return nil }
                index += 1
            }
            return nil
        }
        return nil
    }

    /// The name's byte range: tokens separated by single spaces, the first anything but a stop
    /// word or a bare number, the next ones not lower-case and not stop words; at most 8.
    private static func name(in bytes: [UInt8], from start: Int, limit: Int) -> Range<Int>? {
        guard start < limit else { return nil }
        if let quoted = quotedName(in: bytes, from: start, limit: limit) { return quoted }
        var end = start
        var tokens = 0
        var index = start
        while index < limit && tokens < 8 {
            var tokenEnd = index
            while tokenEnd < limit && !PatternLiteral.isSpace(bytes[tokenEnd]) { tokenEnd += 1 }
            var kept = tokenEnd
            while kept > index && ".,;:!?".utf8.contains(bytes[kept - 1]) { kept -= 1 }
            let word = String(decoding: bytes[index..<kept], as: UTF8.self)
            let lower = word.lowercased()
            if word.isEmpty || stopWords.contains(lower) { break }
            if tokens == 0 && word.utf8.allSatisfy({ PatternLiteral.isDigit($0) || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") }) {
                return nil
            }
            if tokens > 0, let first = word.unicodeScalars.first, first.properties.isLowercase { break }
            if accountWords.contains(lower) { return nil }
            end = kept
            tokens += 1
            if kept < tokenEnd || tokenEnd >= limit || bytes[tokenEnd] != UInt8(ascii: " ") { break }
            index = tokenEnd + 1
        }
        return tokens > 0 ? start..<end : nil
    }
}
