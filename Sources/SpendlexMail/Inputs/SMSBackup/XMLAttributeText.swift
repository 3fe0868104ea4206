#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes an XML attribute value as SMS Backup & Restore writes it.
///
/// Handles the five predefined entities and numeric references (`&#10;`, `&#x1F600;`). The app
/// writes characters outside the Basic Multilingual Plane as two references to UTF-16
/// surrogates (`&#55357;&#56832;` for 😀), which strict XML parsers reject; here a high
/// surrogate followed by a low one becomes one scalar, and a lone surrogate becomes U+FFFD.
/// Unknown named entities and a bare `&` are kept as written; invalid UTF-8 becomes U+FFFD.
/// Raw line breaks inside the value are kept (XML would turn them into spaces).
enum XMLAttributeText {
    private static let replacement: UInt32 = 0xFFFD

    static func decode(_ start: UnsafePointer<UInt8>, _ length: Int) -> String {
        guard length > 0 else { return "" }
        guard memchr(start, Int32(UInt8(ascii: "&")), length) != nil else {
            return String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
        }
        // Every reference decodes to no more bytes than it is written with (`&#0;` → U+FFFD is 4 → 3),
        // so the output fits in `length` bytes.
        let output = [UInt8](unsafeUninitializedCapacity: length) { buffer, written in
            let out = buffer.baseAddress!
            var used = 0
            var pendingHigh: UInt32?
            func put(_ value: UInt32) {
                let scalar = value == 0 ? Unicode.Scalar(0xFFFD)! : Unicode.Scalar(value) ?? Unicode.Scalar(0xFFFD)!
                for byte in UTF8.encode(scalar)! {
                    out[used] = byte
                    used += 1
                }
            }
            func flushHigh() {
                if pendingHigh != nil { put(replacement); pendingHigh = nil }
            }
            var i = 0
            while i < length {
                // Copy the run up to the next '&' in one go.
                let ampersand = memchr(start + i, Int32(UInt8(ascii: "&")), length - i)
                    .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - start } ?? length
                if ampersand > i {
                    flushHigh()
                    (out + used).update(from: start + i, count: ampersand - i)
                    used += ampersand - i
                    i = ampersand
                    if i == length { break }
                }
                var end = i + 1
                while end < length, end - i <= 12, start[end] != UInt8(ascii: ";") { end += 1 }
                guard end < length, start[end] == UInt8(ascii: ";"), end > i + 1 else {
                    flushHigh()
                    out[used] = UInt8(ascii: "&")
                    used += 1
                    i += 1
                    continue
                }
                let name = UnsafeBufferPointer(start: start + i + 1, count: end - i - 1)
                if name[0] == UInt8(ascii: "#"), let value = numericReference(name) {
                    switch value {
                    case 0xD800...0xDBFF:
                        flushHigh()
                        pendingHigh = value
                    case 0xDC00...0xDFFF:
                        if let high = pendingHigh {
                            put(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                            pendingHigh = nil
                        } else {
                            put(replacement)
                        }
                    default:
                        flushHigh()
                        put(value)
                    }
                } else if let character = namedEntity(name) {
                    flushHigh()
                    out[used] = character
                    used += 1
                } else {
                    flushHigh()
                    (out + used).update(from: start + i, count: end - i + 1)
                    used += end - i + 1
                }
                i = end + 1
            }
            flushHigh()
            written = used
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `#10` or `#x1F600` (without `&` and `;`), or nil if it is not a number.
    private static func numericReference(_ name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        if name.count >= 2, name[1] | 0x20 == UInt8(ascii: "x") {
            guard name.count > 2 else { return nil }
            for byte in name[2...] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value * 16 + UInt32(digit)
                if value > 0x10FFFF { return replacement }
            }
            return value
        }
        guard name.count > 1 else { return nil }
        for byte in name[1...] {
            guard InputShape.isDigit(byte) else { return nil }
            value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
            if value > 0x10FFFF { return replacement }
        }
        return value
    }

    private static func namedEntity(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2 where name[1] == UInt8(ascii: "t"):
            if name[0] == UInt8(ascii: "l") { return UInt8(ascii: "<") }
            if name[0] == UInt8(ascii: "g") { return UInt8(ascii: ">") }
            return nil
        case 3 where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p"):
            return UInt8(ascii: "&")
        case 4 where name.elementsEqual("quot".utf8): return UInt8(ascii: "\"")
        case 4 where name.elementsEqual("apos".utf8): return UInt8(ascii: "'")
        default: return nil
        }
    }
}
