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
        withISOBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `description` as UTF-8 bytes on the stack, for the output path.
    func withISOBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { buffer in
            LocalDate.writeDigits(hour, to: UnsafeMutableBufferPointer(rebasing: buffer[0..<2]))
            buffer[2] = UInt8(ascii: ":")
            LocalDate.writeDigits(minute, to: UnsafeMutableBufferPointer(rebasing: buffer[3..<5]))
            guard let second else { return body(UnsafeBufferPointer(rebasing: buffer[0..<5])) }
            buffer[5] = UInt8(ascii: ":")
            LocalDate.writeDigits(second, to: UnsafeMutableBufferPointer(rebasing: buffer[6..<8]))
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// Seconds since midnight, a missing second counted as 0.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + (second ?? 0) }
}
