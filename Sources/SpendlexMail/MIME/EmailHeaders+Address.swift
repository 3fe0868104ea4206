extension EmailHeaders {
    /// `From`: the address only, lower-cased ("alerts@hdfcbank.net"), from forms like
    /// `"HDFC" <Alerts@HDFCBank.net>`, `alerts@x (comment)`, encoded-word display names.
    /// With several mailboxes, the first; nil when there is no address at all.
    public var fromAddress: String? {
        withValue(of: .from) { EmailAddress.firstAddress(in: $0) } ?? nil
    }
}

/// Pulls the addr-spec out of an RFC 5322 address list without building a parse tree:
/// one pass over the bytes that knows about quoted strings, comments, angle brackets,
/// groups and obsolete routes.
enum EmailAddress {
    /// The first mailbox's addr-spec, lower-cased, whitespace and comments removed.
    static func firstAddress(in value: String) -> String? {
        var value = value
        return value.withUTF8 { firstAddress(in: UnsafeRawBufferPointer($0)) }
    }

    static func firstAddress(in bytes: UnsafeRawBufferPointer) -> String? {
        let n = bytes.count
        // Pass 1: find the first '<' outside quotes and comments, or the end of the first mailbox.
        var i = 0
        var angle: Int?
        var mailboxStart = 0
        var mailboxEnd = n
        scan: while i < n {
            switch bytes[i] {
            case UInt8(ascii: "\""): i = skipQuoted(bytes, i)
            case UInt8(ascii: "("): i = skipComment(bytes, i)
            case UInt8(ascii: "<"):
                angle = i
                break scan
            case UInt8(ascii: ":"):
                // A group's display name ends here: its first member follows.
                mailboxStart = i + 1
                i += 1
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                // An address before any '<' ends the first mailbox; an empty one is skipped.
                if hasAddressCharacters(bytes, mailboxStart, i) {
                    mailboxEnd = i
                    break scan
                }
                mailboxStart = i + 1
                i += 1
            default: i += 1
            }
        }
        var lo = mailboxStart
        var hi = mailboxEnd
        if let angle {
            lo = angle + 1
            hi = lo
            while hi < n, bytes[hi] != UInt8(ascii: ">") {
                if bytes[hi] == UInt8(ascii: "\"") {
                    hi = skipQuoted(bytes, hi)
                } else {
                    hi += 1
                }
            }
            hi = min(hi, n)
        }
        // The usual addr-spec has nothing to remove or lower-case: make the string directly.
        if lo < hi, bytes[lo] != UInt8(ascii: "@"),
           !UnsafeRawBufferPointer(rebasing: bytes[lo..<hi]).contains(where: { byte in
               byte >= 0x80 || (byte &- 0x41) < 26 || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "\"")
                   || MIMEBytes.isWhitespace(byte)
           }) {
            return MIMEBytes.string(UnsafeRawBufferPointer(rebasing: bytes[lo..<hi]))
        }
        // Pass 2: copy the addr-spec without comments and unquoted whitespace.
        var out: [UInt8] = []
        out.reserveCapacity(hi - lo)
        var j = lo
        while j < hi {
            let b = bytes[j]
            if b == UInt8(ascii: "(") {
                j = skipComment(bytes, j)
                continue
            }
            if b == UInt8(ascii: "\"") {
                let end = min(skipQuoted(bytes, j), hi)
                MIMEBytes.append(UnsafeRawBufferPointer(rebasing: bytes[j..<end]), to: &out)
                j = end
                continue
            }
            if !MIMEBytes.isWhitespace(b) { out.append(MIMEBytes.lower(b)) }
            j += 1
        }
        // An obsolete source route (`<@relay,@relay2:user@host>`) is dropped.
        if out.first == UInt8(ascii: "@"), let colon = out.firstIndex(of: UInt8(ascii: ":")) {
            out.removeSubrange(0...colon)
        }
        guard !out.isEmpty else { return nil }
        let address = out.withUnsafeBytes { MIMEBytes.headerString($0) }
        return out.allSatisfy({ $0 < 0x80 }) ? address : address.lowercased()
    }

    private static func hasAddressCharacters(_ bytes: UnsafeRawBufferPointer, _ lo: Int, _ hi: Int) -> Bool {
        var i = lo
        while i < hi {
            if bytes[i] == UInt8(ascii: "(") {
                i = skipComment(bytes, i)
                continue
            }
            if !MIMEBytes.isWhitespace(bytes[i]) { return true }
            i += 1
        }
        return false
    }

    /// Index just past the quoted string starting at `i` (backslash escapes honoured).
    static func skipQuoted(_ bytes: UnsafeRawBufferPointer, _ i: Int) -> Int {
        var j = i + 1
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: "\\"): j += 2
            case UInt8(ascii: "\""): return j + 1
            default: j += 1
            }
        }
        return bytes.count
    }

    /// Index just past the (possibly nested) comment starting at `i`.
    static func skipComment(_ bytes: UnsafeRawBufferPointer, _ i: Int) -> Int {
        var depth = 0
        var j = i
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: "\\"): j += 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return j + 1 }
            default: break
            }
            j += 1
        }
        return bytes.count
    }
}
