import Foundation

extension EmailHeaders {
    /// `Date` parsed as RFC 5322 (also obsolete forms: two-digit years, zone names like
    /// EST/GMT/UT, missing seconds, missing weekday); nil when unparseable.
    public var date: Date? {
        withValue(of: .date) { EmailDate.parse($0) } ?? nil
    }
}

/// A tolerant RFC 5322 date-time reader working on bytes, without `DateFormatter`
/// (slow, and locale-dependent) or `Calendar` (the arithmetic is a few integer ops).
///
/// Tokens are read in any order, the way real mailers get them wrong: an optional day
/// name, day and month in either order, the year before or after the time, a numeric
/// zone (`+0530`, `+05:30`) or a zone name; comments like `(UTC)` are ignored.
enum EmailDate {
    /// Seconds since 1970 for the date, or nil.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        var day: Int?
        var month: Int?
        var year: Int?
        var yearDigits = 0
        var time: (h: Int, m: Int, s: Int)?
        var offset: Int?  // seconds east of UTC
        let n = bytes.count
        var i = 0
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "(") {
                i = EmailAddress.skipComment(bytes, i)
                continue
            }
            if MIMEBytes.isWhitespace(b) || b == UInt8(ascii: ",") {
                i += 1
                continue
            }
            // One token: up to whitespace, comma or comment.
            var j = i
            while j < n, !MIMEBytes.isWhitespace(bytes[j]), bytes[j] != UInt8(ascii: ","),
                  bytes[j] != UInt8(ascii: "(") {
                j += 1
            }
            let token = UnsafeRawBufferPointer(rebasing: bytes[i..<j])
            i = j
            if (b == UInt8(ascii: "+") || b == UInt8(ascii: "-")) && time != nil && offset == nil {
                guard let zone = numericZone(token) else { return nil }
                offset = zone
            } else if isDigit(b) {
                if token.contains(UInt8(ascii: ":")) {
                    guard time == nil, let t = clock(token) else { return nil }
                    time = t
                } else {
                    guard let (value, digits) = number(token) else { return nil }
                    if digits >= 3 || (day != nil && year == nil) {
                        guard year == nil else { return nil }
                        year = value
                        yearDigits = digits
                    } else if day == nil {
                        day = value
                    } else {
                        return nil
                    }
                }
            } else if isLetter(b) {
                if let m = monthNumber(token) {
                    guard month == nil else { return nil }
                    month = m
                } else if isDayName(token) {
                    continue
                } else if let zone = zoneName(token) {
                    if offset == nil { offset = zone }
                } else if offset != nil || time != nil {
                    continue  // trailing junk after the zone, e.g. "+0000 GMT+00:00"
                } else {
                    return nil
                }
            } else if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
                // A signed number before the time: not a date we know.
                return nil
            } else {
                continue  // stray punctuation
            }
        }
        guard let d = day, let m = month, var y = year, let t = time else { return nil }
        // RFC 5322 §4.3: 00-49 → 2000-2049, 50-99 and three digits → add 1900.
        if yearDigits <= 2 {
            y += y < 50 ? 2000 : 1900
        } else if yearDigits == 3 {
            y += 1900
        }
        guard (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y),
              (0...23).contains(t.h), (0...59).contains(t.m), (0...60).contains(t.s) else { return nil }
        let days = daysFromCivil(year: y, month: m, day: d)
        let seconds = days * 86400 + t.h * 3600 + t.m * 60 + t.s - (offset ?? 0)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) private static func isLetter(_ b: UInt8) -> Bool { MIMEBytes.lower(b) &- 0x61 < 26 }

    private static func number(_ token: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard token.count <= 4 else { return nil }
        var value = 0
        for b in token {
            guard isDigit(b) else { return nil }
            value = value * 10 + Int(b - 0x30)
        }
        return (value, token.count)
    }

    /// `hh:mm` or `hh:mm:ss`.
    private static func clock(_ token: UnsafeRawBufferPointer) -> (h: Int, m: Int, s: Int)? {
        var parts = (0, 0, 0)
        var index = 0
        var digits = 0
        for b in token {
            if b == UInt8(ascii: ":") {
                guard digits > 0, index < 2 else { return nil }
                index += 1
                digits = 0
            } else if isDigit(b), digits < 2 {
                let d = Int(b - 0x30)
                switch index {
                case 0: parts.0 = parts.0 * 10 + d
                case 1: parts.1 = parts.1 * 10 + d
                default: parts.2 = parts.2 * 10 + d
                }
                digits += 1
            } else {
                return nil
            }
        }
        guard digits > 0, index >= 1 else { return nil }
        return parts
    }

    /// `+hhmm`, `-hhmm`, `+hh:mm`, as seconds east of UTC. `-0000` is "unknown", read as UTC.
    private static func numericZone(_ token: UnsafeRawBufferPointer) -> Int? {
        var value = 0
        var digits = 0
        for b in token.dropFirst() {
            if isDigit(b) {
                // More than four digits is no zone; stop before a long run overflows `value`.
                guard digits < 4 else { return nil }
                value = value * 10 + Int(b - 0x30)
                digits += 1
            } else if b != UInt8(ascii: ":") {
                return nil
            }
        }
        guard digits == 4, value % 100 < 60 else { return nil }
        let seconds = (value / 100) * 3600 + (value % 100) * 60
        return token[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    private static func lowered(_ token: UnsafeRawBufferPointer) -> UInt32 {
        // Up to four lower-cased letters packed into an integer, for cheap comparisons.
        var key: UInt32 = 0
        for b in token.prefix(4) { key = key << 8 | UInt32(MIMEBytes.lower(b)) }
        return key
    }

    @inline(__always)
    private static func key(_ s: StaticString) -> UInt32 {
        var key: UInt32 = 0
        for i in 0..<s.utf8CodeUnitCount { key = key << 8 | UInt32(s.utf8Start[i]) }
        return key
    }

    /// A month name or a prefix of at least three letters ("Jan", "January", "Sept").
    private static func monthNumber(_ token: UnsafeRawBufferPointer) -> Int? {
        guard token.count >= 3 else { return nil }
        switch lowered(UnsafeRawBufferPointer(rebasing: token.prefix(3))) {
        case key("jan"): return 1
        case key("feb"): return 2
        case key("mar"): return 3
        case key("apr"): return 4
        case key("may"): return 5
        case key("jun"): return 6
        case key("jul"): return 7
        case key("aug"): return 8
        case key("sep"): return 9
        case key("oct"): return 10
        case key("nov"): return 11
        case key("dec"): return 12
        default: return nil
        }
    }

    private static func isDayName(_ token: UnsafeRawBufferPointer) -> Bool {
        guard token.count >= 3 else { return false }
        switch lowered(UnsafeRawBufferPointer(rebasing: token.prefix(3))) {
        case key("mon"), key("tue"), key("wed"), key("thu"), key("fri"), key("sat"), key("sun"): return true
        default: return false
        }
    }

    /// RFC 5322 §4.3 zone names; military letters mean "unknown" and are read as UTC.
    private static func zoneName(_ token: UnsafeRawBufferPointer) -> Int? {
        if token.count == 1 { return 0 }
        guard token.count <= 4 else { return nil }
        switch lowered(token) {
        case key("ut"), key("utc"), key("gmt"), key("z"): return 0
        case key("est"): return -5 * 3600
        case key("edt"): return -4 * 3600
        case key("cst"): return -6 * 3600
        case key("cdt"): return -5 * 3600
        case key("mst"): return -7 * 3600
        case key("mdt"): return -6 * 3600
        case key("pst"): return -8 * 3600
        case key("pdt"): return -7 * 3600
        default: return nil
        }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
