import Foundation
import SpendlexStore

/// The user's mappings as rows of a merchant table of rules/categories.yaml (`GET
/// /categories/mappings?format=yaml`). Every string is a double-quoted YAML scalar with what YAML
/// cannot carry raw escaped: control characters (C0, DEL, C1), line and paragraph separators, the
/// byte order mark, and surrogates; a merchant with a newline or a U+0080 stays one valid row.
enum CategoryMappingYAML {
    /// The comment line, then one row per mapping.
    static func document(_ mappings: [CategoryMapping]) -> String {
        "# The user's merchant mappings, as rows of a merchant table of rules/categories.yaml.\n" + mappings.map { mapping in
            var row = "- id: \(mapping.rowID)\n  merchant: [\(quoted(mapping.merchant))]\n  category: \(quoted(mapping.category))\n"
            if let subcategory = mapping.subcategory { row += "  subcategory: \(quoted(subcategory))\n" }
            return row
        }.joined()
    }

    /// `text` as a double-quoted YAML scalar.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}":
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
