import Yams

/// Walks composed YAML nodes of one file, turning them into located values and
/// collecting a diagnostic for every shape problem instead of stopping at the first.
struct NodeReader {
    let source: SourceText
    private(set) var diagnostics: [Diagnostic] = []

    init(source: SourceText) {
        self.source = source
    }

    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return source.location(line: 1, column: 1) }
        return source.location(line: mark.line, column: mark.column)
    }

    /// Whether a node is YAML null (`~`, `null`, or nothing).
    func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// A mapping's entries in written order, after checking that every key is a known,
    /// unrepeated string. Unknown keys are reported and skipped.
    mutating func entries(of node: Node, context: String, allowed: [String]) -> [(key: Located<String>, value: Node)]? {
        guard let mapping = node.mapping else {
            report(.wrongType(context, expected: "a mapping", at: location(of: node)))
            return nil
        }
        // Keys seen so far, searched in order: a rule file's mappings have a handful of keys, and a
        // dictionary made for each of them was a twentieth of reading 1,000 bank files.
        var seen: [(key: String, location: SourceLocation)] = []
        var result: [(key: Located<String>, value: Node)] = []
        for (keyNode, value) in mapping {
            let keyLocation = location(of: keyNode)
            guard let key = keyNode.scalar?.string else {
                report(.wrongType("a key in \(context)", expected: "a string", at: keyLocation))
                continue
            }
            if let first = seen.first(where: { $0.key == key }) {
                report(.duplicateKey(key, at: keyLocation, first: first.location))
                continue
            }
            seen.append((key, keyLocation))
            guard allowed.contains(key) else {
                report(.unknownKey(key, in: context, allowed: allowed, at: keyLocation))
                continue
            }
            result.append((Located(key, at: keyLocation), value))
        }
        return result
    }

    /// The entries of a mapping whose keys are the user's own (currency symbols, channel or role
    /// names), in written order; keys that are not strings are reported and skipped. nil, reported,
    /// when the node is not a mapping. `expected` says what the mapping maps ("written forms to
    /// ISO 4217 codes").
    mutating func namedEntries(of node: Node, key: String, expected: String) -> [(name: Located<String>, value: Node)]? {
        guard let mapping = node.mapping else {
            report(.wrongType(key, expected: "a mapping of \(expected)", at: location(of: node)))
            return nil
        }
        return mapping.compactMap { keyNode, value in
            string(keyNode, key: "a key of \(key)").map { ($0, value) }
        }
    }

    /// A non-null scalar as a string.
    mutating func string(_ node: Node, key: String) -> Located<String>? {
        guard let scalar = node.scalar, !isNull(node) else {
            report(.wrongType(key, expected: "a string", at: location(of: node)))
            return nil
        }
        return Located(scalar.string, at: location(of: node))
    }

    /// A scalar, where null means "absent".
    mutating func optionalString(_ node: Node, key: String) -> Located<String?>? {
        if isNull(node) { return Located(nil, at: location(of: node)) }
        guard let scalar = node.scalar else {
            report(.wrongType(key, expected: "a string or null", at: location(of: node)))
            return nil
        }
        return Located(scalar.string, at: location(of: node))
    }

    /// A pattern scalar, keeping how it was written so that offsets map back into the file.
    mutating func pattern(_ node: Node, key: String) -> PatternText? {
        guard let scalar = node.scalar, !isNull(node) else {
            report(.wrongType(key, expected: "a pattern string", at: location(of: node)))
            return nil
        }
        let style: ScalarOrigin.Style
        switch scalar.style {
        case .singleQuoted: style = .singleQuoted
        case .doubleQuoted: style = .doubleQuoted
        case .literal: style = .literal
        case .folded: style = .folded
        case .plain, .any: style = .plain
        }
        return PatternText(value: scalar.string,
                           origin: ScalarOrigin(source: source, start: location(of: node), style: style))
    }

    mutating func bool(_ node: Node, key: String) -> Bool? {
        switch node.scalar?.string {
        case "true", "True", "TRUE", "yes", "on": return true
        case "false", "False", "FALSE", "no", "off": return false
        default:
            report(.wrongType(key, expected: "true or false", at: location(of: node)))
            return nil
        }
    }

    /// A sequence's items; a single scalar counts as a one-item list.
    mutating func list(_ node: Node, key: String) -> [Node] {
        if let sequence = node.sequence { return Array(sequence) }
        if node.scalar != nil, !isNull(node) { return [node] }
        if isNull(node) { return [] }
        report(.wrongType(key, expected: "a list", at: location(of: node)))
        return []
    }

    /// A string that must be one of a closed set.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: Node, key: String, as type: T.Type) -> Located<T>?
    where T.RawValue == String {
        guard let text = string(node, key: key) else { return nil }
        guard let value = T(rawValue: text.value) else {
            report(.invalidValue(text.value, for: key,
                                 allowed: T.allCases.map(\.rawValue).joined(separator: ", "), at: text.location))
            return nil
        }
        return Located(value, at: text.location)
    }
}
