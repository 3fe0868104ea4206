/// A wall-clock time without date or zone, as written in a message.
public struct LocalTime: Hashable, Sendable, CustomStringConvertible {
    /// Hour, 0...23.
    public let hour: Int
    /// Minute, 0...59.
    public let minute: Int
    /// Second, 0...59; nil when the text had no seconds.
    public let second: Int?

    /// The time, or nil when a part is out of range.
    public init?(hour: Int, minute: Int, second: Int? = nil) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        if let second, !(0...59).contains(second) { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// "22:26:01", or "22:26" when no seconds were written.
    public var description: String {
        var text = LocalDate.padded(hour, 2) + ":" + LocalDate.padded(minute, 2)
        if let second { text += ":" + LocalDate.padded(second, 2) }
        return text
    }

    /// Seconds since midnight, a missing second counted as 0.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + (second ?? 0) }
}
