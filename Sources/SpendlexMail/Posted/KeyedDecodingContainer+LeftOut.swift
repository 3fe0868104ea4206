import Foundation

extension KeyedDecodingContainer {
    /// The value at `key`, or nil when the key is left out. An explicit `null` is refused (a 400
    /// naming the field): openapi.yaml declares such a field `type: string` (or another type), not
    /// nullable, and a null where the document does not take one must not pass for "left out".
    package func decodeUnlessLeftOut<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        contains(key) ? try decode(type, forKey: key) : nil
    }
}
