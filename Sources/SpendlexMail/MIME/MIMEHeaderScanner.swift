/// Walks an RFC 5322 header block byte by byte: finds each field's name and the raw
/// extent of its (possibly folded) value, and where the body starts. Values are only
/// turned into strings on demand, so a MIME part's headers cost a few `memchr` calls.
///
/// Line endings may be CRLF or LF, mixed freely. A line that is neither a field nor a
/// continuation ends the header block there (as in Python's `email` feed parser); the
/// caller decides whether that is fatal for the first line.
struct MIMEHeaderScanner {
    /// One field: byte ranges into the scanned buffer.
    struct Field: Sendable {
        /// The name as written, without trailing whitespace before the colon.
        var name: Range<Int>
        /// From just after the colon to the end of the field's last line (before its LF).
        var value: Range<Int>
        /// Whether the value spans several lines.
        var isFolded: Bool
    }

    enum Outcome {
        /// Header block scanned; the body starts at this byte offset.
        case body(at: Int)
        /// The very first line is not a field: the input has no header block.
        case notAHeader
    }

    /// Scans `buffer[start..<end]`, calling `field` for each header field in order.
    /// With `skipEnvelope`, a first line starting with `From ` (an mbox envelope) is skipped.
    @inline(__always)
    static func scan(
        _ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int, skipEnvelope: Bool,
        field: (Field) -> Void
    ) -> Outcome {
        var pos = start
        if skipEnvelope, end - pos >= 5, MIMEBytes.matchesLowercased(buffer, at: pos, end: end, "from "),
           buffer[pos] == UInt8(ascii: "F") {
            pos = MIMEBytes.find(MIMEBytes.lf, in: buffer, from: pos, to: end).map { $0 + 1 } ?? end
        }
        var first = true
        while pos < end {
            let b = buffer[pos]
            if b == MIMEBytes.lf { return .body(at: pos + 1) }
            if b == MIMEBytes.cr, pos + 1 < end, buffer[pos + 1] == MIMEBytes.lf { return .body(at: pos + 2) }
            // The field name: printable ASCII except the colon, then optional WSP (obsolete syntax).
            var i = skipNameWords(buffer, from: pos, to: end)
            while i < end {
                let c = buffer[i]
                if c == UInt8(ascii: ":") || c <= 32 || c >= 127 { break }
                i += 1
            }
            let nameEnd = i
            while i < end, buffer[i] == MIMEBytes.space || buffer[i] == MIMEBytes.tab { i += 1 }
            guard nameEnd > pos, i < end, buffer[i] == UInt8(ascii: ":") else {
                return first ? .notAHeader : .body(at: pos)
            }
            let valueStart = i + 1
            // The field runs on while the next line starts with SP or HTAB.
            var lineEnd = MIMEBytes.find(MIMEBytes.lf, in: buffer, from: valueStart, to: end) ?? end
            var folded = false
            while lineEnd + 1 < end {
                let next = buffer[lineEnd + 1]
                guard next == MIMEBytes.space || next == MIMEBytes.tab else { break }
                folded = true
                lineEnd = MIMEBytes.find(MIMEBytes.lf, in: buffer, from: lineEnd + 1, to: end) ?? end
            }
            field(Field(name: pos..<nameEnd, value: valueStart..<lineEnd, isFolded: folded))
            pos = lineEnd + 1
            first = false
        }
        return .body(at: end)
    }

    /// Skips eight bytes at a time while none of them can end a field name (a colon, or a byte
    /// outside 33...126); the byte loop finds the end in the word that holds it. Every header
    /// of every message goes through here, and many names are longer than eight bytes.
    @inline(__always)
    private static func skipNameWords(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits = ones &* 0x80
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highBits }
        var i = start
        while i + 8 <= end {
            let word = buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let below33 = (word &- ones &* 0x21) & ~word & highBits
            let stops = zeroBytes(word ^ (ones &* 0x3A)) | below33 | (word & highBits) | zeroBytes(word ^ (ones &* 0x7F))
            if stops != 0 { break }
            i += 8
        }
        return i
    }

    /// The unfolded value bytes: line breaks inside removed (the WSP after them kept,
    /// RFC 5322 §2.2.3), leading and trailing whitespace trimmed.
    static func unfoldedValue(
        _ buffer: UnsafeRawBufferPointer, _ field: Field, into out: inout [UInt8]
    ) {
        out.removeAll(keepingCapacity: true)
        let (lo, hi) = trimmed(buffer, field.value)
        guard lo < hi else { return }
        if !field.isFolded {
            MIMEBytes.append(UnsafeRawBufferPointer(rebasing: buffer[lo..<hi]), to: &out)
            return
        }
        // Copy the lines between the line breaks, each in one go.
        var i = lo
        while i < hi {
            let lineEnd = MIMEBytes.find(MIMEBytes.lf, in: buffer, from: i, to: hi) ?? hi
            var contentEnd = lineEnd
            if contentEnd > i, buffer[contentEnd - 1] == MIMEBytes.cr { contentEnd -= 1 }
            MIMEBytes.append(UnsafeRawBufferPointer(rebasing: buffer[i..<contentEnd]), to: &out)
            i = lineEnd + 1
        }
    }

    /// `range` without leading and trailing SP, HTAB, CR, LF.
    @inline(__always)
    static func trimmed(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> (Int, Int) {
        var lo = range.lowerBound
        var hi = range.upperBound
        while lo < hi, MIMEBytes.isWhitespace(buffer[lo]) { lo += 1 }
        while hi > lo, MIMEBytes.isWhitespace(buffer[hi - 1]) { hi -= 1 }
        return (lo, hi)
    }

    /// The unfolded value as a `String` (UTF-8, else Latin-1).
    static func valueString(_ buffer: UnsafeRawBufferPointer, _ field: Field) -> String {
        let (lo, hi) = trimmed(buffer, field.value)
        guard lo < hi else { return "" }
        if !field.isFolded {
            return MIMEBytes.headerString(UnsafeRawBufferPointer(rebasing: buffer[lo..<hi]))
        }
        var out: [UInt8] = []
        out.reserveCapacity(hi - lo)
        unfoldedValue(buffer, field, into: &out)
        return out.withUnsafeBytes { MIMEBytes.headerString($0) }
    }
}
