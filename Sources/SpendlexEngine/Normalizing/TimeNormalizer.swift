/// Reads a captured time ("22:26:01", "07:53:18 PM", "7.53pm", "1953 hrs", "19h53", "19:53:18 IST")
/// into a `LocalTime`. A hand-written scanner: no regular expression.
public enum TimeNormalizer {
    /// Accepts `H:MM`, `H:MM:SS` (fractional seconds dropped), `H:MM.SS`, `H.MM`, `HhMM`, `Hh`, `HHMM hrs`,
    /// each with an optional `AM`/`PM` (`am`, `a.m.`, any case, with or without a space), an optional
    /// `hrs`/`hr`/`hours`/`h`, and an optional trailing zone (`IST`, `UTC`, `GMT+5:30`, `+05:30`,
    /// `(ET)`), which is ignored. Surrounding whitespace is tolerated.
    ///
    /// Throws `time.invalid` for anything else and for out-of-range values (`25:00`, `12:61`, `13:00 PM`).
    public static func normalize(_ raw: String) throws(FieldError) -> LocalTime {
        if let ascii = NormalizingText.withASCIIDigits(raw) { return try normalize(ascii) }
        let chars = Array(raw.unicodeScalars)
        var i = 0
        func invalid(_ why: String) -> FieldError {
            FieldError(.timeInvalid, "cannot read a time in \"\(raw)\": \(why)")
        }
        func skipSpaces() {
            while i < chars.count, NormalizingText.isSpace(chars[i]) { i += 1 }
        }
        func readDigits() -> (value: Int, count: Int) {
            var value = 0
            var count = 0
            while i < chars.count, NormalizingText.isDigit(chars[i]), count < 9 {
                value = value * 10 + NormalizingText.digitValue(chars[i])
                count += 1
                i += 1
            }
            return (value, count)
        }
        /// Folded letters at `i` (without consuming them).
        func peekWord() -> (word: String, end: Int) {
            var j = i
            while j < chars.count, NormalizingText.isASCIILetter(chars[j]) { j += 1 }
            return (NormalizingText.foldedLowercase(chars[i..<j]), j)
        }

        skipSpaces()
        let first = readDigits()
        guard first.count > 0 else { throw invalid("it does not start with digits") }
        var hour: Int
        var minute = 0
        var second: Int?
        var compact = false
        var hourOnly = false
        if first.count == 3 || first.count == 4 {
            // "1953 hrs", "0930hrs": only with an hours word, checked below.
            hour = first.value / 100
            minute = first.value % 100
            compact = true
        } else if first.count <= 2 {
            hour = first.value
            let next: Unicode.Scalar? = i < chars.count ? chars[i] : nil
            let digitFollows = i + 1 < chars.count && NormalizingText.isDigit(chars[i + 1])
            if next == ":" || next == "." || ((next == "h" || next == "H") && digitFollows) {
                let separator = next!
                i += 1
                let minutes = readDigits()
                guard minutes.count == 2 else { throw invalid("minutes have two digits") }
                minute = minutes.value
                let secondSeparator = separator == ":" || separator == "."
                // Seconds after the same separator, or after a dot in a colon time ("09:43.44 AM").
                if secondSeparator, i + 1 < chars.count, chars[i] == separator || (separator == ":" && chars[i] == "."),
                   NormalizingText.isDigit(chars[i + 1]) {
                    i += 1
                    let seconds = readDigits()
                    guard seconds.count == 2 else { throw invalid("seconds have two digits") }
                    second = seconds.value
                    // Fractional seconds, "22:26:01.123", are dropped.
                    if separator == ":", i + 1 < chars.count, chars[i] == ".", NormalizingText.isDigit(chars[i + 1]) {
                        i += 1
                        while i < chars.count, NormalizingText.isDigit(chars[i]) { i += 1 }
                    }
                }
            } else {
                // "7 PM", "19h", "7 hrs": checked below.
                hourOnly = true
            }
        } else {
            throw invalid("too many digits")
        }

        skipSpaces()
        // AM / PM, also "a.m." and "p. m.".
        var meridiem: Unicode.Scalar?
        if i < chars.count, chars[i] == "a" || chars[i] == "A" || chars[i] == "p" || chars[i] == "P" {
            var j = i + 1
            if j < chars.count, chars[j] == "." { j += 1 }
            while j < chars.count, chars[j] == " " { j += 1 }
            if j < chars.count, chars[j] == "m" || chars[j] == "M" {
                j += 1
                if j < chars.count, chars[j] == "." { j += 1 }
                if j == chars.count || !NormalizingText.isASCIILetter(chars[j]) {
                    meridiem = chars[i] == "a" || chars[i] == "A" ? "a" : "p"
                    i = j
                    skipSpaces()
                }
            }
        }
        // "hrs", "hr", "hours", "h".
        var hoursWord = false
        let (word, wordEnd) = peekWord()
        if ["hrs", "hr", "hours", "h", "uhr"].contains(word) {
            hoursWord = true
            i = wordEnd
            if i < chars.count, chars[i] == "." { i += 1 }
            skipSpaces()
        }
        guard !compact || hoursWord else { throw invalid("a time without separator needs \"hrs\"") }
        guard !hourOnly || meridiem != nil || hoursWord else { throw invalid("an hour alone needs AM/PM or \"hrs\"") }
        try skipZone(chars, &i, invalid)
        guard i == chars.count else { throw invalid("unexpected text at position \(i + 1)") }

        if let meridiem {
            guard (0...12).contains(hour) else { throw invalid("hour \(hour) with AM/PM") }
            if hour == 0, meridiem == "p" { throw invalid("hour 0 with PM") }
            if meridiem == "a", hour == 12 { hour = 0 }
            if meridiem == "p", hour < 12 { hour += 12 }
        }
        guard let time = LocalTime(hour: hour, minute: minute, second: second) else {
            throw invalid("\(hour):\(minute)\(second.map { ":\($0)" } ?? "") is out of range")
        }
        return time
    }

    /// Skips a zone: a word of up to 5 letters (IST, UTC, GMT, CEST, WIB, ET), an offset (`+5:30`,
    /// `-0800`, `Z`), or both ("GMT+5:30"), optionally in parentheses.
    private static func skipZone(_ chars: [Unicode.Scalar], _ i: inout Int, _ invalid: (String) -> FieldError) throws(FieldError) {
        guard i < chars.count else { return }
        var j = i
        var closing = false
        if chars[j] == "(" {
            closing = true
            j += 1
        }
        let wordStart = j
        while j < chars.count, NormalizingText.isASCIILetter(chars[j]) { j += 1 }
        let word = NormalizingText.foldedLowercase(chars[wordStart..<j])
        guard word.utf8.count <= 5, word != "am", word != "pm" else {
            throw invalid("\"\(String(String.UnicodeScalarView(chars[wordStart..<j])))\" is not a time zone")
        }
        if j < chars.count, chars[j] == "+" || chars[j] == "-" || chars[j] == "\u{2212}" {
            j += 1
            var digits = 0
            while j < chars.count, NormalizingText.isDigit(chars[j]) { j += 1; digits += 1 }
            guard (1...4).contains(digits) else { throw invalid("bad zone offset") }
            if j < chars.count, chars[j] == ":" {
                j += 1
                var minutes = 0
                while j < chars.count, NormalizingText.isDigit(chars[j]) { j += 1; minutes += 1 }
                guard minutes == 2, digits <= 2 else { throw invalid("bad zone offset") }
            }
        }
        guard j > wordStart else { throw invalid("unexpected \"\(chars[i])\"") }
        if closing {
            guard j < chars.count, chars[j] == ")" else { throw invalid("unclosed parenthesis") }
            j += 1
        }
        while j < chars.count, NormalizingText.isSpace(chars[j]) { j += 1 }
        i = j
    }
}
