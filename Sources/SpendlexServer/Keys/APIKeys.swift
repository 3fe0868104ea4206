import Crypto
import Foundation
import SpendlexStore

/// The service's API keys: made here, shown once, stored in the ledger only as a SHA-256
/// hash, and checked by hashing what a request presents.
public struct APIKeys: Sendable {
    let ledger: Ledger

    /// Keys kept in `ledger`.
    public init(ledger: Ledger) {
        self.ledger = ledger
    }

    /// Makes a new key named `name`; returns its record and the key itself, which is shown
    /// once and never stored.
    public func create(name: String) throws -> (record: APIKeyRecord, key: String) {
        let key = Self.generate()
        return (try ledger.addAPIKey(name: name, keyHash: Self.hash(key)), key)
    }

    /// Every key, oldest first.
    public func list() throws -> [APIKeyRecord] { try ledger.apiKeys() }

    /// Revokes the key with this id; false when there is none.
    public func revoke(id: Int64) throws -> Bool { try ledger.revokeAPIKey(id: id) }

    /// Checks a presented key by its hash: the key is never compared as text.
    public func check(_ key: String) throws -> APIKeyCheck<APIKeyRecord> {
        guard let record = try ledger.apiKey(hash: Self.hash(key)) else { return .unknown }
        return record.isRevoked ? .revoked : .valid(record)
    }

    /// `slx_` and 32 random bytes in hex (256 bits from the system's secure generator).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "slx_" + hex(bytes)
    }

    /// The SHA-256 of the key's UTF-8 bytes, lowercase hex: what the ledger stores.
    public static func hash(_ key: String) -> String {
        hex(SHA256.hash(data: Array(key.utf8)))
    }

    private static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// How a presented key fares (a service's one-ledger keys, or a household's), and what a key in
/// force gives.
public enum APIKeyCheck<Valid: Sendable>: Sendable {
    /// A key in force.
    case valid(Valid)
    /// A key that was revoked.
    case revoked
    /// No key with this hash.
    case unknown
}

extension APIKeyCheck: Equatable where Valid: Equatable {}
