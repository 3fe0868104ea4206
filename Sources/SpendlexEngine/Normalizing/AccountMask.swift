/// Reduces an account or card reference, masked or not, to the digits that identify it.
public enum AccountMask {
    /// The last digits of an account or card reference: "XX1234" → "1234", "**** 1234",
    /// "xxxxxxxx1234", "A/c no. XXXXXXX1234", "ending 1234", "1234" → "1234".
    ///
    /// The last run of ASCII digits decides: 3 to 5 written digits are kept as they are (a written
    /// 5-digit tail, "XXXXX-81005" or Amex "ending 81005", keeps 5). A full number of 13–19 digits,
    /// possibly grouped by single spaces or dashes ("4111 1111 1111 1111"), keeps its last 5 when it
    /// has 15 digits (Amex) and its last 4 otherwise; any other run longer than 5 keeps its last 4.
    /// Fewer than 3 digits throws `account.invalid`. Never returns more than 5 digits.
    public static func lastDigits(_ raw: String) throws(FieldError) -> String {
        try raw.withUTF8Bytes { bytes throws(FieldError) in try lastDigits(utf8: bytes, raw: raw) }
    }

    /// `lastDigits` on the UTF-8 bytes of `raw`, without copying them into an array.
    private static func lastDigits(utf8 bytes: UnsafeBufferPointer<UInt8>, raw: String) throws(FieldError) -> String {
        guard let last = bytes.lastIndex(where: isDigit) else {
            throw FieldError(.accountInvalid, "\"\(raw)\" has no digits")
        }
        var tailStart = last
        while tailStart > 0, isDigit(bytes[tailStart - 1]) { tailStart -= 1 }
        let tailLength = last - tailStart + 1

        // The whole number the tail ends, when digits are grouped by single spaces or dashes.
        var total = tailLength
        var groupStart = tailStart
        while groupStart >= 2, bytes[groupStart - 1] == 0x20 || bytes[groupStart - 1] == 0x2D,
              isDigit(bytes[groupStart - 2]) {
            var previous = groupStart - 2
            while previous > 0, isDigit(bytes[previous - 1]) { previous -= 1 }
            total += groupStart - 1 - previous
            groupStart = previous
        }

        let keep: Int
        if (13...19).contains(total) {
            keep = total == 15 ? 5 : 4
        } else if tailLength < 3 {
            throw FieldError(.accountInvalid, "\"\(raw)\" ends with fewer than 3 digits")
        } else {
            keep = tailLength <= 5 ? tailLength : 4
        }
        // `keep` <= 4 or 5 digits; for a grouped number they may span a separator.
        return String(unsafeUninitializedCapacity: keep) { digits in
            var filled = 0
            var index = last
            while filled < keep {
                if isDigit(bytes[index]) {
                    digits[keep - 1 - filled] = bytes[index]
                    filled += 1
                }
                index -= 1
            }
            return keep
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
