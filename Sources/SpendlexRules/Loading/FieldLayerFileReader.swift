import Yams

/// Reads the field layer file. The accepted keys are listed here and in
/// `grammars/spendlex-rules.schema.json`; keep the two in step.
enum FieldLayerFileReader {
    static let keys = ["field_layer", "description", "finders", "channels", "roles", "kinds", "card_kinds", "advice"]
    /// Fields the layer may find: those a message states whatever its format.
    static let layerFields: [FieldName] = [.balance, .reference, .last4, .account, .card]

    static func isFieldLayer(_ keys: Set<String>) -> Bool { keys.contains("field_layer") }

    static func read(_ root: Node, with reader: inout NodeReader) -> FieldLayer? {
        guard let entries = reader.entries(of: root, context: "a field layer", allowed: keys),
              let nameNode = entries.first(where: { $0.key.value == "field_layer" })?.value,
              let name = reader.string(nameNode, key: "field_layer") else { return nil }
        var layer = FieldLayer(name: name, location: reader.location(of: root))
        for (key, node) in entries {
            switch key.value {
            case "description": _ = reader.string(node, key: "description")
            case "finders":
                guard let fields = reader.entries(of: node, context: "finders", allowed: layerFields.map(\.rawValue)) else { break }
                for (field, patterns) in fields {
                    guard let name = FieldName(rawValue: field.value) else { continue }
                    let list = reader.list(patterns, key: field.value).compactMap { finder(of: $0, with: &reader) }
                    layer.finders.append((Located(name, at: field.location), list))
                }
            case "roles":
                for (role, patternNode) in reader.namedEntries(of: node, key: "roles", expected: "role names to patterns") ?? [] {
                    guard let pattern = reader.pattern(patternNode, key: role.value) else { continue }
                    if role.value == "amount" {
                        reader.report(.invalidValue(role.value, for: "roles", allowed: "a role other than amount (balance, limit, fee, ...)",
                                                    at: role.location))
                    } else {
                        layer.roles.append((role.value, pattern))
                    }
                }
            case "kinds":
                for (name, patternNode) in reader.namedEntries(of: node, key: "kinds", expected: "kinds to patterns") ?? [] {
                    guard let kind = TransactionKind(rawValue: name.value) else {
                        reader.report(.invalidValue(name.value, for: "kinds",
                                                    allowed: TransactionKind.allCases.map(\.rawValue).joined(separator: ", "),
                                                    at: name.location))
                        continue
                    }
                    guard let pattern = reader.pattern(patternNode, key: name.value) else { continue }
                    layer.kinds.append((Located(kind, at: name.location), pattern))
                }
            case "card_kinds":
                for (name, patternNode) in reader.namedEntries(of: node, key: "card_kinds", expected: "card kinds to patterns") ?? [] {
                    guard let kind = CardKind(rawValue: name.value) else {
                        reader.report(.invalidValue(name.value, for: "card_kinds",
                                                    allowed: CardKind.allCases.map(\.rawValue).joined(separator: ", "),
                                                    at: name.location))
                        continue
                    }
                    // One pattern, or a list: the first for the Latin script, the others for other
                    // scripts (the engine reads them only in a text that has a byte outside ASCII).
                    let nodes = patternNode.sequence != nil ? reader.list(patternNode, key: name.value) : [patternNode]
                    for (index, node) in nodes.enumerated() {
                        guard let pattern = reader.pattern(node, key: name.value) else { continue }
                        layer.cardKinds.append((Located(kind, at: name.location), pattern, otherScripts: index > 0))
                    }
                }
            case "advice":
                layer.advice = reader.list(node, key: "advice").compactMap { reader.pattern($0, key: "advice") }
            case "channels":
                for (channel, patternNode) in reader.namedEntries(of: node, key: "channels", expected: "channel names to patterns") ?? [] {
                    guard let pattern = reader.pattern(patternNode, key: channel.value) else { continue }
                    layer.channels.append((channel.value, pattern))
                }
            default: break
            }
        }
        return layer
    }

    /// A finder: a pattern, or `{pattern: ..., countries: [KH]}` for a format only some countries use.
    private static func finder(of node: Node, with reader: inout NodeReader) -> LayerFinder? {
        guard node.mapping != nil else { return reader.pattern(node, key: "a finder").map { LayerFinder(pattern: $0) } }
        guard let entries = reader.entries(of: node, context: "a finder", allowed: ["pattern", "countries"]) else { return nil }
        guard let patternNode = entries.first(where: { $0.key.value == "pattern" })?.value else {
            reader.report(.missingKey("pattern", in: "a finder", at: reader.location(of: node)))
            return nil
        }
        guard let pattern = reader.pattern(patternNode, key: "pattern") else { return nil }
        var countries: [Located<String>] = []
        if let countriesNode = entries.first(where: { $0.key.value == "countries" })?.value {
            for item in reader.list(countriesNode, key: "countries") {
                guard let code = reader.string(item, key: "a country") else { continue }
                guard code.value.count == 2, code.value.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                    reader.report(.invalidValue(code.value, for: "countries", allowed: "ISO 3166-1 alpha-2 codes such as KH",
                                                at: code.location))
                    continue
                }
                countries.append(code)
            }
        }
        return LayerFinder(pattern: pattern, countries: countries)
    }
}
