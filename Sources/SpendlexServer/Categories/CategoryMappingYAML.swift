import Foundation
import SpendlexEngine
import SpendlexRules
import SpendlexStore

/// The user's mappings as rows of a merchant table of rules/categories.yaml (`GET
/// /categories/mappings?format=yaml`). Every string is a double-quoted YAML scalar with what YAML
/// cannot carry raw escaped (`YAMLScalar.doubleQuoted`, as drafted rule files write them): a
/// merchant with a newline or a U+0080 stays one valid row.
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
    static func quoted(_ text: String) -> String { YAMLScalar.doubleQuoted(text) }
}
