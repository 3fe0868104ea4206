/// A calendar date and time of day without a time zone, from seconds since 1970-01-01 00:00
/// (Howard Hinnant's days-from-civil algorithm), and the formats mail and SMS use.
///
/// Foundation's `DateFormatter` is locale- and ICU-dependent and slow; the generators need
/// the same bytes everywhere and fast.
public struct CivilTime: Sendable {
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...31.
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// 0 = Sunday.
    public let weekday: Int
    /// Seconds since 1970-01-01 00:00 in the same (unstated) time zone.
    public let seconds: Int

    /// The civil time `seconds` after 1970-01-01 00:00.
    public init(seconds: Int) {
        self.seconds = seconds
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        hour = rest / 3600
        minute = rest / 60 % 60
        second = rest % 60
        weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Seconds since 1970 of a civil date at midnight.
    public static func seconds(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * 86_400
    }

    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// "Jan".
    public var monthName: String { Self.monthNames[month - 1] }
    /// "Mon".
    public var weekdayName: String { Self.weekdayNames[weekday] }
    /// Two-digit year.
    public var yy: String { pad2(year % 100) }
    /// 12-hour clock hour, 1...12.
    public var hour12: Int { hour % 12 == 0 ? 12 : hour % 12 }
    /// "AM" or "PM".
    public var meridiem: String { hour < 12 ? "AM" : "PM" }
    /// "HH:MM:SS".
    public var hms: String { "\(pad2(hour)):\(pad2(minute)):\(pad2(second))" }

    /// The mbox From_ line date: "Mon Jan 01 09:05:00 2024" (`%a %b %d %H:%M:%S %Y`).
    public var asctime: String { "\(weekdayName) \(monthName) \(pad2(day)) \(hms) \(year)" }
    /// RFC 5322 without the zone: "Mon, 01 Jan 2024 09:05:00".
    public var rfc5322: String { "\(weekdayName), \(pad2(day)) \(monthName) \(year) \(hms)" }
}

/// Two digits, zero-padded.
@inlinable public func pad2(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}
