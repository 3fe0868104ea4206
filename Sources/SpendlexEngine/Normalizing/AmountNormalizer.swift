import Foundation

/// Reads a captured amount as banks write it ("Rs.1,24,560.00", "1.234,56 €", "(12.00)",
/// "1,000.00 CR", "Rp 50.000") into an exact `Decimal` with its sign and currency.
///
/// A hand-written scanner over the UTF-8 bytes: no regular expression, no `Double`.
public struct AmountNormalizer: Sendable {
    /// Which character separates the decimals.
    public enum DecimalMark: String, Sendable {
        /// Decided per amount: when both `.` and `,` appear the last one is the decimal mark; a kind that
        /// appears more than once is grouping; a single one followed by exactly 3 digits is grouping
        /// (`1,234` = 1234, `Rp 50.000` = 50000) unless the integer part is 0, other grouping is
        /// present, or the currency has 3 decimals (BHD, KWD, OMR, JOD, TND, LYD); otherwise decimal.
        case auto
        /// `.` is the decimal mark; `,` only groups. Where the text contradicts it (`.` twice, as in
        /// "3.000.000"), the amount is read as `auto` reads it.
        case point
        /// `,` is the decimal mark; `.` only groups; `,` twice is read as `auto` reads it.
        case comma
        // With every policy, a currency without decimals (JPY, KRW, VND, XOF, UGX, …) reads a lone
        // mark before exactly 3 digits as grouping: "200.000 VND" is 200000.
    }

    /// The decimal-mark policy.
    public let decimalMark: DecimalMark
    /// ISO 3166-1 alpha-2 country used to resolve shared symbols (`$`, `¥`, `kr`, `Rs`) and, when the
    /// text names no currency, to know whether the currency has 3 decimals. nil when unknown.
    public var country: String? { currencies.country }
    /// The country and its local currency forms, that resolve the currency written around the number.
    public let currencies: CurrencyScope

    /// Creates a normalizer with a decimal-mark policy and an optional ISO 3166-1 alpha-2 country.
    public init(decimalMark: DecimalMark = .auto, country: String? = nil) {
        self.init(decimalMark: decimalMark, currencies: CurrencyScope(country: country))
    }

    /// Creates a normalizer with a decimal-mark policy and a currency scope (a country profile's).
    public init(decimalMark: DecimalMark = .auto, currencies: CurrencyScope) {
        self.decimalMark = decimalMark
        self.currencies = currencies
        if let country = currencies.country, let local = CurrencyNormalizer.defaultCode(forCountry: country) {
            countryDecimals = Self.decimals(of: local)
        } else {
            countryDecimals = .two
        }
    }

    /// How many decimals a currency is written with, as far as reading a number goes: a lone
    /// separator before exactly 3 digits is a decimal mark only in a 3-decimal currency, and never
    /// in a currency without decimals ("200.000 VND" is 200000 whatever the country's own mark is).
    private enum Decimals {
        case none, two, three
    }

    private static func decimals(of code: String) -> Decimals {
        CurrencyNormalizer.hasThreeDecimals(code) ? .three : CurrencyNormalizer.hasNoDecimals(code) ? .none : .two
    }

    /// The decimals of the currency of `country`: decided once, not per amount.
    private let countryDecimals: Decimals

    /// Parses `raw`; throws `amount.invalid` for empty text, text without digits, nonsense grouping
    /// (`1.2.3,4,5`), letters inside or around the number that are not a currency or `CR`/`DR`, or two
    /// numbers; throws `currency.unknown` for a three-letter upper-case code that is not ISO 4217.
    public func normalize(_ raw: String) throws(FieldError) -> ParsedAmount {
        // Digits of other scripts ("١٬٢٣٤٫٥٠", "১,২৫০") are read as ASCII digits; bidi marks dropped.
        if let ascii = NormalizingText.withASCIIDigits(raw) {
            return try ascii.withUTF8Bytes { bytes throws(FieldError) in try normalize(utf8: bytes, raw: raw) }
        }
        return try raw.withUTF8Bytes { bytes throws(FieldError) in try normalize(utf8: bytes, raw: raw) }
    }

    /// `normalize` on the UTF-8 bytes of `raw`; offsets below are byte offsets, scalars are
    /// decoded where a non-ASCII one matters (spaces, separators, letters). An array of
    /// scalars per amount cost more than the rest of the normalization.
    private func normalize(utf8 chars: UnsafeBufferPointer<UInt8>, raw: String) throws(FieldError) -> ParsedAmount {
        typealias Text = NormalizingText
        var lower = 0
        var upper = chars.count
        while lower < upper {
            let (s, length) = Text.scalar(in: chars, at: lower)
            guard Text.isSpace(s) else { break }
            lower += length
        }
        while upper > lower {
            let (s, length) = Text.scalar(in: chars, before: upper)
            guard Text.isSpace(s) else { break }
            upper -= length
        }
        guard lower < upper else { throw Self.invalid(raw, "it is empty") }

        guard var start = (lower..<upper).first(where: { Text.isDigit(chars[$0]) }) else {
            throw Self.invalid(raw, "it has no digits")
        }
        // A leading decimal mark (".05", "$.05"), but not the dot closing "Rs." in "Rs.05".
        if start > lower, chars[start - 1] == UInt8(ascii: ".") || chars[start - 1] == UInt8(ascii: ",") {
            let mark = start - 1
            if mark == lower {
                start = mark
            } else {
                let before = Text.scalar(in: chars, before: mark).scalar
                if !(Text.isLetter(before) || before == "." || before == ",") { start = mark }
            }
        }
        var end = start
        var i = start
        while i < upper {
            if Text.isDigit(chars[i]) {
                i += 1
                end = i
                continue
            }
            let (c, length) = Text.scalar(in: chars, at: i)
            if Self.separatorKind(c) != nil, i + length < upper, Text.isDigit(chars[i + length]) {
                i += length
            } else {
                break
            }
        }

        var context = Affixes()
        try context.read(UnsafeBufferPointer(rebasing: chars[lower..<start]), isPrefix: true, raw: raw, scope: currencies)
        try context.read(UnsafeBufferPointer(rebasing: chars[end..<upper]), isPrefix: false, raw: raw, scope: currencies)
        if context.openParen != context.closeParen {
            throw Self.invalid(raw, "its parentheses do not match")
        }

        let decimals = context.currency.map(Self.decimals(of:)) ?? countryDecimals

        let (value, fractionDigits, plain) = try readNumber(UnsafeBufferPointer(rebasing: chars[start..<end]),
                                                            decimals: decimals, raw: raw)
        var amount = ParsedAmount(value: value, sign: context.sign, currency: context.currency,
                                  currencyCertain: context.currencyCertain,
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

    /// A run of digits (byte offsets into the number's span, digits being ASCII) and the
    /// separator that follows it, if any.
    private struct DigitGroup {
        var digits: Range<Int>
        var separator: SeparatorKind?
        var count: Int { digits.count }
    }

    /// Digit groups and the single separators between them; `span` starts with a digit or a leading
    /// decimal mark and ends with a digit.
    private func readNumber(_ span: UnsafeBufferPointer<UInt8>, decimals: Decimals, raw: String)
        throws(FieldError) -> (Decimal, Int, String)
    {
        var groups: [DigitGroup] = []
        groups.reserveCapacity(8)
        var leading: SeparatorKind?
        var groupStart: Int?
        var index = 0
        while index < span.count {
            if NormalizingText.isDigit(span[index]) {
                if groupStart == nil { groupStart = index }
                index += 1
                continue
            }
            let (c, length) = NormalizingText.scalar(in: span, at: index)
            let kind = Self.separatorKind(c)!
            if let begin = groupStart {
                groups.append(DigitGroup(digits: begin..<index, separator: kind))
                groupStart = nil
            } else {
                leading = kind
            }
            index += length
        }
        groups.append(DigitGroup(digits: groupStart!..<span.count, separator: nil))
        let separatorCount = groups.count - 1

        // Index of the group holding the decimals, if any.
        var fractionGroup: Int?
        if let leading {
            let allowed: Bool
            switch decimalMark {
            case .auto: allowed = leading == .point || leading == .comma
            case .point: allowed = leading == .point
            case .comma: allowed = leading == .comma
            }
            guard allowed, separatorCount == 0 else { throw Self.invalid(raw, "it starts with a separator") }
            fractionGroup = 0
        } else if let mark = decimalMarkIndex(span, groups: groups, decimals: decimals) {
            guard mark == separatorCount - 1 else {
                throw Self.invalid(raw, "digit grouping follows the decimal mark")
            }
            fractionGroup = mark + 1
        }

        let integerGroups = groups[..<(fractionGroup ?? groups.count)]
        if integerGroups.count > 1 {
            let kind = integerGroups.first!.separator
            guard integerGroups.dropLast().allSatisfy({ $0.separator == kind }) else {
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
        let fractionStart = fractionGroup.map { groups[$0].digits.lowerBound }
        var significand: Decimal?
        var chunk: UInt64 = 0
        var chunkLength = 0
        for group in groups {
            for index in group.digits {
                chunk = chunk * 10 + UInt64(span[index] &- UInt8(ascii: "0"))
                chunkLength += 1
                digits += 1
                if chunkLength == 18 {
                    significand = Self.appending(chunk, length: 18, to: significand)
                    chunk = 0
                    chunkLength = 0
                }
            }
        }
        guard digits <= 34 else { throw Self.invalid(raw, "it has more than 34 digits") }
        if chunkLength > 0 || significand == nil {
            significand = Self.appending(chunk, length: chunkLength, to: significand)
        }
        let fractionDigits = fractionGroup.map { groups[$0].count } ?? 0
        // The plain text ("124560.00") is written from the digits: formatting a Decimal back is slow.
        let plain = String(unsafeUninitializedCapacity: digits + 2) { out in
            var count = 0
            for group in groups {
                for index in group.digits {
                    if index == fractionStart {
                        if count == 0 {
                            out[count] = UInt8(ascii: "0")
                            count += 1
                        }
                        out[count] = UInt8(ascii: ".")
                        count += 1
                    }
                    // Leading zeros of the integer part are dropped.
                    if count == 0 && span[index] == UInt8(ascii: "0") { continue }
                    out[count] = span[index]
                    count += 1
                }
            }
            if count == 0 {
                out[count] = UInt8(ascii: "0")
                count += 1
            }
            return count
        }
        return (Decimal(sign: .plus, exponent: -fractionDigits, significand: significand!), fractionDigits, plain)
    }

    /// `significand * 10^length + chunk`. The first chunk is the whole value for amounts of up to
    /// 18 digits, and `Decimal(chunk)` is the same value, byte for byte, without two Decimal operations.
    private static func appending(_ chunk: UInt64, length: Int, to significand: Decimal?) -> Decimal {
        guard let significand else { return Decimal(chunk) }
        return significand * Self.powerOfTen(length) + Decimal(chunk)
    }

    /// Which separator (index of the group it follows) is the decimal mark, or nil when all of them group.
    private func decimalMarkIndex(_ span: UnsafeBufferPointer<UInt8>, groups: [DigitGroup], decimals: Decimals) -> Int? {
        let separators = groups.lazy.map(\.separator)
        let lastPoint = separators.lastIndex(of: .point)
        let lastComma = separators.lastIndex(of: .comma)
        // A currency without decimals: a lone mark before exactly 3 digits groups, whatever the
        // country's own mark ("200.000 VND" in a text read as from a country writing "." decimals).
        if decimals == .none, let last = lastPoint ?? lastComma, lastPoint == nil || lastComma == nil,
           last == groups.count - 2, groups[last + 1].count == 3 {
            return nil
        }
        // The other mark, once, before one or two digits: no grouping leaves fewer than three digits
        // after it, so it marks decimals whatever the country's own ("€12,34" read as from the US).
        func loneOtherMark(_ other: Int?) -> Int? {
            guard let other, separators.filter({ $0 == groups[other].separator }).count == 1,
                  other == groups.count - 2, (1...2).contains(groups[other + 1].count) else { return nil }
            return other
        }
        // Both marks written: the later marks the decimals whatever the policy says, since grouping
        // never follows them ("IDR 76.300,00" in a text read as from Singapore, which writes ".").
        if let lastPoint, let lastComma { return max(lastPoint, lastComma) }
        switch decimalMark {
        case .point where separators.filter({ $0 == .point }).count < 2:
            return lastPoint ?? loneOtherMark(lastComma)
        case .comma where separators.filter({ $0 == .comma }).count < 2:
            return lastComma ?? loneOtherMark(lastPoint)
        case .auto, .point, .comma:
            // A policy's mark written twice ("3.000.000" where "." marks decimals) cannot be one:
            // the text groups with it, and is read as `auto` reads it.
            if let lastPoint, let lastComma { return max(lastPoint, lastComma) }
            guard let mark = lastPoint ?? lastComma else { return nil }
            let kind = groups[mark].separator
            if separators.filter({ $0 == kind }).count > 1 { return nil }
            // "0.500" and "0,750" are fractions: grouping never leaves a lone zero in front.
            let integerIsZero = mark == 0 && groups[0].digits.allSatisfy { span[$0] == UInt8(ascii: "0") }
            let otherGrouping = separators.contains(.space) || separators.contains(.apostrophe)
            if mark == groups.count - 2, groups[mark + 1].count == 3,
               decimals != .three, !integerIsZero, !otherGrouping {
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
    var currencyCertain = true

    /// Whether a hyphen, an en dash or an em dash starts at `index`.
    static func isWholeDash(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index < text.count else { return false }
        let c = NormalizingText.scalar(in: text, at: index).scalar
        return c == "-" || c == "\u{2013}" || c == "\u{2014}"
    }

    /// Reads a prefix or suffix given as UTF-8 bytes.
    mutating func read(_ text: UnsafeBufferPointer<UInt8>, isPrefix: Bool, raw: String, scope: CurrencyScope)
        throws(FieldError)
    {
        var i = 0
        let end = text.count
        while i < end {
            let (c, length) = NormalizingText.scalar(in: text, at: i)
            if NormalizingText.isSpace(c) {
                i += length
                continue
            }
            if NormalizingText.isDigit(c) {
                throw AmountNormalizer.invalid(raw, "it holds more than one number")
            }
            switch c {
            case "/" where !isPrefix && i + 1 < end && text[i + 1] == UInt8(ascii: "-"):
                i += 2  // Indian "Rs. 500/-": the amount is whole.
                continue
            case _ where (c == "." || c == ",") && !isPrefix && i == 0 && Self.isWholeDash(text, at: i + length):
                // A dash for the decimals, right after the figure: the amount is whole (Central
                // European "14.000,-" and "10,--", Swiss "Fr. 10.–").
                i += length
                while i < end, Self.isWholeDash(text, at: i) { i += NormalizingText.scalar(in: text, at: i).length }
                continue
            case "-", "\u{2212}":
                try setSign(.negative, raw)
                i += length
                continue
            case "+":
                // An explicit plus is accepted and gives no sign.
                signCount += 1
                guard signCount == 1 else { throw AmountNormalizer.invalid(raw, "it has two signs") }
                i += length
                continue
            case "(" where isPrefix && currency == nil:
                // A currency in brackets before the figure ("($USD) 51.28", "(EUR) 12.00"): the
                // currency, and no sign (brackets around the figure make it negative).
                if let (reading, next) = Self.bracketedCurrency(text, from: i + length, scope: scope) {
                    currency = reading.code
                    currencyCertain = reading.certain
                    i = next
                    continue
                }
                fallthrough
            case "(":
                guard isPrefix, !openParen else { throw AmountNormalizer.invalid(raw, "its parentheses do not match") }
                openParen = true
                try setSign(.negative, raw)
                i += length
                continue
            case ")":
                guard !isPrefix, !closeParen else { throw AmountNormalizer.invalid(raw, "its parentheses do not match") }
                closeParen = true
                i += length
                continue
            default:
                break
            }
            var j = i
            while j < end {
                let (d, dLength) = NormalizingText.scalar(in: text, at: j)
                if NormalizingText.isSpace(d) || NormalizingText.isDigit(d) { break }
                if d == "-" || d == "\u{2212}" || d == "+" || d == "(" || d == ")" { break }
                j += dLength
            }
            var word = String(decoding: UnsafeBufferPointer(rebasing: text[i..<j]), as: UTF8.self)
            // "RD $925.00", "US $ 40": a dollar form's letters apart from its sign are one form.
            if let (joined, next) = Self.spacedDollarForm(word, in: text, after: j, scope: scope) {
                word = joined
                j = next
            }
            try readWord(word, raw: raw, scope: scope)
            i = j
        }
    }

    /// `word` and the "$" after the spaces following it as one currency form ("RD" and "$" as
    /// "RD$"), and where that "$" ends; nil unless `word` is two or more ASCII letters and the
    /// joined form is a currency. Tables write these forms with letters and sign joined; people
    /// and e-mail tables ("<td>RD</td><td>$925.00</td>") put a space between.
    private static func spacedDollarForm(_ word: String, in text: UnsafeBufferPointer<UInt8>, after end: Int,
                                         scope: CurrencyScope) -> (String, Int)? {
        guard word.utf8.count >= 2, word.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        var k = end
        while k < text.count {
            let (scalar, length) = NormalizingText.scalar(in: text, at: k)
            guard NormalizingText.isSpace(scalar) else { break }
            k += length
        }
        guard k > end, k < text.count, text[k] == UInt8(ascii: "$") else { return nil }
        let joined = word + "$"
        return scope.reading(of: joined) == nil ? nil : (joined, k + 1)
    }

    /// The currency written between brackets from `start` (just after the opening one), and where
    /// its closing bracket ends; nil when the brackets hold no currency alone ("$USD", as Chase writes
    /// it, is the dollar).
    private static func bracketedCurrency(_ text: UnsafeBufferPointer<UInt8>, from start: Int,
                                          scope: CurrencyScope) -> (CurrencyTable.Reading, Int)? {
        guard start <= text.count, let close = text[start...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
        let inner = String(decoding: UnsafeBufferPointer(rebasing: text[start..<close]), as: UTF8.self)
        let written = NormalizingText.trimmed(inner)
        guard !written.isEmpty, !written.unicodeScalars.contains(where: { NormalizingText.isDigit($0) }) else { return nil }
        let candidates = written.hasPrefix("$") && written.count > 1 ? [written, String(written.dropFirst())] : [written]
        for candidate in candidates {
            if let reading = scope.reading(of: candidate) { return (reading, close + 1) }
        }
        return nil
    }

    private mutating func setSign(_ newSign: AmountSign, _ raw: String) throws(FieldError) {
        signCount += 1
        guard signCount == 1 else { throw AmountNormalizer.invalid(raw, "it has two signs") }
        sign = newSign
    }

    private mutating func readWord(_ written: String, raw: String, scope: CurrencyScope) throws(FieldError) {
        if written == "." || written == ":" { return }  // sentence period or a dot standing apart from "Rs"
        // "Rs:147.5": a colon between the currency and the figure.
        let text = written.hasSuffix(":") ? String(written.dropLast()) : written
        var letters = text.unicodeScalars[...]
        if letters.last == "." { letters = letters.dropLast() }
        if letters.count == 2 {
            let a = letters[letters.startIndex].properties.uppercaseMapping
            let b = letters[letters.index(after: letters.startIndex)].properties.uppercaseMapping
            if b == "R", a == "C" || a == "D" {
                try setSign(a == "C" ? .credit : .debit, raw)
                return
            }
        }
        guard let reading = scope.reading(of: text) else {
            if letters.count == 3, letters.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) {
                throw FieldError(.currencyUnknown, "\"\(text)\" in \"\(raw)\" is not a known currency")
            }
            throw AmountNormalizer.invalid(raw, "\"\(text)\" is neither a currency nor a sign")
        }
        let code = reading.code
        if let currency, currency != code {
            throw AmountNormalizer.invalid(raw, "it names two currencies, \(currency) and \(code)")
        }
        currency = code
        currencyCertain = reading.certain
    }
}
