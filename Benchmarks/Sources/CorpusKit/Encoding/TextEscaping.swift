/// Escapes for the formats the generators write.
public enum TextEscaping {
    /// HTML text as gen_mbox.py escapes it: `& < > '`.
    public static func html(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x27 }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// An XML attribute value as SMS Backup & Restore writes it: `& < > " '` as entities,
    /// line breaks as `&#10;`/`&#13;`, and characters outside the Basic Multilingual Plane as
    /// two surrogate-pair character references (`&#55357;&#56832;` for U+1F600), as the
    /// Android app does.
    public static func xmlAttribute(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if scalar.value > 0xFFFF {
                    let v = scalar.value - 0x10000
                    result += "&#\(0xD800 + (v >> 10));&#\(0xDC00 + (v & 0x3FF));"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A JSON string literal, quotes included; non-ASCII is written as is (UTF-8).
    public static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A header value: as is when ASCII, else RFC 2047 encoded words (UTF-8, base64 or
    /// Q encoding), at most 75 characters each, folded onto continuation lines.
    public static func encodedWords(_ text: String, qEncoding: Bool = false) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        // Split on character boundaries so that no word cuts a UTF-8 sequence.
        var words: [String] = []
        var chunk: [UInt8] = []
        let limit = qEncoding ? 20 : 45  // raw bytes per word keeps each word under 75 characters
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > limit {
                words.append(encodeWord(chunk, q: qEncoding))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(encodeWord(chunk, q: qEncoding)) }
        return words.joined(separator: "\n ")
    }

    private static func encodeWord(_ bytes: [UInt8], q: Bool) -> String {
        guard q else { return "=?utf-8?b?" + Base64Lines.encodeUnwrapped(bytes) + "?=" }
        var text = "=?utf-8?q?"
        for byte in bytes {
            if byte == 0x20 {
                text += "_"
            } else if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "=" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return text + "?="
    }
}
