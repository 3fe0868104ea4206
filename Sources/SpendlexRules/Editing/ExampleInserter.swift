import Foundation
import Yams

/// Adds an example to a parser of a bank file's text, keeping everything else as written
/// (comments, order, quoting): the new item goes first under the parser's `examples:`, or an
/// `examples:` key is added right after its `id:`. How the playground turns a message whose
/// fields a person confirmed into a test of the file.
public enum ExampleInserter {
    /// Why an example could not be added.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The text is not YAML, or not a bank file with `parsers`.
        case notABankFile(String)
        /// No parser has this id.
        case noParser(String)

        public var description: String {
            switch self {
            case .notABankFile(let why): "not a bank file: \(why)"
            case .noParser(let id): "no parser '\(id)' in the file"
            }
        }
    }

    /// `yaml` with an example of `parser`: `text` (and `sender`) expecting `expect`'s fields.
    public static func adding(to yaml: String, parser: String, text: String, sender: String?,
                              expect: [(field: String, value: String)]) throws(Problem) -> String {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml) } catch { throw .notABankFile("\(error)") }
        guard let parsers = root?.mapping?["parsers"]?.sequence else { throw .notABankFile("it has no parsers") }
        guard let entry = parsers.first(where: { $0.mapping?["id"]?.string == parser }), let mapping = entry.mapping,
              let idKey = mapping.keys.first(where: { $0.string == "id" }), let idLine = idKey.mark?.line,
              let idColumn = idKey.mark?.column else {
            throw .noParser(parser)
        }
        var lines = yaml.components(separatedBy: "\n")
        let keyIndent = String(repeating: " ", count: idColumn - 1)
        var item = ["- text: " + YAMLScalar.doubleQuoted(text)]
        if let sender { item.append("  sender: " + YAMLScalar.doubleQuoted(sender)) }
        if !expect.isEmpty {
            item.append("  expect: {" + expect.map { "\($0.field): \(YAMLScalar.doubleQuoted($0.value))" }.joined(separator: ", ") + "}")
        }
        if let examplesKey = mapping.keys.first(where: { $0.string == "examples" }), let line = examplesKey.mark?.line,
           mapping["examples"]?.sequence != nil {
            // Under the existing key, indented as its first item is.
            let next = line < lines.count ? lines[line] : ""
            let indent = String(next.prefix { $0 == " " })
            let itemIndent = next.trimmingCharacters(in: .whitespaces).hasPrefix("-") ? indent : keyIndent + "  "
            lines.insert(contentsOf: item.map { itemIndent + $0 }, at: line)
        } else {
            lines.insert(contentsOf: [keyIndent + "examples:"] + item.map { keyIndent + "  " + $0 }, at: idLine)
        }
        return lines.joined(separator: "\n")
    }
}
