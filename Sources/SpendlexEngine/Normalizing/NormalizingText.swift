/// Character classes and small text operations shared by the field normalizers.
///
/// Everything here works on Unicode scalars or UTF-8 bytes, without regular expressions.
enum NormalizingText {
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
