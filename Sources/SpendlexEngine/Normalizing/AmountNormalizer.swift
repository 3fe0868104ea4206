import Foundation

/// Reads a captured amount as banks write it ("Rs.1,24,560.00", "1.234,56 €", "(12.00)",
/// "1,000.00 CR", "Rp 50.000") into an exact `Decimal` with its sign and currency.
///
/// A hand-written scanner over Unicode scalars: no regular expression, no `Double`.
public struct AmountNormalizer: Sendable {
    /// Which character separates the decimals.
    public enum DecimalMark: String, Sendable {
        /// Decided per amount: when both `.` and `,` appear the last one is the decimal mark; a kind that
        /// appears more than once is grouping; a single one followed by exactly 3 digits is grouping
        /// (`1,234` = 1234, `Rp 50.000` = 50000) unless the integer part is 0, other grouping is
        /// present, or the currency has 3 decimals (BHD, KWD, OMR, JOD, TND, IQD, LYD); otherwise decimal.
        case auto
        /// `.` is the decimal mark; `,` only groups.
        case point
        /// `,` is the decimal mark; `.` only groups.
        case comma
    }

    /// The decimal-mark policy.
    public let decimalMark: DecimalMark
    /// ISO 3166-1 alpha-2 country used to resolve shared symbols (`$`, `¥`, `kr`, `Rs`) and, when the
    /// text names no currency, to know whether the currency has 3 decimals. nil when unknown.
    public let country: String?

    /// Creates a normalizer with a decimal-mark policy and an optional ISO 3166-1 alpha-2 country.
    public init(decimalMark: DecimalMark = .auto, country: String? = nil) {
        self.decimalMark = decimalMark
        self.country = country
    }

    /// Parses `raw`; throws `amount.invalid` for empty text, text without digits, nonsense grouping
    /// (`1.2.3,4,5`), letters inside or around the number that are not a currency or `CR`/`DR`, or two
    /// numbers; throws `currency.unknown` for a three-letter upper-case code that is not ISO 4217.
    public func normalize(_ raw: String) throws(FieldError) -> ParsedAmount {
        let chars = Array(raw.unicodeScalars)
        var lower = 0
        var upper = chars.count
        while lower < upper, NormalizingText.isSpace(chars[lower]) { lower += 1 }
        while upper > lower, NormalizingText.isSpace(chars[upper - 1]) { upper -= 1 }
        guard lower < upper else { throw Self.invalid(raw, "it is empty") }

        guard var start = (lower..<upper).first(where: { NormalizingText.isDigit(chars[$0]) }) else {
            throw Self.invalid(raw, "it has no digits")
        }
        // A leading decimal mark (".05", "$.05"), but not the dot closing "Rs." in "Rs.05".
        if start > lower, chars[start - 1] == "." || chars[start - 1] == "," {
            let before = start - 2
            if before < lower || !(NormalizingText.isLetter(chars[before]) || chars[before] == "." || chars[before] == ",") {
                start -= 1
            }
        }
        var end = start
        var i = start
        while i < upper {
            let c = chars[i]
            if NormalizingText.isDigit(c) {
                i += 1
                end = i
            } else if Self.separatorKind(c) != nil, i + 1 < upper, NormalizingText.isDigit(chars[i + 1]) {
                i += 1
            } else {
                break
            }
        }

        var context = Affixes()
        try context.read(chars[lower..<start], isPrefix: true, raw: raw, country: country)
        try context.read(chars[end..<upper], isPrefix: false, raw: raw, country: country)
        if context.openParen != context.closeParen {
            throw Self.invalid(raw, "its parentheses do not match")
        }

        let threeDecimals: Bool
        if let currency = context.currency {
            threeDecimals = CurrencyNormalizer.minorUnitDigits(of: currency) == 3
        } else if let country, let local = CurrencyNormalizer.defaultCode(forCountry: country) {
            threeDecimals = CurrencyNormalizer.minorUnitDigits(of: local) == 3
        } else {
            threeDecimals = false
        }

        let (value, fractionDigits, plain) = try readNumber(chars[start..<end], threeDecimals: threeDecimals, raw: raw)
        var amount = ParsedAmount(value: value, sign: context.sign, currency: context.currency,
                                  fractionDigits: fractionDigits)
        amount.plainText = plain
        return amount
    }

    // MARK: - The number

    private enum SeparatorKind: Equatable {
        case point, comma, space, apostrophe
    }

    private static func separatorKind(_ c: Unicode.Scalar) -> SeparatorKind? {
        switch c {
        case ".": return .point
        case ",": return .comma
        case "'", "\u{2019}", "\u{02BC}": return .apostrophe
        default: return NormalizingText.isDigitGroupSpace(c) ? .space : nil
        }
    }

    /// Digit groups and the single separators between them; `span` starts with a digit or a leading
    /// decimal mark and ends with a digit.
    private func readNumber(_ span: ArraySlice<Unicode.Scalar>, threeDecimals: Bool, raw: String)
        throws(FieldError) -> (Decimal, Int, String)
    {
        var groups: [Range<Int>] = []
        var separators: [SeparatorKind] = []
        var leading: SeparatorKind?
        var groupStart: Int?
        for index in span.indices {
            let c = span[index]
            if NormalizingText.isDigit(c) {
                if groupStart == nil { groupStart = index }
            } else {
                let kind = Self.separatorKind(c)!
                if let begin = groupStart {
                    groups.append(begin..<index)
                    separators.append(kind)
                    groupStart = nil
                } else {
                    leading = kind
                }
            }
        }
        groups.append(groupStart!..<span.endIndex)

        // Index of the group holding the decimals, if any.
        var fractionGroup: Int?
        if let leading {
            let allowed: Bool
            switch decimalMark {
            case .auto: allowed = leading == .point || leading == .comma
            case .point: allowed = leading == .point
            case .comma: allowed = leading == .comma
            }
            guard allowed, separators.isEmpty else { throw Self.invalid(raw, "it starts with a separator") }
            fractionGroup = 0
        } else if let mark = decimalMarkIndex(span, groups: groups, separators: separators, threeDecimals: threeDecimals) {
            guard mark == separators.count - 1 else {
                throw Self.invalid(raw, "digit grouping follows the decimal mark")
            }
            fractionGroup = mark + 1
        }

        let integerGroups = fractionGroup.map { groups[..<$0] } ?? groups[...]
        if integerGroups.count > 1 {
            let groupSeparators = separators[..<(integerGroups.count - 1)]
            let kind = groupSeparators.first!
            guard groupSeparators.allSatisfy({ $0 == kind }) else {
                throw Self.invalid(raw, "it mixes grouping separators")
            }
            let middle = integerGroups.dropFirst().dropLast()
            let middleLength = middle.first?.count ?? 3
            guard integerGroups.last!.count == 3,
                  middle.allSatisfy({ $0.count == middleLength }),
                  middleLength == 3 || (middleLength == 2 && kind == .comma),
                  (1...middleLength).contains(integerGroups.first!.count)
            else {
                throw Self.invalid(raw, "its digit grouping is irregular")
            }
        }

        var digits = 0
        // The plain text ("124560.00") is built alongside: formatting a Decimal back is slow.
        var plain: [UInt8] = []
        plain.reserveCapacity(24)
        let fractionStart = fractionGroup.map { groups[$0].lowerBound }
        var significand = Decimal(0)
        var chunk: UInt64 = 0
        var chunkLength = 0
        for group in groups {
            for index in group {
                if index == fractionStart {
                    if plain.isEmpty { plain.append(UInt8(ascii: "0")) }
                    plain.append(UInt8(ascii: "."))
                }
                let digit = NormalizingText.digitValue(span[index])
                if !(plain.isEmpty && digit == 0) { plain.append(UInt8(ascii: "0") + UInt8(digit)) }
                chunk = chunk * 10 + UInt64(digit)
                chunkLength += 1
                digits += 1
                if chunkLength == 18 {
                    significand = significand * Self.powerOfTen(18) + Decimal(chunk)
                    chunk = 0
                    chunkLength = 0
                }
            }
        }
        guard digits <= 34 else { throw Self.invalid(raw, "it has more than 34 digits") }
        if chunkLength > 0 {
            significand = significand * Self.powerOfTen(chunkLength) + Decimal(chunk)
        }
        let fractionDigits = fractionGroup.map { groups[$0].count } ?? 0
        if plain.isEmpty { plain.append(UInt8(ascii: "0")) }
        return (Decimal(sign: .plus, exponent: -fractionDigits, significand: significand), fractionDigits,
                String(decoding: plain, as: UTF8.self))
    }

    /// Which separator (index into `separators`) is the decimal mark, or nil when all of them group.
    private func decimalMarkIndex(
        _ span: ArraySlice<Unicode.Scalar>, groups: [Range<Int>], separators: [SeparatorKind], threeDecimals: Bool
    ) -> Int? {
        let lastPoint = separators.lastIndex(of: .point)
        let lastComma = separators.lastIndex(of: .comma)
        switch decimalMark {
        case .point:
            return lastPoint
        case .comma:
            return lastComma
        case .auto:
            if let lastPoint, let lastComma { return max(lastPoint, lastComma) }
            guard let mark = lastPoint ?? lastComma else { return nil }
            let kind = separators[mark]
            if separators.lazy.filter({ $0 == kind }).count > 1 { return nil }
            // "0.500" and "0,750" are fractions: grouping never leaves a lone zero in front.
            let integerIsZero = mark == 0 && groups[0].allSatisfy { span[$0] == "0" }
            let otherGrouping = separators.contains(.space) || separators.contains(.apostrophe)
            if mark == separators.count - 1, groups[mark + 1].count == 3,
               !threeDecimals, !integerIsZero, !otherGrouping {
                return nil
            }
            return mark
        }
    }

    private static func powerOfTen(_ exponent: Int) -> Decimal {
        Decimal(sign: .plus, exponent: exponent, significand: 1)
    }

    fileprivate static func invalid(_ raw: String, _ why: String) -> FieldError {
        FieldError(.amountInvalid, "cannot read an amount in \"\(raw)\": \(why)")
    }
}

/// What surrounds the number: signs, parentheses, a currency.
private struct Affixes {
    var sign: AmountSign?
    var signCount = 0
    var openParen = false
    var closeParen = false
    var currency: String?

    mutating func read(_ text: ArraySlice<Unicode.Scalar>, isPrefix: Bool, raw: String, country: String?)
        throws(FieldError)
    {
        var i = text.startIndex
        let end = text.endIndex
        while i < end {
            let c = text[i]
            if NormalizingText.isSpace(c) {
                i += 1
                continue
            }
            if NormalizingText.isDigit(c) {
                throw AmountNormalizer.invalid(raw, "it holds more than one number")
            }
            switch c {
            case "/" where !isPrefix && i + 1 < end && text[i + 1] == "-":
                i += 2  // Indian "Rs. 500/-": the amount is whole.
                continue
            case "-", "\u{2212}":
                try setSign(.negative, raw)
                i += 1
                continue
            case "+":
                // An explicit plus is accepted and gives no sign.
                signCount += 1
                guard signCount == 1 else { throw AmountNormalizer.invalid(raw, "it has two signs") }
                i += 1
                continue
            case "(":
                guard isPrefix, !openParen else { throw AmountNormalizer.invalid(raw, "its parentheses do not match") }
                openParen = true
                try setSign(.negative, raw)
                i += 1
                continue
            case ")":
                guard !isPrefix, !closeParen else { throw AmountNormalizer.invalid(raw, "its parentheses do not match") }
                closeParen = true
                i += 1
                continue
            default:
                break
            }
            var j = i
            while j < end {
                let d = text[j]
                if NormalizingText.isSpace(d) || NormalizingText.isDigit(d) { break }
                if d == "-" || d == "\u{2212}" || d == "+" || d == "(" || d == ")" { break }
                j += 1
            }
            try readWord(text[i..<j], raw: raw, country: country)
            i = j
        }
    }

    private mutating func setSign(_ newSign: AmountSign, _ raw: String) throws(FieldError) {
        signCount += 1
        guard signCount == 1 else { throw AmountNormalizer.invalid(raw, "it has two signs") }
        sign = newSign
    }

    private mutating func readWord(_ word: ArraySlice<Unicode.Scalar>, raw: String, country: String?) throws(FieldError) {
        let text = String(String.UnicodeScalarView(word))
        if text == "." { return }  // sentence period or a dot standing apart from "Rs"
        var letters = word
        if letters.last == "." { letters = letters.dropLast() }
        if letters.count == 2 {
            let a = letters[letters.startIndex].properties.uppercaseMapping
            let b = letters[letters.startIndex + 1].properties.uppercaseMapping
            if b == "R", a == "C" || a == "D" {
                try setSign(a == "C" ? .credit : .debit, raw)
                return
            }
        }
        guard let code = CurrencyNormalizer.code(for: text, country: country) else {
            if letters.count == 3, letters.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) {
                throw FieldError(.currencyUnknown, "\"\(text)\" in \"\(raw)\" is not a known currency")
            }
            throw AmountNormalizer.invalid(raw, "\"\(text)\" is neither a currency nor a sign")
        }
        if let currency, currency != code {
            throw AmountNormalizer.invalid(raw, "it names two currencies, \(currency) and \(code)")
        }
        currency = code
    }
}
