import Foundation
import GRDB
import SpendlexEngine

/// One API key as the ledger knows it: never the key itself, only its hash.
public struct APIKeyRecord: Sendable, Equatable {
    /// The row id in `api_keys`.
    public var id: Int64
    /// What the user called it ("iPhone shortcut").
    public var name: String
    /// When it was created.
    public var createdAt: Date
    /// When it was revoked; nil while it is in force.
    public var revokedAt: Date?

    /// Whether the key was revoked.
    public var isRevoked: Bool { revokedAt != nil }
}

extension Ledger {
    /// Stores a new key by its hash (`keyHash`: hex SHA-256 of the key); the key is not stored.
    public func addAPIKey(name given: String, keyHash: String) throws -> APIKeyRecord {
        let name = CardNumberMasker.mask(given)
        let now = Date()
        return try pool.write { db in
            try db.execute(sql: "INSERT INTO api_keys (name, key_hash, created_at) VALUES (?, ?, ?)",
                           arguments: [name, keyHash, Self.timestamp(now)])
            return APIKeyRecord(id: db.lastInsertedRowID, name: name, createdAt: Self.date(from: Self.timestamp(now)) ?? now)
        }
    }

    /// Every key, oldest first, revoked ones too.
    public func apiKeys() throws -> [APIKeyRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, created_at, revoked_at FROM api_keys ORDER BY id").map(Self.apiKey)
        }
    }

    /// The key with this hash, revoked or not; nil when there is none.
    public func apiKey(hash: String) throws -> APIKeyRecord? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, created_at, revoked_at FROM api_keys WHERE key_hash = ?",
                             arguments: [hash]).map(Self.apiKey)
        }
    }

    /// Revokes a key; false when there is no key with this id. Revoking twice keeps the first time.
    @discardableResult
    public func revokeAPIKey(id: Int64) throws -> Bool {
        try pool.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM api_keys WHERE id = ?", arguments: [id]) == 1 else {
                return false
            }
            try db.execute(sql: "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?",
                           arguments: [Self.now(), id])
            return true
        }
    }

    private static func apiKey(_ row: Row) -> APIKeyRecord {
        APIKeyRecord(id: row["id"], name: row["name"], createdAt: date(from: row["created_at"]) ?? Date(timeIntervalSince1970: 0),
                     revokedAt: (row["revoked_at"] as String?).flatMap(date(from:)))
    }
}
