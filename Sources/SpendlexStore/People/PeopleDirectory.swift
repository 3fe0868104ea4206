import Foundation
import GRDB
import SpendlexEngine

/// What an API key may do on a service that hosts several people.
public enum KeyScope: String, Sendable, CaseIterable, Comparable {
    /// Read the person's own data (GET routes, parsing without storing).
    case read
    /// Read and change the person's own data.
    case write
    /// The operator's: manage people and invitations; reads no person's data.
    case admin

    public static func < (a: KeyScope, b: KeyScope) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One person a service hosts: never their password, only its Argon2id hash.
public struct Person: Sendable, Equatable {
    /// A random id (16 hex digits): the name of their folder, what `/me` and `/people` show.
    public var id: String
    /// Their e-mail address as they gave it (compared without case).
    public var email: String
    /// When they registered or were added.
    public var createdAt: Date
}

/// An API key of the people directory: whose it is (nil: the operator's), its scope, its device
/// name. The key itself is never stored, only its SHA-256.
public struct PersonKey: Sendable, Equatable {
    /// The row id.
    public var id: Int64
    /// The person it belongs to; nil for an operator's key.
    public var personID: String?
    /// What the key may do.
    public var scope: KeyScope
    /// The device or purpose it was made for ("Ana's phone").
    public var name: String
    /// When it was made.
    public var createdAt: Date
    /// When it was revoked; nil while in force.
    public var revokedAt: Date?
}

/// The directory of a service that hosts several people: who they are, their password hashes,
/// their keys and the invitations the operator made. Each person's money is not here but in
/// their own ledger file (`PeopleFolders`); this file holds no transaction.
public final class PeopleDirectory: Sendable {
    let pool: DatabasePool

    /// Opens (creating if needed, readable by its owner only) the directory at `path`.
    public init(path: String) throws {
        try Ledger.createPrivately(path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(Ledger.defaultBusyTimeout)
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE people (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    password_hash TEXT NOT NULL,
                    created_at TEXT NOT NULL
                );
                CREATE TABLE person_keys (
                    id INTEGER PRIMARY KEY,
                    person_id TEXT REFERENCES people(id) ON DELETE CASCADE,
                    scope TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
                    name TEXT NOT NULL,
                    key_hash TEXT NOT NULL UNIQUE,
                    created_at TEXT NOT NULL,
                    revoked_at TEXT
                );
                CREATE INDEX person_keys_person ON person_keys(person_id);
                CREATE TABLE invitations (
                    id INTEGER PRIMARY KEY,
                    code_hash TEXT NOT NULL UNIQUE,
                    email TEXT COLLATE NOCASE,
                    created_at TEXT NOT NULL,
                    expires_at TEXT NOT NULL,
                    used_at TEXT
                );
                """)
        }
        return migrator
    }

    // MARK: - People

    /// Adds a person; nil when someone already has this e-mail address.
    public func addPerson(email: String, passwordHash: String) throws -> Person? {
        let person = Person(id: Self.newID(), email: email, createdAt: Self.rounded(Date()))
        return try pool.write { db in try Self.insert(person, passwordHash: passwordHash, db) ? person : nil }
    }

    /// Inserts a person unless their address is taken (any case); whether it did.
    private static func insert(_ person: Person, passwordHash: String, _ db: Database) throws -> Bool {
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM people WHERE email = ?", arguments: [person.email]) == 0 else {
            return false
        }
        try db.execute(sql: "INSERT INTO people (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
                       arguments: [person.id, person.email, passwordHash, Ledger.timestamp(person.createdAt)])
        return true
    }

    /// Everyone, oldest first.
    public func people() throws -> [Person] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, email, created_at FROM people ORDER BY created_at, id").map(Self.person)
        }
    }

    /// The person with this id, or nil.
    public func person(id: String) throws -> Person? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, email, created_at FROM people WHERE id = ?", arguments: [id]).map(Self.person)
        }
    }

    /// The person with this e-mail address (any case) and their password hash, or nil.
    public func login(email: String) throws -> (person: Person, passwordHash: String)? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, email, created_at, password_hash FROM people WHERE email = ?",
                             arguments: [email]).map { (Self.person($0), $0["password_hash"]) }
        }
    }

    /// Removes a person and every key of theirs; false when there is no such person. Their
    /// folder is the caller's to remove (`PeopleFolders.remove`).
    @discardableResult
    public func removePerson(id: String) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM person_keys WHERE person_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM people WHERE id = ?", arguments: [id])
            return db.changesCount == 1
        }
    }

    // MARK: - Keys

    /// Stores a key by its hash (hex SHA-256); `personID` nil makes an operator's key.
    public func addKey(personID: String?, scope: KeyScope, name given: String, keyHash: String) throws -> PersonKey {
        let name = CardNumberMasker.mask(given)
        let now = Self.rounded(Date())
        return try pool.write { db in
            try db.execute(sql: """
                INSERT INTO person_keys (person_id, scope, name, key_hash, created_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [personID, scope.rawValue, name, keyHash, Ledger.timestamp(now)])
            return PersonKey(id: db.lastInsertedRowID, personID: personID, scope: scope, name: name, createdAt: now)
        }
    }

    /// The key with this hash, revoked or not; nil when there is none.
    public func key(hash: String) throws -> PersonKey? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, person_id, scope, name, created_at, revoked_at FROM person_keys WHERE key_hash = ?
                """, arguments: [hash]).map(Self.key)
        }
    }

    /// A person's keys (nil: the operator's), oldest first, revoked ones too.
    public func keys(personID: String?) throws -> [PersonKey] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, person_id, scope, name, created_at, revoked_at FROM person_keys
                WHERE person_id IS ? ORDER BY id
                """, arguments: [personID]).map(Self.key)
        }
    }

    /// Revokes a key by id; false when there is none. Revoking twice keeps the first time.
    @discardableResult
    public func revokeKey(id: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "UPDATE person_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?",
                           arguments: [Ledger.now(), id])
            return db.changesCount == 1
        }
    }

    // MARK: - Invitations

    /// Stores an invitation by its code's hash, valid until `expires`, for `email` or anyone.
    public func addInvitation(codeHash: String, email: String?, expires: Date) throws {
        try pool.write { db in
            try db.execute(sql: "INSERT INTO invitations (code_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)",
                           arguments: [codeHash, email, Ledger.now(), Ledger.timestamp(expires)])
        }
    }

    /// Adds a person with an invitation, in one transaction: the invitation must exist, be unused,
    /// not expired and, if it names an address, name this one. Returns nil when the invitation
    /// does not allow it or the address is taken (the caller says which without telling them apart
    /// to a stranger).
    public func addPerson(email: String, passwordHash: String, invitationHash: String) throws -> Person? {
        let person = Person(id: Self.newID(), email: email, createdAt: Self.rounded(Date()))
        return try pool.write { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT id, email, expires_at FROM invitations WHERE code_hash = ? AND used_at IS NULL
                """, arguments: [invitationHash]),
                  let expires = Ledger.date(from: row["expires_at"]), expires > Date() else { return nil }
            if let invited = row["email"] as String?, invited.caseInsensitiveCompare(email) != .orderedSame { return nil }
            guard try Self.insert(person, passwordHash: passwordHash, db) else { return nil }
            try db.execute(sql: "UPDATE invitations SET used_at = ? WHERE id = ?", arguments: [Ledger.now(), row["id"] as Int64])
            return person
        }
    }

    // MARK: - Rows

    private static func person(_ row: Row) -> Person {
        Person(id: row["id"], email: row["email"],
               createdAt: Ledger.date(from: row["created_at"]) ?? Date(timeIntervalSince1970: 0))
    }

    private static func key(_ row: Row) -> PersonKey {
        PersonKey(id: row["id"], personID: row["person_id"], scope: KeyScope(rawValue: row["scope"]) ?? .read,
                  name: row["name"], createdAt: Ledger.date(from: row["created_at"]) ?? Date(timeIntervalSince1970: 0),
                  revokedAt: (row["revoked_at"] as String?).flatMap(Ledger.date(from:)))
    }

    /// 64 random bits in hex: a person's id and folder name.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }

    /// A date as the directory stores it (whole seconds), so what is returned equals what is read back.
    private static func rounded(_ date: Date) -> Date {
        Ledger.date(from: Ledger.timestamp(date)) ?? date
    }
}

/// Where each person's files live under a service's data folder: `people/<id>/ledger.sqlite`
/// (and its WAL), `people/<id>/budgets.yaml`. One folder per person, so that their ledger is a file
/// no other person's query can reach, and removing them is removing a folder.
public struct PeopleFolders: Sendable {
    /// The service's data folder (the directory database sits in it as `people.sqlite`).
    public let root: URL

    /// Folders under `root`.
    public init(root: URL) {
        self.root = root
    }

    /// The directory database's path.
    public var directoryPath: String { root.appendingPathComponent("people.sqlite").path }

    /// A person's folder (created if missing, owner-only).
    public func folder(of personID: String) throws -> URL {
        let url = root.appendingPathComponent("people").appendingPathComponent(personID)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return url
    }

    /// A person's ledger.
    public func ledgerPath(of personID: String) throws -> String {
        try folder(of: personID).appendingPathComponent("ledger.sqlite").path
    }

    /// A person's own rule files (bank files and grammars that apply to their messages only).
    public func rulesFolder(of personID: String) throws -> URL {
        try folder(of: personID).appendingPathComponent("rules")
    }

    /// A person's budgets file (read when present).
    public func budgetsPath(of personID: String) throws -> String {
        try folder(of: personID).appendingPathComponent("budgets.yaml").path
    }

    /// Removes a person's folder and everything in it.
    public func remove(_ personID: String) throws {
        let url = root.appendingPathComponent("people").appendingPathComponent(personID)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    /// Copies everything of a person's into `destination` (created; it must not hold their files
    /// already): their ledger as one consistent SQLite file (`VACUUM INTO`, safe while the service
    /// writes), and every other file of their folder as it is. Returns the files written, relative.
    public func export(_ personID: String, to destination: URL) throws -> [String] {
        let folder = root.appendingPathComponent("people").appendingPathComponent(personID)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var written: [String] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        for name in names where !name.hasPrefix("ledger.sqlite") {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: destination.appendingPathComponent(name))
            written.append(name)
        }
        let ledger = folder.appendingPathComponent("ledger.sqlite").path
        if FileManager.default.fileExists(atPath: ledger) {
            let target = destination.appendingPathComponent("ledger.sqlite").path
            let queue = try DatabaseQueue(path: ledger)
            try queue.inDatabase { try $0.execute(sql: "VACUUM INTO ?", arguments: [target]) }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
            written.append("ledger.sqlite")
        }
        return written.sorted()
    }
}
