/// The parts of a `Content-Type` value the decoder needs: media type, `boundary` and
/// `charset`, read from bytes.
///
/// Parameters are read the way Python's `email.message` reads them: split on `;` outside
/// quotes, name up to the first `=`, an unquoted value runs to the next `;` (so the common
/// unquoted `boundary=----=_Part_1` works). RFC 2231 continuations (`name*0`, `name*1*`)
/// and extended values (`charset*=utf-8''...`) are joined and percent-decoded.
struct MIMEContentType: Sendable, Equatable {
    /// Lower-cased type and subtype, e.g. `text` and `plain`.
    var type: String
    var subtype: String
    /// The boundary parameter exactly as written (boundaries are case-sensitive).
    var boundary: [UInt8]?
    /// The charset parameter as written.
    var charset: [UInt8]?

    static let textPlain = MIMEContentType(type: "text", subtype: "plain")
    static let messageRFC822 = MIMEContentType(type: "message", subtype: "rfc822")

    init(type: String, subtype: String, boundary: [UInt8]? = nil, charset: [UInt8]? = nil) {
        self.type = type
        self.subtype = subtype
        self.boundary = boundary
        self.charset = charset
    }

    /// Parses a field value; a value without exactly one `/` in its media type is
    /// `text/plain`, as RFC 2045 §5.2 and Python say.
    init(_ value: UnsafeRawBufferPointer) {
        let n = value.count
        var i = 0
        while i < n, value[i] != UInt8(ascii: ";") {
            if value[i] == UInt8(ascii: "\"") {
                i = EmailAddress.skipQuoted(value, i)
            } else {
                i += 1
            }
        }
        let mediaEnd = min(i, n)
        // The media type without whitespace and comments, lower-cased; usually short.
        var media = (0 as UInt64, 0 as UInt64, 0 as UInt64, 0 as UInt64)  // 32 bytes of scratch
        var length = 0
        var slash = -1
        var slashes = 0
        withUnsafeMutableBytes(of: &media) { scratch in
            var j = 0
            while j < mediaEnd {
                let b = value[j]
                if b == UInt8(ascii: "(") {
                    j = EmailAddress.skipComment(value, j)
                    continue
                }
                if !MIMEBytes.isWhitespace(b) {
                    if b == UInt8(ascii: "/") {
                        slash = length
                        slashes += 1
                    }
                    if length < scratch.count { scratch[length] = MIMEBytes.lower(b) }
                    length += 1
                }
                j += 1
            }
        }
        if slashes == 1, slash > 0, slash < length - 1, length <= 32 {
            (type, subtype) = withUnsafeBytes(of: &media) { scratch in
                (MIMEBytes.string(UnsafeRawBufferPointer(rebasing: scratch[..<slash])),
                 MIMEBytes.string(UnsafeRawBufferPointer(rebasing: scratch[(slash + 1)..<length])))
            }
        } else {
            type = "text"
            subtype = "plain"
        }
        boundary = nil
        charset = nil
        guard mediaEnd < n else { return }
        let parameters = UnsafeRawBufferPointer(rebasing: value[(mediaEnd + 1)...])
        if type == "multipart" {
            boundary = MIMEParameters.value(of: "boundary", in: parameters)
            if let b = boundary, b.isEmpty { boundary = nil }
        } else {
            charset = MIMEParameters.value(of: "charset", in: parameters)
        }
    }

    var isMultipart: Bool { type == "multipart" }
    var isText: Bool { type == "text" }
}

/// `; name=value` parameters of a MIME header field (RFC 2045, RFC 2231), looked up one
/// name at a time straight from the bytes.
enum MIMEParameters {
    /// The value of parameter `name` (lower case) in `bytes` (the text after the media
    /// type), RFC 2231 continuations joined and decoded; nil when absent.
    static func value(of name: StaticString, in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        let nameLength = name.utf8CodeUnitCount
        var pieces: [(section: Int, extended: Bool, value: [UInt8])] = []
        var i = 0
        let n = bytes.count
        while i < n {
            // One parameter: up to ';' outside quotes.
            var end = i
            while end < n, bytes[end] != UInt8(ascii: ";") {
                if bytes[end] == UInt8(ascii: "\"") {
                    end = EmailAddress.skipQuoted(bytes, end)
                } else {
                    end += 1
                }
            }
            end = min(end, n)
            defer { i = end + 1 }
            guard let eq = MIMEBytes.find(UInt8(ascii: "="), in: bytes, from: i, to: end) else { continue }
            let (nameLo, nameHi) = MIMEHeaderScanner.trimmed(bytes, i..<eq)
            guard nameHi - nameLo >= nameLength, MIMEBytes.matchesLowercased(bytes, at: nameLo, end: nameHi, name)
            else { continue }
            // `name`, `name*`, `name*N` or `name*N*`.
            var section = 0
            var extended = false
            var k = nameLo + nameLength
            if k < nameHi {
                guard bytes[k] == UInt8(ascii: "*") else { continue }
                k += 1
                var digits = 0
                while k < nameHi, bytes[k] &- 0x30 < 10 {
                    // RFC 2231 numbers a value's sections from 0, a handful at most: a section number
                    // of more than five digits is no continuation (the parameter is skipped below),
                    // and more digits than an Int holds overflowed (found by fuzzing).
                    guard digits < 5 else { break }
                    section = section * 10 + Int(bytes[k] - 0x30)
                    digits += 1
                    k += 1
                }
                if k < nameHi, bytes[k] == UInt8(ascii: "*") {
                    extended = true
                    k += 1
                } else if digits == 0 {
                    extended = true
                }
                guard k == nameHi else { continue }
            }
            let (valueLo, valueHi) = MIMEHeaderScanner.trimmed(bytes, (eq + 1)..<end)
            let written = UnsafeRawBufferPointer(rebasing: bytes[valueLo..<valueHi])
            let value = written.first == UInt8(ascii: "\"") ? unquoted(written) : Array(written)
            if !extended, section == 0, pieces.isEmpty, nameHi - nameLo == nameLength {
                return value  // the plain, common case
            }
            pieces.append((section, extended, value))
        }
        guard !pieces.isEmpty else { return nil }
        var result: [UInt8] = []
        for (index, piece) in pieces.sorted(by: { $0.section < $1.section }).enumerated() {
            guard piece.extended else {
                result += piece.value
                continue
            }
            var value = piece.value[...]
            // The first extended section starts with `charset'language'`.
            if index == 0, let q1 = value.firstIndex(of: UInt8(ascii: "'")),
               let q2 = value[(q1 + 1)...].firstIndex(of: UInt8(ascii: "'")) {
                value = value[(q2 + 1)...]
            }
            result += percentDecoded(value)
        }
        return result
    }

    private static func unquoted(_ value: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var i = 1
        while i < value.count {
            let b = value[i]
            if b == UInt8(ascii: "\\"), i + 1 < value.count {
                out.append(value[i + 1])
                i += 2
                continue
            }
            if b == UInt8(ascii: "\"") { break }
            out.append(b)
            i += 1
        }
        return out
    }

    private static func percentDecoded(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = value.startIndex
        while i < value.endIndex {
            if value[i] == UInt8(ascii: "%"), i + 2 < value.endIndex {
                let hi = MIMEBytes.hexValue(value[i + 1])
                let lo = MIMEBytes.hexValue(value[i + 2])
                if hi != 0xFF, lo != 0xFF {
                    out.append(hi << 4 | lo)
                    i += 3
                    continue
                }
            }
            out.append(value[i])
            i += 1
        }
        return out
    }
}
