/// YAML scalar quoting for values taken from messages.
public enum YAMLScalar {
    /// `'text'` with `'` doubled; `"text"` with escapes when the text holds a line break, a
    /// tab or another control character, or a Unicode line or paragraph separator.
    public static func quoted(_ text: String) -> String {
        if text.unicodeScalars.contains(where: needsEscape) { return doubleQuoted(text) }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Plain when the text is a simple identifier YAML reads as a string (not `yes`, `no`,
    /// `null`, `true`, a number), else `quoted`.
    public static func plainOrQuoted(_ text: String) -> String {
        let simple = text.unicodeScalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } ?? false
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
        let reserved: Set<String> = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"]
        return simple && !reserved.contains(text.lowercased()) ? text : quoted(text)
    }

    /// Whether a scalar cannot stand raw in YAML: C0 and C1 controls, DEL, the line and
    /// paragraph separators, the byte order mark, and the noncharacters U+FFFE and U+FFFF.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
            || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// `"text"`, with what cannot stand raw escaped (`\n`, `\x85`, `\u2028`): any text stays
    /// one valid scalar on one line.
    public static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += scalar.value <= 0xFF ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                        : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
