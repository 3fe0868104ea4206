/// A calendar date without time or zone (proleptic Gregorian), as written in a message.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Year, 1...9999.
    public let year: Int
    /// Month, 1...12.
    public let month: Int
    /// Day of the month, 1...28/29/30/31.
    public let day: Int

    /// The date, or nil when it does not exist (`31-02`, `29-02-2025`, month 13, year 0). Leap years follow
    /// the Gregorian rule: divisible by 4, except centuries not divisible by 400.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= Self.daysInMonth(month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSinceEpoch` days after 1970-01-01 (negative: before), or nil outside years 1...9999.
    public init?(daysSinceEpoch: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Whether `year` has a 29 February.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Number of days of `month` (1...12) in `year`; 0 for a month outside 1...12.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// Days from 1970-01-01 to this date (negative before it).
    public var daysSinceEpoch: Int { Self.dayNumber(year: year, month: month, day: day) }

    /// The date `days` days later (earlier when negative), or nil outside years 1...9999.
    public func adding(days: Int) -> LocalDate? {
        LocalDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// ISO 8601 calendar date, "2026-05-02".
    public var description: String {
        withISOBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `description` as UTF-8 bytes on the stack: string concatenation per
    /// field showed up in profiles of the output path. Years are 1...9999: four digits.
    func withISOBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
            Self.writeDigits(year, to: UnsafeMutableBufferPointer(rebasing: buffer[0..<4]))
            buffer[4] = UInt8(ascii: "-")
            Self.writeDigits(month, to: UnsafeMutableBufferPointer(rebasing: buffer[5..<7]))
            buffer[7] = UInt8(ascii: "-")
            Self.writeDigits(day, to: UnsafeMutableBufferPointer(rebasing: buffer[8..<10]))
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// Fills `out` with the last `out.count` decimal digits of a non-negative `value`, zero-padded.
    static func writeDigits(_ value: Int, to out: UnsafeMutableBufferPointer<UInt8>) {
        var rest = value
        for index in out.indices.reversed() {
            out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// Chronological order.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Howard Hinnant's days_from_civil; also defined for days that do not exist (29-02 of a common
    /// year counts as 1 March), which the year placement of `DateNormalizer` relies on.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension LocalDate {
    /// Parses an ISO 8601 calendar date, "2026-05-02"; nil for anything else or a day that does not exist.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }
}
