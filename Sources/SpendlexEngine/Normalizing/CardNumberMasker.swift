/// Hides full card numbers in free text before it is stored, logged or shown.
///
/// The rule: a card number is 13 to 19 digits (ASCII, or another script's read as ASCII: "٤١١١…"),
/// written together or in groups joined by single spaces or dashes, that pass the Luhn check and
/// are not one digit repeated. It is
/// masked wherever it stands, letters touching it included ("EAZYDINE4111111111111111",
/// "4111111111111111abc"), because a merchant or an id glued to a card number is exactly how
/// one leaks. What stays readable: runs of 12 digits or fewer (UPI references, phone
/// numbers, dates), unbroken runs of 20 digits or more (UTRs and other long references,
/// which no card number is part of), runs that fail the Luhn check, and runs of one repeated
/// digit ("IN00000000000000", a zero-filled field). The price: one 13–19 digit reference in
/// ten passes the Luhn check by chance and is masked too; a leaked card number costs more.
public enum CardNumberMasker {
    /// Masks every card number (see the type's rule), keeping the last 4 digits:
    /// "4111 1111 1111 1111" → "XXXXXXXXXXXX1111" (separators dropped). Within a longer
    /// grouped run ("Call 1800 2662 4111 1111 1111 1111") the first consecutive groups that
    /// form a number are masked. Other text is unchanged, and the input itself is returned
    /// when there is nothing to mask.
    public static func mask(_ text: String) -> String {
        let (masked, mayHoldOtherDigits) = maskASCII(text)
        // A card number in the digits of another script ("٤١١١…" in Arabic-Indic) is one too: when
        // the text holds such digits and, read in ASCII digits, a card number, that reading is
        // what is kept (its other-script digits become ASCII ones). A text without a byte that can
        // start such a digit (noted in the same pass) is not read again.
        guard mayHoldOtherDigits, masked == text, NormalizingText.hasOtherScriptDigit(text),
              let ascii = NormalizingText.withASCIIDigits(text) else {
            return masked
        }
        let maskedASCII = maskASCII(ascii).masked
        return maskedASCII == ascii ? masked : maskedASCII
    }

    /// `mask(_:)` for ASCII digits; and whether the text has a byte that starts a digit of another
    /// script (`NormalizingText.hasOtherScriptDigit`), seen in the same pass: a second pass over
    /// each message for it cost 0.7% of a batch run.
    private static func maskASCII(_ text: String) -> (masked: String, mayHoldOtherDigits: Bool) {
        var mayHoldOtherDigits = false
        let result: [UInt8]? = text.withUTF8Bytes { bytes -> [UInt8]? in
            var output: [UInt8]?
            var copied = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let byte = bytes[i]
                guard isDigit(byte) else {
                    if byte >= 0xD9, NormalizingText.mayStartOtherScriptDigit(byte) { mayHoldOtherDigits = true }
                    i += 1
                    continue
                }
                // Digit groups joined by single spaces or dashes: first their extent and digit
                // count, without allocating. Most chains (dates, amounts, short references) hold
                // fewer than 13 digits and end here: every message's id, sender and subject are
                // masked, and an array of groups per chain was an allocation per date in them.
                var j = i
                var digits = 0
                while true {
                    while j < n, isDigit(bytes[j]) {
                        j += 1
                        digits += 1
                    }
                    if j + 1 < n, bytes[j] == 0x20 || bytes[j] == 0x2D, isDigit(bytes[j + 1]) {
                        j += 1
                    } else {
                        break
                    }
                }
                let chainEnd = j
                guard digits >= 13 else {
                    i = chainEnd
                    continue
                }
                var groups: [Range<Int>] = []
                j = i
                while j < chainEnd {
                    let start = j
                    while j < chainEnd, isDigit(bytes[j]) { j += 1 }
                    groups.append(start..<j)
                    j += 1  // the separator
                }
                var a = 0
                while a < groups.count {
                    var matchEnd: Int?
                    var count = 0
                    var b = a
                    while b < groups.count {
                        count += groups[b].count
                        if count > 19 { break }
                        if count >= 13, isLuhnValid(digitBytes(bytes, groups[a...b])),
                           !isOneDigitRepeated(digitBytes(bytes, groups[a...b])) { matchEnd = b }
                        b += 1
                    }
                    guard let end = matchEnd else {
                        a += 1
                        continue
                    }
                    let digits = Array(digitBytes(bytes, groups[a...end]))
                    if output == nil { output = []; output!.reserveCapacity(n) }
                    output!.append(contentsOf: bytes[copied..<groups[a].lowerBound])
                    output!.append(contentsOf: repeatElement(UInt8(ascii: "X"), count: digits.count - 4))
                    output!.append(contentsOf: digits.suffix(4))
                    copied = groups[end].upperBound
                    a = end + 1
                }
                i = chainEnd
            }
            if output != nil { output!.append(contentsOf: bytes[copied..<n]) }
            return output
        }
        guard let result else { return (text, mayHoldOtherDigits) }
        return (String(decoding: result, as: UTF8.self), mayHoldOtherDigits)
    }

    /// Whether ASCII digits pass the Luhn (mod 10) check. False when empty, shorter than 2 digits, or
    /// when any element is not an ASCII digit.
    public static func isLuhnValid<S: Sequence>(_ digits: S) -> Bool where S.Element == UInt8 {
        // Sums for both parities, since a Sequence's length is known only at its end.
        var sumDoublingEven = 0
        var sumDoublingOdd = 0
        var count = 0
        for byte in digits {
            guard isDigit(byte) else { return false }
            let digit = Int(byte - 0x30)
            let doubled = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
            if count % 2 == 0 {
                sumDoublingEven += doubled
                sumDoublingOdd += digit
            } else {
                sumDoublingEven += digit
                sumDoublingOdd += doubled
            }
            count += 1
        }
        guard count >= 2 else { return false }
        // The rightmost digit is never doubled: with an even count the doubled ones sit at even indices.
        return (count % 2 == 0 ? sumDoublingEven : sumDoublingOdd) % 10 == 0
    }

    /// Whether every digit is the same one: a filler ("0000000000000"), not a number.
    private static func isOneDigitRepeated<S: Sequence>(_ digits: S) -> Bool where S.Element == UInt8 {
        var first: UInt8?
        for digit in digits {
            if first == nil { first = digit } else if digit != first { return false }
        }
        return true
    }

    private static func digitBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ groups: ArraySlice<Range<Int>>)
        -> FlattenSequence<LazyMapSequence<ArraySlice<Range<Int>>, Slice<UnsafeBufferPointer<UInt8>>>>
    {
        groups.lazy.map { bytes[$0] }.joined()
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
