import Foundation

/// Reads a captured date ("02-05-26", "29-JUN-26", "May 2, 2026", "2 de mayo de 2026", "02.05.")
/// into a `LocalDate`, with a fixed format or by detecting the form.
///
/// A hand-written scanner over Unicode scalars (UTF-8 bytes for detected forms): no regular
/// expression, no `DateFormatter`, no calendar or time zone. Dates are never rolled over: `31-02-2026` is an error, not 3 March.
/// The one exception: a year from 1300 to 1499 is a Hijri year, converted to the Gregorian date
/// by Foundation's calendars (`hijri`).
public struct DateNormalizer: Sendable {
    /// The format given at creation, nil when the form is detected per date.
    public let format: String?
    /// The order of all-numeric dates (ignored for parts a format names).
    public let order: DateOrder
    private let pattern: [FormatElement]?

    /// `format`: optional pattern with tokens `yyyy`, `yy`, `MM`, `M`, `MMM` (month abbreviation, any
    /// supported language), `MMMM` (full month name), `dd`, `d`, `EEE`/`EEEE` (weekday name, ignored);
    /// other characters are literal (letters only inside single quotes, `''` for a quote); a space
    /// matches any run of spaces. `M`/`MM`/`d`/`dd` take one or two digits, `yy` two, `yyyy` four.
    /// When nil, the format is detected. A bad format (unknown or repeated letters, no day or month,
    /// unclosed quote) throws `date.format`.
    public init(format: String? = nil, order: DateOrder = .dayMonthYear) throws(FieldError) {
        self.format = format
        self.order = order
        self.pattern = try format.map { (f: String) throws(FieldError) -> [FormatElement] in try Self.compile(f) }
    }

    /// Reads `raw` (surrounding whitespace tolerated). `reference` is the message's arrival date: it
    /// gives the year of dates written without one (that year, the year before or the year after,
    /// whichever puts the date latest but no more than 7 days after `reference`), and places two-digit
    /// years (2000+yy, or 1900+yy when that would be more than one year after the reference's year).
    ///
    /// Throws `date.nonexistent` for a day that does not exist (`31-02-2026`, `29-02-2025`) and
    /// `date.invalid` for anything else unreadable, including a date without year and no reference.
    public func normalize(_ raw: String, reference: LocalDate?) throws(FieldError) -> LocalDate {
        // "٠٥/١١/٢٠٢٦" reads as "05/11/2026" (errors still quote the text as written).
        if let ascii = NormalizingText.withASCIIDigits(raw) { return try normalize(ascii, reference: reference) }
        let parts: Parts
        if let pattern {
            parts = try Self.match(Array(raw.unicodeScalars), pattern, raw: raw)
        } else {
            parts = try raw.withUTF8Bytes { bytes throws(FieldError) in try detect(bytes, raw: raw) }
        }
        return try Self.resolve(parts, reference: reference, raw: raw)
    }

    // MARK: - Resolving year, month and day

    private enum YearPart {
        case none
        case twoDigit(Int)
        case full(Int)
    }

    private struct Parts {
        var day: Int
        var month: Int
        var year: YearPart
    }

    private static func resolve(_ parts: Parts, reference: LocalDate?, raw: String) throws(FieldError) -> LocalDate {
        guard (1...12).contains(parts.month) else { throw invalid(raw, "month \(parts.month) does not exist") }
        guard (1...31).contains(parts.day) else { throw invalid(raw, "day \(parts.day) does not exist") }
        let year: Int
        switch parts.year {
        case .full(let value) where hijriYears.contains(value):
            guard let date = hijri(year: value, month: parts.month, day: parts.day) else {
                throw FieldError(.dateNonexistent, "\"\(raw)\" names no day of the Hijri year \(value)")
            }
            return date
        case .full(let value):
            guard (1000...9999).contains(value) else { throw invalid(raw, "year \(value) is out of range") }
            year = value
        case .twoDigit(let value):
            var candidate = 2000 + value
            if let reference, candidate > reference.year + 1 { candidate -= 100 }
            year = candidate
        case .none:
            guard let reference else {
                throw FieldError(.dateWithoutYear, "cannot read a date in \"\(raw)\": it has no year and there is no reference date")
            }
            let latest = reference.daysSinceEpoch + 7
            let candidates = [reference.year + 1, reference.year, reference.year - 1]
            year = candidates.first {
                LocalDate.dayNumber(year: $0, month: parts.month, day: parts.day) <= latest
            } ?? reference.year - 1
        }
        guard let date = LocalDate(year: year, month: parts.month, day: parts.day) else {
            throw FieldError(.dateNonexistent, "\"\(raw)\" names \(LocalDate.padded(year, 4))-\(LocalDate.padded(parts.month, 2))-\(LocalDate.padded(parts.day, 2)), a day that does not exist")
        }
        return date
    }

    /// Years that no alert's Gregorian date has, and that Iran's and Afghanistan's banks (Solar
    /// Hijri: "1405/07/09") and Gulf notices (lunar Hijri: "1447/05/12") write.
    static let hijriYears = 1300...1499

    /// The Gregorian day of a Hijri date: a year up to 1420 is Solar Hijri (the Persian calendar:
    /// 1420 is 2041–42), a later one lunar Hijri as Saudi Arabia reckons it (Umm al-Qura: 1421 began
    /// in 2000), so that both calendars' years of the last decades and the next read as written.
    /// Nil for a day the month does not have (no rolling over).
    static func hijri(year: Int, month: Int, day: Int) -> LocalDate? {
        var calendar = Calendar(identifier: year <= 1420 ? .persian : .islamicUmmAlQura)
        var gregorian = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        gregorian.timeZone = calendar.timeZone
        let written = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: written),
              calendar.dateComponents([.year, .month, .day], from: date) == written
        else { return nil }
        let parts = gregorian.dateComponents([.year, .month, .day], from: date)
        guard let gYear = parts.year, let gMonth = parts.month, let gDay = parts.day else { return nil }
        return LocalDate(year: gYear, month: gMonth, day: gDay)
    }

    private static func invalid(_ raw: String, _ why: String) -> FieldError {
        FieldError(.dateInvalid, "cannot read a date in \"\(raw)\": \(why)")
    }

    // MARK: - Explicit formats

    private enum FormatElement: Sendable, Equatable {
        case year4, year2, monthNumber, monthName, day, weekday
        case space
        case literal(Unicode.Scalar)
    }

    private static func compile(_ format: String) throws(FieldError) -> [FormatElement] {
        func bad(_ why: String) -> FieldError {
            FieldError(.dateFormat, "bad date format \"\(format)\": \(why)")
        }
        let chars = Array(format.unicodeScalars)
        var elements: [FormatElement] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if NormalizingText.isSpace(c) {
                if elements.last != .space { elements.append(.space) }
                i += 1
            } else if c == "'" {
                if i + 1 < chars.count, chars[i + 1] == "'" {
                    elements.append(.literal("'"))
                    i += 2
                    continue
                }
                guard let close = chars[(i + 1)...].firstIndex(of: "'") else { throw bad("a quote is not closed") }
                for q in chars[(i + 1)..<close] { elements.append(NormalizingText.isSpace(q) ? .space : .literal(q)) }
                i = close + 1
            } else if NormalizingText.isASCIILetter(c) {
                var j = i
                while j < chars.count, chars[j] == c { j += 1 }
                let run = j - i
                switch (c, run) {
                case ("y", 4): elements.append(.year4)
                case ("y", 2): elements.append(.year2)
                case ("M", 1), ("M", 2): elements.append(.monthNumber)
                case ("M", 3), ("M", 4): elements.append(.monthName)
                case ("d", 1), ("d", 2): elements.append(.day)
                case ("E", 1...4): elements.append(.weekday)
                default:
                    throw bad("\"\(String(repeating: String(c), count: run))\" is not a supported field; quote literal letters")
                }
                i = j
            } else {
                elements.append(.literal(c))
                i += 1
            }
        }
        let years = elements.filter { $0 == .year4 || $0 == .year2 }.count
        let months = elements.filter { $0 == .monthNumber || $0 == .monthName }.count
        let days = elements.filter { $0 == .day }.count
        let weekdays = elements.filter { $0 == .weekday }.count
        guard days == 1 else { throw bad(days == 0 ? "it has no day (d or dd)" : "it has more than one day") }
        guard months == 1 else { throw bad(months == 0 ? "it has no month (M, MM, MMM or MMMM)" : "it has more than one month") }
        guard years <= 1 else { throw bad("it has more than one year") }
        guard weekdays <= 1 else { throw bad("it has more than one weekday") }
        return elements
    }

    private static func match(_ chars: [Unicode.Scalar], _ pattern: [FormatElement], raw: String) throws(FieldError) -> Parts {
        var i = 0
        while i < chars.count, NormalizingText.isSpace(chars[i]) { i += 1 }
        var day = 0
        var month = 0
        var year = YearPart.none
        func digits(min: Int, max: Int) throws(FieldError) -> Int {
            var value = 0
            var count = 0
            while count < max, i < chars.count, NormalizingText.isDigit(chars[i]) {
                value = value * 10 + NormalizingText.digitValue(chars[i])
                count += 1
                i += 1
            }
            guard count >= min else { throw invalid(raw, "expected \(min == max ? "\(min)" : "\(min) to \(max)") digits at position \(i + 1)") }
            return value
        }
        func word(allowDot: Bool) -> String {
            let begin = i
            while i < chars.count, NormalizingText.isLetter(chars[i]) { i += 1 }
            let folded = NormalizingText.foldedLowercase(chars[begin..<i])
            if allowDot, i > begin, i < chars.count, chars[i] == "." { i += 1 }
            return folded
        }
        for (index, element) in pattern.enumerated() {
            let nextIsDot = index + 1 < pattern.count && pattern[index + 1] == .literal(".")
            switch element {
            case .space:
                while i < chars.count, NormalizingText.isSpace(chars[i]) { i += 1 }
            case .literal(let c):
                guard i < chars.count, chars[i] == c
                    || (NormalizingText.isLetter(c) && NormalizingText.foldedLowercase(CollectionOfOne(chars[i])) == NormalizingText.foldedLowercase(CollectionOfOne(c)))
                else { throw invalid(raw, "expected \"\(c)\" at position \(i + 1)") }
                i += 1
            case .year4: year = .full(try digits(min: 4, max: 4))
            case .year2: year = .twoDigit(try digits(min: 2, max: 2))
            case .monthNumber: month = try digits(min: 1, max: 2)
            case .day: day = try digits(min: 1, max: 2)
            case .monthName:
                let name = word(allowDot: !nextIsDot)
                guard let number = Self.monthNumbers[name] else { throw invalid(raw, "\"\(name)\" is not a month name") }
                month = number
            case .weekday:
                let name = word(allowDot: !nextIsDot)
                guard Self.weekdayNames.contains(name) else { throw invalid(raw, "\"\(name)\" is not a weekday name") }
            }
        }
        while i < chars.count, NormalizingText.isSpace(chars[i]) { i += 1 }
        guard i == chars.count else { throw invalid(raw, "unexpected text at position \(i + 1)") }
        return Parts(day: day, month: month, year: year)
    }

    // MARK: - Detected forms

    private enum Item {
        case number(value: Int, digits: Int, ordinal: Bool)
        case month(Int)
        /// A word that is both a month and a weekday abbreviation ("mar": March, martes, mardi).
        case monthOrWeekday(Int)
    }

    /// Lexes `chars` (UTF-8) into numbers and month names, dropping weekdays and filler words ("de",
    /// "of"), and remembers the separator written between consecutive items. Works on the bytes, as
    /// this runs for every transaction: digits and separators are ASCII, words are decoded as needed.
    private func detect(_ chars: UnsafeBufferPointer<UInt8>, raw: String) throws(FieldError) -> Parts {
        var items: [Item] = []
        items.reserveCapacity(4)
        var separators: [Unicode.Scalar] = []  // separators[k] sits between items[k] and items[k + 1]
        separators.reserveCapacity(4)
        var pendingSeparator: Unicode.Scalar?
        var i = 0
        func push(_ item: Item) {
            if !items.isEmpty { separators.append(pendingSeparator ?? " ") }
            items.append(item)
            pendingSeparator = nil
        }
        while i < chars.count {
            if NormalizingText.isDigit(chars[i]) {
                var value = 0
                var count = 0
                while i < chars.count, NormalizingText.isDigit(chars[i]) {
                    if count < 9 { value = value * 10 + Int(chars[i] &- 0x30) }
                    count += 1
                    i += 1
                }
                guard count <= 8 else { throw Self.invalid(raw, "a number has too many digits") }
                // An ordinal suffix written against the number: "2nd", "1st", "1er", "2º".
                var ordinal = false
                var j = i
                while j < chars.count {
                    let (d, length) = NormalizingText.scalar(in: chars, at: j)
                    guard NormalizingText.isLetter(d) else { break }
                    j += length
                }
                if j > i, Self.ordinalSuffixes.contains(Self.folded(chars, i..<j)) {
                    ordinal = true
                    i = j
                }
                push(.number(value: value, digits: count, ordinal: ordinal))
                continue
            }
            let (c, length) = NormalizingText.scalar(in: chars, at: i)
            if Self.isCJKDateMark(c) {
                pendingSeparator = pendingSeparator ?? c
                i += length
            } else if NormalizingText.isLetter(c) {
                let start = i
                var j = i
                while j < chars.count {
                    let (d, dLength) = NormalizingText.scalar(in: chars, at: j)
                    guard NormalizingText.isLetter(d), !Self.isCJKDateMark(d) else { break }
                    j += dLength
                }
                let word = Self.folded(chars, start..<j)
                i = j
                if let month = Self.monthNumbers[word] {
                    push(Self.ambiguousWeekdays.contains(word) ? .monthOrWeekday(month) : .month(month))
                } else if Self.weekdayNames.contains(word) || Self.fillerWords.contains(word) {
                    continue
                } else {
                    let written = String(decoding: UnsafeBufferPointer(rebasing: chars[start..<j]), as: UTF8.self)
                    throw Self.invalid(raw, "\"\(written)\" is not a month, weekday or date word")
                }
            } else if NormalizingText.isSpace(c) {
                i += length
            } else if c == "-" || c == "/" || c == "." || c == "," || c == "(" || c == ")" || c == "\u{2010}" || c == "\u{2013}" || c == "\u{2014}" {
                if pendingSeparator == nil || pendingSeparator == " " { pendingSeparator = c }
                i += length
            } else {
                throw Self.invalid(raw, "unexpected \"\(c)\"")
            }
        }

        // "mar" is Tuesday when another word already names the month, March otherwise.
        let hasMonthOrWeekday = items.contains { if case .monthOrWeekday = $0 { return true } else { return false } }
        guard hasMonthOrWeekday else { return try interpret(items, separators, raw: raw) }
        let hasMonth = items.contains { if case .month = $0 { return true } else { return false } }
        var significant: [Item] = []
        var significantSeparators: [Unicode.Scalar] = []
        for (k, item) in items.enumerated() {
            var kept = item
            if case .monthOrWeekday(let month) = item {
                if hasMonth || significant.contains(where: { if case .month = $0 { return true } else { return false } }) {
                    continue
                }
                kept = .month(month)
            }
            if !significant.isEmpty { significantSeparators.append(separators[k - 1]) }
            significant.append(kept)
        }
        return try interpret(significant, significantSeparators, raw: raw)
    }

    /// The word at `range` of UTF-8, folded like `NormalizingText.foldedLowercase`; ASCII words
    /// (most month names as banks write them) without building a scalar view.
    private static func folded(_ chars: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let word = UnsafeBufferPointer(rebasing: chars[range])
        if word.allSatisfy({ $0 < 0x80 }) {
            return NormalizingText.asciiLowercased(word)
        }
        return NormalizingText.foldedLowercase(String(decoding: word, as: UTF8.self).unicodeScalars)
    }

    private func interpret(_ items: [Item], _ separators: [Unicode.Scalar], raw: String) throws(FieldError) -> Parts {
        func year(_ value: Int, _ digits: Int, _ ordinal: Bool) throws(FieldError) -> YearPart {
            guard !ordinal else { throw Self.invalid(raw, "an ordinal cannot be a year") }
            switch digits {
            case 2: return .twoDigit(value)
            case 4: return .full(value)
            default: throw Self.invalid(raw, "a year has 2 or 4 digits")
            }
        }
        func small(_ value: Int, _ digits: Int) throws(FieldError) -> Int {
            guard digits <= 2 else { throw Self.invalid(raw, "a day or month has 1 or 2 digits") }
            return value
        }
        switch (items.count, items.first, items.count > 1 ? items[1] : nil, items.count > 2 ? items[2] : nil) {
        // All numeric.
        case (1, .number(let v, 8, false)?, nil, nil):
            // Compact ISO 8601 "20260502".
            guard v / 1_000_000 == 19 || v / 1_000_000 == 20 else { throw Self.invalid(raw, "an 8-digit date reads yyyyMMdd") }
            return Parts(day: v % 100, month: (v / 100) % 100, year: .full(v / 10000))
        case (3, .number(let a, let ad, let ao)?, .number(let b, let bd, let bo)?, .number(let c, let cd, let co)?):
            let s1 = separators[0], s2 = separators[1]
            if !Self.isCJKDateMark(s1), !Self.isCJKDateMark(s2), s1 != s2 {
                throw Self.invalid(raw, "its separators \"\(s1)\" and \"\(s2)\" differ")
            }
            if ad == 4 {
                return Parts(day: try small(c, cd), month: try small(b, bd), year: try year(a, ad, ao))
            }
            guard !bo else { throw Self.invalid(raw, "an ordinal cannot be a month") }
            switch order {
            case .dayMonthYear:
                return Parts(day: try small(a, ad), month: try small(b, bd), year: try year(c, cd, co))
            case .monthDayYear:
                guard !ao else { throw Self.invalid(raw, "an ordinal cannot be a month") }
                return Parts(day: try small(b, bd), month: try small(a, ad), year: try year(c, cd, co))
            case .yearMonthDay:
                if cd == 4 {
                    return Parts(day: try small(a, ad), month: try small(b, bd), year: try year(c, cd, co))
                }
                guard ad == 2 else { throw Self.invalid(raw, "a year first has 2 or 4 digits") }
                return Parts(day: try small(c, cd), month: try small(b, bd), year: try year(a, ad, ao))
            }
        case (2, .number(let a, let ad, let ao)?, .number(let b, let bd, let bo)?, nil):
            if order == .dayMonthYear {
                guard !bo else { throw Self.invalid(raw, "an ordinal cannot be a month") }
                return Parts(day: try small(a, ad), month: try small(b, bd), year: .none)
            }
            guard !ao else { throw Self.invalid(raw, "an ordinal cannot be a month") }
            return Parts(day: try small(b, bd), month: try small(a, ad), year: .none)
        // With a month name.
        case (3, .number(let a, let ad, let ao)?, .month(let m)?, .number(let c, let cd, let co)?):
            if ad == 4, !ao {
                return Parts(day: try small(c, cd), month: m, year: .full(a))
            }
            return Parts(day: try small(a, ad), month: m, year: try year(c, cd, co))
        case (3, .month(let m)?, .number(let b, let bd, _)?, .number(let c, let cd, let co)?):
            return Parts(day: try small(b, bd), month: m, year: try year(c, cd, co))
        case (2, .number(let a, let ad, _)?, .month(let m)?, nil):
            return Parts(day: try small(a, ad), month: m, year: .none)
        case (2, .month(let m)?, .number(let b, let bd, _)?, nil):
            return Parts(day: try small(b, bd), month: m, year: .none)
        case (0, _, _, _):
            throw Self.invalid(raw, "it is empty")
        default:
            throw Self.invalid(raw, "it is not a day, month and optional year")
        }
    }

    /// 年 月 日 and 년 월 일, read as separators: "2026年5月2日". A switch, not a set: this is
    /// asked for every character `detect` reads.
    private static func isCJKDateMark(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "年", "月", "日", "년", "월", "일": true
        default: false
        }
    }
}
