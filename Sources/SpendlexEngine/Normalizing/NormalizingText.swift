import Foundation

/// Character classes and small text operations shared by the field normalizers.
///
/// Everything here works on Unicode scalars or UTF-8 bytes, without regular expressions. The
/// byte helpers take the bytes of a `String`, which are always valid UTF-8.
package enum NormalizingText {
    /// Spaces banks put inside and around fields: ASCII whitespace, NBSP, narrow NBSP, thin and
    /// other typographic spaces, the ideographic space, and zero-width joiners/BOM left by HTML.
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029,
             0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// A space that may group digits inside a number: space, NBSP, narrow NBSP, thin and figure spaces.
    static func isDigitGroupSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0xA0, 0x202F, 0x2009, 0x2007, 0x2008, 0x200A: return true
        default: return false
        }
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    /// Whether every byte of `text` is ASCII: eight bytes at a time, where the string's bytes are.
    /// It runs on every field of every transaction (the normalizers' fast paths), and
    /// `utf8.contains(where:)` cost 0.7% of a batch run in a byte-by-byte loop.
    static func isASCII(_ text: String) -> Bool { !hasByte(text, atLeast: 0x80) }

    /// Whether a byte of `text` is `threshold` (0x80 or more) or above, eight bytes at a time. For
    /// 0xCC: whether a scalar from U+0300 on is there (the lead byte of U+0300 is 0xCC; the Latin
    /// letters with accents before it lead with 0xC2–0xCB).
    static func hasByte(_ text: String, atLeast threshold: UInt8) -> Bool {
        text.withUTF8Bytes { bytes in firstByte(in: bytes, atLeast: threshold, from: 0) != nil }
    }

    /// The index of the first byte at or after `start` that is `threshold` (0x80 or more) or
    /// above; nil when there is none. Eight bytes at a time, then the byte within them.
    static func firstByte(in bytes: UnsafeBufferPointer<UInt8>, atLeast threshold: UInt8, from start: Int) -> Int? {
        precondition(threshold >= 0x80)
        // For a byte b with its high bit set, (b & 0x7F) + (0x100 - threshold) has bit 7 set
        // exactly when b >= threshold; at most 0x7F + 0x80, so no carry reaches the next byte.
        let add = UInt64(0x100 - Int(threshold)) &* 0x0101_0101_0101_0101
        var index = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ add) & word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
        }
        while index < count {
            if bytes[index] >= threshold { return index }
            index += 1
        }
        return nil
    }

    /// `text` in Unicode normalization form C: "e" and a combining acute become "é", conjoining
    /// Hangul jamo a syllable, so that the rules (written composed) read a decomposed message
    /// (as macOS and some phones store text). `text` itself when it holds nothing to compose: the
    /// common case costs one pass over the bytes, and one over the scalars only when one of them
    /// is U+0300 or above.
    package static func composed(_ text: String) -> String {
        // Nothing from U+0300 on (combining marks, Hangul jamo): nothing to compose. Most text,
        // accented Latin included, ends here after one pass eight bytes at a time.
        // Only the scalars from U+0300 on are decoded and looked at: a body with a "₹" or a "€"
        // in it is not read scalar by scalar.
        // Also noted: whether a scalar from U+0640 to U+067F (lead byte 0xD9) is there, which may be
        // one of Arabic's optional marks (`withoutArabicMarks`).
        var arabic = false
        let decomposed = text.withUTF8Bytes { bytes in
            var index = 0
            while let lead = firstByte(in: bytes, atLeast: 0xCC, from: index) {
                // U+2000–U+20BF (E2 80–82: punctuation such as "’" and "–", and the currency signs
                // "₹", "€"), common in mail and never combining: passed over without a look-up.
                if bytes[lead] == 0xE2, lead + 2 < bytes.count, bytes[lead + 1] < 0x83 {
                    index = lead + 3
                    continue
                }
                let (scalar, length) = scalar(in: bytes, at: lead)
                if scalar.properties.canonicalCombiningClass != .notReordered
                    || (0x1100...0x11FF).contains(scalar.value) || (0xA960...0xA97F).contains(scalar.value)
                    || (0xD7B0...0xD7FF).contains(scalar.value) { return true }
                if bytes[lead] == 0xD9 { arabic = true }
                index = lead + length
            }
            return false
        }
        let result = decomposed ? text.precomposedStringWithCanonicalMapping : text
        guard decomposed || arabic else { return result }
        return withoutArabicMarks(result) ?? result
    }

    /// `text` without Arabic's optional marks: the short vowels and other harakat (U+064B–U+065F,
    /// U+0670), which alerts write now and then ("خُصم" for "خصم", deducted), and the tatweel
    /// (U+0640) that stretches a word ("بـ30.48"). Rules are written without them. nil when there
    /// are none: a text without the byte 0xD9 (U+0640–U+067F) is not read further.
    static func withoutArabicMarks(_ text: String) -> String? {
        @inline(__always) func isMark(_ second: UInt8) -> Bool {
            second == 0x80 || (second >= 0x8B && second <= 0x9F) || second == 0xB0
        }
        return text.withUTF8Bytes { bytes -> String? in
            var index = 0
            var first: Int?
            while let lead = firstByte(in: bytes, atLeast: 0xD9, from: index) {
                if bytes[lead] == 0xD9, lead + 1 < bytes.count, isMark(bytes[lead + 1]) {
                    first = lead
                    break
                }
                index = lead + 1
            }
            guard let first else { return nil }
            var kept = Array(bytes[..<first])
            kept.reserveCapacity(bytes.count)
            var i = first
            while i < bytes.count {
                if bytes[i] == 0xD9, i + 1 < bytes.count, isMark(bytes[i + 1]) {
                    i += 2
                    continue
                }
                kept.append(bytes[i])
                i += 1
            }
            return String(decoding: kept, as: UTF8.self)
        }
    }

    /// `text` with the decimal digits of other scripts (Arabic-Indic ٠١٢, Persian ۰۱۲, Devanagari
    /// ०१२, Bengali ০১২, Thai ๐๑๒, full-width ０１２, …) as ASCII digits, the Arabic decimal and
    /// thousands separators (٫ ٬) as "." and ",", and the bidirectional marks right-to-left text
    /// carries (LRM, RLM, ALM, embeddings, isolates) removed. nil when there is nothing to change,
    /// so that the common ASCII case costs one scan of the bytes.
    static func withASCIIDigits(_ text: String) -> String? {
        // Most non-ASCII fields ("₹1,234.00", "12 nov. 2026 à 10h") hold nothing to change: one scan
        // of the bytes and a scalar decoded only where a digit or a mark of another script may be,
        // instead of building a copy scalar by scalar (this was 1.5% of a batch run).
        guard text.withUTF8Bytes({ firstOtherScriptDigit(in: $0, orMark: true) != nil }) else { return nil }
        var changed = false
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069:
                changed = true
            case 0x066B:
                result.append(".")
                changed = true
            case 0x066C:
                result.append(",")
                changed = true
            default:
                if scalar.value >= 0x80, scalar.properties.numericType == .decimal,
                   let value = scalar.properties.numericValue, value >= 0, value <= 9 {
                    result.append(Unicode.Scalar(UInt8(value) + 0x30))
                    changed = true
                } else {
                    result.append(scalar)
                }
            }
        }
        return changed ? String(result) : nil
    }

    /// The byte offset of the first decimal digit of a script other than ASCII ("٤", "४", "０") in
    /// `bytes`, or, with `orMark`, of the first scalar `withASCIIDigits` changes (such a digit, an
    /// Arabic decimal or thousands separator, a bidirectional mark); nil when there is none.
    /// Every such digit's UTF-8 starts with one of eight bytes (`mayStartOtherScriptDigit`), the
    /// separators and marks with D8, D9 or E2: the scan skips eight bytes at a time to a byte
    /// from D8 on, and decodes a scalar only after those. It runs on every field and every
    /// message outside ASCII, where "₹", "’" and "€" (leading with E2) are common and digits of
    /// other scripts rare.
    static func firstOtherScriptDigit(in bytes: UnsafeBufferPointer<UInt8>, orMark: Bool) -> Int? {
        var index = 0
        while let lead = firstByte(in: bytes, atLeast: 0xD8, from: index) {
            let byte = bytes[lead]
            let digitLead = mayStartOtherScriptDigit(byte)
            guard digitLead || (orMark && (byte == 0xD8 || byte == 0xD9 || byte == 0xE2)) else {
                index = lead + 1
                continue
            }
            let (scalar, length) = scalar(in: bytes, at: lead)
            if orMark {
                switch scalar.value {
                case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x066B, 0x066C: return lead
                default: break
                }
            }
            if digitLead, scalar.properties.numericType == .decimal { return lead }
            index = lead + length
        }
        return nil
    }

    /// Whether `text` holds a decimal digit of a script other than ASCII.
    static func hasOtherScriptDigit(_ text: String) -> Bool {
        text.withUTF8Bytes { firstOtherScriptDigit(in: $0, orMark: false) != nil }
    }

    /// Whether `byte` is one that starts the UTF-8 of a decimal digit outside ASCII.
    @inline(__always)
    static func mayStartOtherScriptDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xD9, 0xDB, 0xDF, 0xE0, 0xE1, 0xEA, 0xEF, 0xF0: true
        default: false
        }
    }

    /// An ASCII digit byte.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// The scalar starting at byte `index` of valid UTF-8 (a `String`'s bytes), and its length.
    @inline(__always)
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let b0 = UInt32(bytes[index])
        if b0 < 0x80 { return (Unicode.Scalar(UInt8(b0)), 1) }
        return decodeMultibyte(bytes, at: index)
    }

    private static func decodeMultibyte(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int)
        -> (scalar: Unicode.Scalar, length: Int)
    {
        let b0 = UInt32(bytes[index])
        let value: UInt32
        let length: Int
        if b0 < 0xE0 {
            value = (b0 & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
            length = 2
        } else if b0 < 0xF0 {
            value = (b0 & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            length = 3
        } else {
            value = (b0 & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
            length = 4
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The scalar ending just before byte `end` of valid UTF-8, and its length.
    @inline(__always)
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> (scalar: Unicode.Scalar, length: Int) {
        var start = end - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return (scalar(in: bytes, at: start).scalar, end - start)
    }

    static func digitValue(_ s: Unicode.Scalar) -> Int { Int(s.value) - 0x30 }

    static func isASCIILetter(_ s: Unicode.Scalar) -> Bool {
        (s.value >= 0x41 && s.value <= 0x5A) || (s.value >= 0x61 && s.value <= 0x7A)
    }

    /// Letters of any script, including combining marks that follow a letter in decomposed text.
    static func isLetter(_ s: Unicode.Scalar) -> Bool {
        if isASCIILetter(s) { return true }
        if s.value < 0x80 { return false }
        return s.properties.isAlphabetic || s.properties.generalCategory == .nonspacingMark
    }

    /// `raw` without leading and trailing spaces (see `isSpace`); the same string when there are none.
    static func trimmed(_ raw: String) -> String {
        let scalars = raw.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return raw }
        return String(scalars[first...last])
    }

    /// ASCII bytes lower-cased into a `String`, made in place: `String(decoding:)` over a lazy
    /// map goes through dynamic casts.
    static func asciiLowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { out in
            for index in bytes.indices {
                let byte = bytes[index]
                out[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    /// Lower-cases and strips Latin diacritics ("Déc" → "dec", "März" → "marz", "août" → "aout"),
    /// dropping combining marks of decomposed text, so month and weekday names compare cheaply.
    static func foldedLowercase<S: Sequence>(_ scalars: S) -> String where S.Element == Unicode.Scalar {
        var out = String.UnicodeScalarView()
        for s in scalars {
            let v = s.value
            if v >= 0x41 && v <= 0x5A {
                out.append(Unicode.Scalar(v + 0x20)!)
            } else if v < 0x80 {
                out.append(s)
            } else if v >= 0x0300 && v <= 0x036F {
                continue  // combining diacritical mark
            } else if let base = latinBase(v) {
                out.append(base)
            } else {
                for lower in s.properties.lowercaseMapping.unicodeScalars { out.append(lower) }
            }
        }
        return String(out)
    }

    private static func latinBase(_ v: UInt32) -> Unicode.Scalar? {
        switch v {
        case 0xC0...0xC5, 0xE0...0xE5: return "a"
        case 0xC7, 0xE7: return "c"
        case 0xC8...0xCB, 0xE8...0xEB: return "e"
        case 0xCC...0xCF, 0xEC...0xEF: return "i"
        case 0xD1, 0xF1: return "n"
        case 0xD2...0xD6, 0xD8, 0xF2...0xF6, 0xF8: return "o"
        case 0xD9...0xDC, 0xF9...0xFC: return "u"
        case 0xDD, 0xFD, 0xFF: return "y"
        default: return nil
        }
    }
}
