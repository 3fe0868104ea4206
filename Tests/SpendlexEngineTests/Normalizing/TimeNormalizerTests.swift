import Testing

@testable import SpendlexEngine

@Suite("TimeNormalizer")
struct TimeNormalizerTests {
    /// raw, description.
    static let times: [(String, String)] = [
        ("22:26:01", "22:26:01"),
        ("22:26", "22:26"),
        ("7:53 PM", "19:53"),
        ("07:53:18 PM", "19:53:18"),
        ("07:53:18PM", "19:53:18"),
        ("07:58:13 pm", "19:58:13"),
        ("7.53pm", "19:53"),
        ("7.53 p.m.", "19:53"),
        ("19.53", "19:53"),
        ("19.53.18", "19:53:18"),
        ("1953 hrs", "19:53"),
        ("1953hrs", "19:53"),
        ("0930 Hrs", "09:30"),
        ("930 hrs", "09:30"),
        ("19:53 hrs", "19:53"),
        ("19:53 hrs.", "19:53"),
        ("19h53", "19:53"),
        ("19H53", "19:53"),
        ("19h", "19:00"),
        ("7 PM", "19:00"),
        ("7pm", "19:00"),
        ("9 hrs", "09:00"),
        ("19:53:18 IST", "19:53:18"),
        ("19:53 UTC", "19:53"),
        ("19:53 GMT+5:30", "19:53"),
        ("19:53 GMT+05:30", "19:53"),
        ("19:53 +0530", "19:53"),
        ("19:53 -08:00", "19:53"),
        ("19:53Z", "19:53"),
        ("19:53 (IST)", "19:53"),
        ("07:53 PM ET", "19:53"),
        ("07:53 PM EST", "19:53"),
        ("12:00 AM", "00:00"),
        ("12:30 a.m.", "00:30"),
        ("12:00 PM", "12:00"),
        ("11:59 P.M.", "23:59"),
        ("1:05 am", "01:05"),
        ("00:15 AM", "00:15"),
        ("12:00:27", "12:00:27"),
        ("12:53", "12:53"),
        ("00:00", "00:00"),
        ("23:59:59", "23:59:59"),
        ("22:26:01.123", "22:26:01"),
        ("09:43.44 AM", "09:43:44"),
        ("9:05.07 pm", "21:05:07"),
        ("  09:30  ", "09:30"),
        ("9:30", "09:30"),
    ]

    @Test("times", arguments: times)
    func time(_ raw: String, _ expected: String) throws {
        #expect(try TimeNormalizer.normalize(raw).description == expected)
    }

    @Test("invalid times", arguments: [
        "", "   ", "25:00", "24:00", "12:61", "12:00:60", "13:00 PM", "0:30 PM", "noon", "7", "1953", "12:5",
        "12:345", "123:45", "12345 hrs", "12:00 foo bar", "12:00 PM PM", "12:00 Pacific", "12:00 (IST", "ab:cd",
        "-12:00", "12::00", "12:00:5",
    ])
    func invalid(_ raw: String) {
        #expect {
            _ = try TimeNormalizer.normalize(raw)
        } throws: { error in
            (error as? FieldError)?.id == "time.invalid"
        }
    }

    @Test func secondsAreOptional() throws {
        let time = try TimeNormalizer.normalize("07:53 PM")
        #expect(time.hour == 19)
        #expect(time.minute == 53)
        #expect(time.second == nil)
        #expect(time.secondsSinceMidnight == 19 * 3600 + 53 * 60)
        #expect(try TimeNormalizer.normalize("19:53:00").second == 0)
    }

    @Test func localTimeValidates() {
        #expect(LocalTime(hour: 24, minute: 0) == nil)
        #expect(LocalTime(hour: 23, minute: 60) == nil)
        #expect(LocalTime(hour: 23, minute: 59, second: 60) == nil)
        #expect(LocalTime(hour: 0, minute: 0, second: 0)?.description == "00:00:00")
        #expect(LocalTime(hour: 7, minute: 5)?.description == "07:05")
    }
}
