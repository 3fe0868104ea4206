/// Byte-level tests for what a line or a file looks like: an mbox `From ` line, an RFC 822
/// header line, binary data. Shared by the detector and the readers so that both agree.
enum InputShape {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    /// Space, tab, CR or LF.
    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// True if `[start, start+length)` (a line, without its LF; a trailing CR is allowed) is an
    /// mbox From_ line: `From `, an envelope sender (an address, `MAILER-DAEMON`, `-`, Gmail's
    /// `1234567890@xxx`), then a date with a time (`12:34`) and a four-digit year. Both asctime
    /// (`Mon Jan  1 00:00:00 2024`) and Gmail Takeout's `Mon Jan 01 00:00:00 +0000 2026` match.
    static func isFromLine(_ start: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        var n = length
        if n > 0, start[n - 1] == carriageReturn { n -= 1 }
        guard n >= 16, n <= 1024,
              start[0] == UInt8(ascii: "F"), start[1] == UInt8(ascii: "r"), start[2] == UInt8(ascii: "o"),
              start[3] == UInt8(ascii: "m"), start[4] == 0x20 else { return false }
        var i = 5
        while i < n, start[i] == 0x20 || start[i] == 0x09 { i += 1 }
        let sender = i
        while i < n, start[i] != 0x20, start[i] != 0x09 { i += 1 }
        guard i > sender, i < n else { return false }
        var hasTime = false
        var hasYear = false
        // Length of the current all-digit token, or -1 once it holds another byte.
        var digits = -1
        while i < n {
            let byte = start[i]
            if byte &- 0x30 < 10 {
                if digits >= 0 { digits &+= 1 }
            } else if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") {
                if digits == 4 { hasYear = true }
                digits = 0
            } else {
                if byte == UInt8(ascii: ":"), i &+ 2 < n, isDigit(start[i &- 1]), isDigit(start[i &+ 1]), isDigit(start[i &+ 2]) {
                    hasTime = true
                }
                digits = -1
            }
            i &+= 1
        }
        if digits == 4 { hasYear = true }
        return hasTime && hasYear
    }

    /// True if the line starts with an RFC 5322 field name (printable ASCII but `:`) followed by
    /// `:`, as in `Received: from …`, `X-GM-THRID: 123`.
    static func isHeaderLine(_ start: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        var i = 0
        while i < length {
            let byte = start[i]
            if byte == UInt8(ascii: ":") { return i > 0 }
            guard byte > 0x20, byte < 0x7F else { return false }
            i += 1
        }
        return false
    }

    /// True if the line begins with `From ` (mbox separator or envelope line, any shape).
    static func startsWithFromSpace(_ start: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        length >= 5 && start[0] == UInt8(ascii: "F") && start[1] == UInt8(ascii: "r")
            && start[2] == UInt8(ascii: "o") && start[3] == UInt8(ascii: "m") && start[4] == 0x20
    }

    /// Why the bytes cannot be text (a NUL byte, or mostly control bytes and invalid UTF-8), or
    /// nil when they can. Only the first 8 KiB are examined.
    static func binaryReason(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let sample = UnsafeBufferPointer(rebasing: bytes.prefix(8192))
        if let magic = knownBinaryFormat(sample) { return "binary data (\(magic))" }
        var suspicious = 0
        var i = 0
        while i < sample.count {
            let byte = sample[i]
            if byte == 0 { return "binary data (NUL bytes)" }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D, byte != 0x0C, byte != 0x1B {
                suspicious += 1
                i += 1
                continue
            }
            if byte < 0x80 { i += 1; continue }
            // A UTF-8 sequence: a lead byte and 1–3 continuation bytes. Legacy 8-bit text (Latin-1)
            // fails this too, so only a high share counts.
            let length = byte >= 0xF0 && byte < 0xF5 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0
            var valid = length > 0 && i + length <= sample.count
            if valid { for k in 1..<length where sample[i + k] & 0xC0 != 0x80 { valid = false } }
            if valid { i += length } else { suspicious += 1; i += 1 }
        }
        return suspicious * 10 > sample.count ? "binary data (control bytes)" : nil
    }

    /// Names well-known binary containers so that the reason says what the file is.
    static func knownBinaryFormat(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func starts(_ magic: [UInt8]) -> Bool { bytes.count >= magic.count && zip(bytes, magic).allSatisfy { $0 == $1 } }
        if starts([0x1F, 0x8B]) { return "gzip-compressed; decompress it first" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a zip archive; extract it first" }
        if starts(Array("SQLite format 3".utf8)) { return "an SQLite database" }
        if starts(Array("%PDF".utf8)) { return "a PDF document" }
        if starts([0x42, 0x5A, 0x68]) { return "bzip2-compressed; decompress it first" }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "xz-compressed; decompress it first" }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return "zstd-compressed; decompress it first" }
        if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) { return "UTF-16 text; convert it to UTF-8 first" }
        return nil
    }
}
