import Yams

/// Reads the field layer file. The accepted keys are listed here and in
/// `grammars/spendlex-rules.schema.json`; keep the two in step.
enum FieldLayerFileReader {
    static let keys = ["field_layer", "description", "finders", "channels", "roles"]
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
                    let list = reader.list(patterns, key: field.value).compactMap { reader.pattern($0, key: "a finder") }
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
}
