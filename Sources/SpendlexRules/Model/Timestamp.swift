import Foundation

/// Parses an ISO 8601 timestamp: `2026-05-02T16:56:01Z`, with optional fractional
/// seconds, an offset (`+05:30`, `+0530`, `-04`), a space instead of `T`, or a bare
/// date (midnight UTC). A time without an offset is taken as UTC. Days that do not
/// exist (`2026-02-30`) are rejected, not rolled over.
///
/// Hand-written: Foundation's ISO 8601 parser rolls invalid days over to the next
/// month, and this one runs once per input message.
public func parseTimestamp(_ text: String) -> Date? {
    var bytes = Array(text.utf8)[...]
    func number(_ digits: Int) -> Int? {
        guard bytes.count >= digits else { return nil }
        var value = 0
        for byte in bytes.prefix(digits) {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        bytes = bytes.dropFirst(digits)
        return value
    }
    func skip(_ character: Character) -> Bool {
        guard bytes.first == character.asciiValue else { return false }
        bytes = bytes.dropFirst()
        return true
    }
    guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2),
          (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
    var seconds = Double(daysFromCivil(year: year, month: month, day: day) * 86_400)
    if bytes.isEmpty { return Date(timeIntervalSince1970: seconds) }
    guard skip("T") || skip("t") || skip(" "), let hour = number(2), hour < 24, skip(":"),
          let minute = number(2), minute < 60 else { return nil }
    var second = 0
    if skip(":") {
        guard let value = number(2), value < 61 else { return nil }
        second = value
        if skip(".") || skip(",") {
            var scale = 0.1
            while let byte = bytes.first, byte >= 48 && byte <= 57 {
                seconds += Double(byte - 48) * scale
                scale /= 10
                bytes = bytes.dropFirst()
            }
        }
    }
    seconds += Double(hour * 3600 + minute * 60 + second)
    if skip("Z") || skip("z") || bytes.isEmpty {
        return bytes.isEmpty ? Date(timeIntervalSince1970: seconds) : nil
    }
    let sign: Double
    if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
    guard let offsetHours = number(2), offsetHours < 24 else { return nil }
    var offsetMinutes = 0
    if !bytes.isEmpty {
        _ = skip(":")
        guard let value = number(2), value < 60 else { return nil }
        offsetMinutes = value
    }
    guard bytes.isEmpty else { return nil }
    return Date(timeIntervalSince1970: seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60))
}

private func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
private func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
}
