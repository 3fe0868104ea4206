import SpendlexEngine

/// How a report splits time.
public enum ReportPeriod: String, Sendable, CaseIterable {
    /// ISO 8601 weeks, Monday to Sunday, labelled "2026-W18".
    case week
    /// Calendar months, "2026-05".
    case month
    /// Calendar quarters, "2026-Q2".
    case quarter
    /// Calendar years, "2026".
    case year

    /// The period that holds `date`: its label and its first and last days.
    public func interval(containing date: LocalDate) -> (label: String, start: LocalDate, end: LocalDate) {
        switch self {
        case .week:
            let days = date.daysSinceEpoch
            // 1970-01-01 was a Thursday: Monday is 0.
            let weekday = ((days + 3) % 7 + 7) % 7
            let start = LocalDate(daysSinceEpoch: days - weekday) ?? date
            let end = start.adding(days: 6) ?? date
            // An ISO week belongs to the year of its Thursday.
            let thursday = start.adding(days: 3) ?? date
            let january1 = LocalDate(year: thursday.year, month: 1, day: 1) ?? thursday
            let week = (thursday.daysSinceEpoch - january1.daysSinceEpoch) / 7 + 1
            return ("\(thursday.year)-W\(Self.twoDigits(week))", start, end)
        case .month:
            return ("\(date.year)-\(Self.twoDigits(date.month))", Self.day(date.year, date.month, 1),
                    Self.day(date.year, date.month, LocalDate.daysInMonth(date.month, year: date.year)))
        case .quarter:
            let quarter = (date.month - 1) / 3 + 1
            let last = quarter * 3
            return ("\(date.year)-Q\(quarter)", Self.day(date.year, last - 2, 1),
                    Self.day(date.year, last, LocalDate.daysInMonth(last, year: date.year)))
        case .year:
            return ("\(date.year)", Self.day(date.year, 1, 1), Self.day(date.year, 12, 31))
        }
    }

    private static func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        LocalDate(year: year, month: month, day: day)!
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
