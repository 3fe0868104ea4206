/// Cleans a captured merchant or payee name for display and grouping, keeping its own case.
public enum MerchantNormalizer {
    /// Collapses whitespace (including newlines, NBSP) to single spaces, trims, strips surrounding quotes,
    /// leading `, ; : - . _`, trailing punctuation and padding (`. , ; : - _ *`, but not the dot of a
    /// closing initial, "Carlos Orbegoso L.", or of a company suffix, "Midland Bank Ltd.") and trailing noise words ("on", "at", "via",
    /// "using", "ref", "Avl", "Avl Bal", "Avl Lmt", "Avl Limit", "Info", any case), repeatedly; a noise
    /// word standing alone is kept. Keeps the merchant's own case: "  CITY REALTY  on " → "CITY REALTY".
    /// Throws `merchant.empty` when nothing is left.
    ///
    /// Works on the UTF-8 bytes, words being byte ranges: this runs for every transaction, and
    /// building a scalar view per word cost more than the match that captured the merchant.
    public static func normalize(_ raw: String) throws(FieldError) -> String {
        let result = raw.withUTF8Bytes { bytes -> String? in
            var words = Words(bytes)
            words.clean()
            return words.joined(original: raw)
        }
        guard let result else {
            throw FieldError(.merchantEmpty, "nothing is left of the merchant \"\(raw)\"")
        }
        return result
    }

    /// The words of a merchant as byte ranges into its UTF-8; cleaning only ever trims the first
    /// word's start, the last word's end, or drops words at either end.
    private struct Words {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Byte offsets of each word, in order.
        var spans: [(start: Int, end: Int)] = []
        /// The words still kept are `first..<last`.
        var first = 0
        var last = 0

        /// Splits on spaces (see `NormalizingText.isSpace`) and control characters.
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            spans.reserveCapacity(8)
            var wordStart: Int?
            var index = 0
            while index < bytes.count {
                let (scalar, length) = NormalizingText.scalar(in: bytes, at: index)
                if NormalizingText.isSpace(scalar) || Self.isControl(scalar) {
                    if let start = wordStart {
                        spans.append((start, index))
                        wordStart = nil
                    }
                } else if wordStart == nil {
                    wordStart = index
                }
                index += length
            }
            if let start = wordStart { spans.append((start, bytes.count)) }
            last = spans.count
        }

        var isEmpty: Bool { first == last }
        var count: Int { last - first }

        /// General category Cc: C0 controls, DEL and C1 controls.
        private static func isControl(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x20 || (s.value >= 0x7F && s.value <= 0x9F)
        }

        /// The first scalar of word `w` and its length in bytes.
        func firstScalar(_ w: Int) -> (Unicode.Scalar, Int) { NormalizingText.scalar(in: bytes, at: spans[w].start) }

        /// The last scalar of word `w` and its length in bytes.
        func lastScalar(_ w: Int) -> (Unicode.Scalar, Int) { NormalizingText.scalar(in: bytes, before: spans[w].end) }

        /// Drops empty words at both ends (only those can become empty).
        mutating func dropEmptyEnds() {
            while first < last, spans[first].start == spans[first].end { first += 1 }
            while last > first, spans[last - 1].start == spans[last - 1].end { last -= 1 }
        }

        /// The cleaning loop of `normalize`, in the same order.
        mutating func clean() {
            var changed = true
            while changed, !isEmpty {
                changed = false
                let (head, headLength) = firstScalar(first)
                let (tail, tailLength) = lastScalar(last - 1)
                // Surrounding quotes.
                if let close = MerchantNormalizer.closingQuote(head), close == tail,
                   count > 1 || spans[first].end - spans[first].start > headLength {
                    spans[first].start += headLength
                    spans[last - 1].end -= tailLength
                    dropEmptyEnds()
                    changed = true
                    continue
                }
                // Leading separators.
                if MerchantNormalizer.isLeadingPunctuation(head) {
                    spans[first].start += headLength
                    if spans[first].start == spans[first].end { first += 1 }
                    changed = true
                    continue
                }
                // Trailing punctuation, but not the dot of a name's initial ("Carlos Orbegoso L.")
                // or of a company suffix ("Midland Bank Ltd.").
                if MerchantNormalizer.isTrailingPunctuation(tail), !isInitial(last - 1), !isCompanySuffix(last - 1),
                   !isNarrationSeparator(tail, last - 1) {
                    spans[last - 1].end -= tailLength
                    if spans[last - 1].start == spans[last - 1].end { last -= 1 }
                    changed = true
                    continue
                }
                // Trailing noise words, never the only word.
                if count >= 2 {
                    let lastWord = folded(last - 1)
                    if count >= 3, MerchantNormalizer.isNoisePair(folded(last - 2), lastWord) {
                        last -= 2
                        changed = true
                    } else if MerchantNormalizer.isNoiseWord(lastWord) {
                        last -= 1
                        changed = true
                    }
                }
            }
        }

        /// Whether word `w`, not the only one, is an initial: one capital letter and a dot.
        func isInitial(_ w: Int) -> Bool {
            guard count >= 2, spans[w].end - spans[w].start >= 2, bytes[spans[w].end - 1] == UInt8(ascii: ".") else { return false }
            let (letter, length) = firstScalar(w)
            return spans[w].start + length == spans[w].end - 1 && letter.properties.isUppercase
        }

        /// Whether word `w`, not the only one, is a company suffix written with its dot: "Ltd.",
        /// "Inc.", "Co.", "Corp.", "Bhd.", "Pty.", "Pvt.", "Plc.".
        func isCompanySuffix(_ w: Int) -> Bool {
            guard count >= 2, bytes[spans[w].end - 1] == UInt8(ascii: ".") else { return false }
            switch folded(w) {
            case "ltd", "inc", "co", "corp", "bhd", "pty", "pvt", "plc": return true
            default: return false
            }
        }

        /// Whether `tail`, ending word `w`, is a `*` that separates the fields of a narration
        /// ("BIL*INFT*FFF0000000*", the last field empty) rather than padding ("Shopify*").
        func isNarrationSeparator(_ tail: Unicode.Scalar, _ w: Int) -> Bool {
            tail == "*" && bytes[spans[w].start..<(spans[w].end - 1)].contains(UInt8(ascii: "*"))
        }

        /// Word `w` without one trailing dot, folded like `NormalizingText.foldedLowercase`.
        /// ASCII words (all noise words are) are folded here; others take the general path.
        func folded(_ w: Int) -> String {
            var end = spans[w].end
            if end > spans[w].start, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
            let word = UnsafeBufferPointer(rebasing: bytes[spans[w].start..<end])
            guard word.allSatisfy({ $0 < 0x80 }) else {
                return NormalizingText.foldedLowercase(String(decoding: word, as: UTF8.self).unicodeScalars)
            }
            // Noise words are at most 5 letters: a longer word needs no folding to compare.
            guard word.count <= 5 else { return "" }
            return NormalizingText.asciiLowercased(word)
        }

        /// The kept words joined by single spaces; `original` itself when nothing changed.
        func joined(original: String) -> String? {
            guard !isEmpty else { return nil }
            if count == 1, spans[first].start == 0, spans[first].end == bytes.count { return original }
            var length = count - 1
            for w in first..<last { length += spans[w].end - spans[w].start }
            return String(unsafeUninitializedCapacity: length) { out in
                var at = 0
                for w in first..<last {
                    if w > first {
                        out[at] = UInt8(ascii: " ")
                        at += 1
                    }
                    let word = UnsafeBufferPointer(rebasing: bytes[spans[w].start..<spans[w].end])
                    _ = UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(from: word)
                    at += word.count
                }
                return at
            }
        }
    }

    private static func isNoiseWord(_ word: String) -> Bool {
        switch word {
        case "on", "at", "via", "using", "ref", "avl", "info": true
        default: false
        }
    }

    private static func isNoisePair(_ first: String, _ second: String) -> Bool {
        first == "avl" && (second == "bal" || second == "lmt" || second == "limit")
    }

    /// Punctuation, and the filler a card network's merchant field pads with ("SUDARSHAN FAMILY_",
    /// "Shopify*"), that ends no name.
    private static func isTrailingPunctuation(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case ".", ",", ";", ":", "-", "_", "*", "\u{2013}", "\u{2014}": true
        default: false
        }
    }

    /// What starts no name: separators, and the dots an SMS puts before a cut field ("..SUDARSHAN").
    private static func isLeadingPunctuation(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case ",", ";", ":", "-", ".", "_", "\u{2013}", "\u{2014}": true
        default: false
        }
    }

    /// The quote that closes `open`, when `open` is an opening quote.
    private static func closingQuote(_ open: Unicode.Scalar) -> Unicode.Scalar? {
        switch open {
        case "\"": "\""
        case "'": "'"
        case "\u{201C}": "\u{201D}"
        case "\u{2018}": "\u{2019}"
        case "\u{00AB}": "\u{00BB}"
        case "\u{201E}": "\u{201C}"
        case "`": "`"
        default: nil
        }
    }
}
