import SpendlexRules

/// The days of one cap period: from `start` through `end`, both inclusive.
public struct CapPeriodWindow: Sendable, Equatable {
    /// First day of the period.
    public let start: LocalDate
    /// Last day of the period.
    public let end: LocalDate

    /// The period of kind `period` that contains `date`, for a card with this statement day and
    /// anniversary. Without a statement day, a statement cycle is the calendar month; without an
    /// anniversary, a membership year is the calendar year.
    public init(_ period: CapPeriod, containing date: LocalDate, statementDay: Int?, anniversary: LocalDay?) {
        switch period {
        case .month:
            self = Self.month(of: date)
        case .quarter:
            let first = (date.month - 1) / 3 * 3 + 1
            let start = LocalDate(year: date.year, month: first, day: 1)!
            let last = first + 2
            self.init(start: start, end: LocalDate(year: date.year, month: last,
                                                   day: LocalDate.daysInMonth(last, year: date.year))!)
        case .year:
            self.init(start: LocalDate(year: date.year, month: 1, day: 1)!, end: LocalDate(year: date.year, month: 12, day: 31)!)
        case .statement:
            guard let statementDay else {
                self = Self.month(of: date)
                return
            }
            // The cycle closes on the statement day (clamped to the month's length); it starts the day
            // after the previous close.
            func close(_ year: Int, _ month: Int) -> LocalDate {
                LocalDate(year: year, month: month, day: min(statementDay, LocalDate.daysInMonth(month, year: year)))!
            }
            let thisClose = close(date.year, date.month)
            let end: LocalDate
            if date <= thisClose { end = thisClose } else {
                let (year, month) = date.month == 12 ? (date.year + 1, 1) : (date.year, date.month + 1)
                end = close(year, month)
            }
            let (py, pm) = end.month == 1 ? (end.year - 1, 12) : (end.year, end.month - 1)
            self.init(start: close(py, pm).adding(days: 1)!, end: end)
        case .anniversary:
            guard let anniversary else {
                self.init(.year, containing: date, statementDay: nil, anniversary: nil)
                return
            }
            func day(_ year: Int) -> LocalDate {
                LocalDate(year: year, month: anniversary.month,
                          day: min(anniversary.day, LocalDate.daysInMonth(anniversary.month, year: year)))!
            }
            let start = day(date.year) <= date ? day(date.year) : day(date.year - 1)
            self.init(start: start, end: day(start.year + 1).adding(days: -1)!)
        }
    }

    /// Creates a window.
    public init(start: LocalDate, end: LocalDate) {
        self.start = start
        self.end = end
    }

    private static func month(of date: LocalDate) -> CapPeriodWindow {
        CapPeriodWindow(start: LocalDate(year: date.year, month: date.month, day: 1)!,
                        end: LocalDate(year: date.year, month: date.month, day: LocalDate.daysInMonth(date.month, year: date.year))!)
    }
}

extension LocalDate {
    /// `2026-Q4`.
    public var quarterID: String { "\(year)-Q\((month - 1) / 3 + 1)" }
}
