import Foundation
import SpendlexMail
import SpendlexStore
import Synchronization

/// Who may register on a household service.
public enum RegistrationMode: String, Sendable, CaseIterable {
    /// Anyone who reaches the service.
    case open
    /// Whoever holds an invitation from `spendlex people invite`.
    case invite
    /// Nobody: the operator adds people with `spendlex people add`.
    case closed
}

/// A service's people: the directory (who they are, password hashes, keys, invitations), a
/// folder and ledger each, the login throttle. Ledgers are opened on a person's first request
/// and kept open; removing a person closes theirs and deletes their folder.
public final class Household: Sendable {
    /// Who they are and their keys.
    public let directory: PeopleDirectory
    /// Where their files are.
    public let folders: PeopleFolders
    /// Who may register.
    public let registration: RegistrationMode
    let hasher: any PasswordHashing
    let throttle: LoginThrottle
    /// The rules people's messages are parsed with; nil when only people are managed (the CLI).
    let rules: LiveRules?
    let maxMIMEDepth: Int
    /// Each person's slot, made on their first request; the slot's own lock is held while their
    /// ledger opens, so that people's first requests open their ledgers side by side.
    private let tenants = Mutex<[String: TenantSlot]>([:])

    private final class TenantSlot: Sendable {
        let tenant = Mutex<Tenant?>(nil)
    }

    /// A hash of no one's password, checked when an e-mail is unknown so that it costs what a
    /// wrong password costs and the answer's timing does not say who has an account.
    private let decoyHash: String

    /// The household in `folder` (created if needed); `rules` nil to manage people only.
    public init(folder: URL, registration: RegistrationMode = .closed, hasher: any PasswordHashing = Argon2idHasher(),
                throttle: LoginThrottle = LoginThrottle(), rules: LiveRules?, maxMIMEDepth: Int = MIMEDecoder.defaultMaxDepth) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        folders = PeopleFolders(root: folder)
        directory = try PeopleDirectory(path: folders.directoryPath)
        self.registration = registration
        self.hasher = hasher
        self.throttle = throttle
        self.rules = rules
        self.maxMIMEDepth = maxMIMEDepth
        decoyHash = try hasher.hash(APIKeys.generate())
    }

    /// A person's data, opening their ledger on first use.
    public func tenant(of personID: String) throws -> Tenant {
        guard let rules else { throw HouseholdError.noRules }
        let slot = tenants.withLock { slots in
            if let known = slots[personID] { return known }
            let made = TenantSlot()
            slots[personID] = made
            return made
        }
        // Opened under the person's own lock: two first requests of one person at once must not
        // both create and migrate the same new file; other people's are opened meanwhile.
        return try slot.tenant.withLock { tenant in
            if let open = tenant { return open }
            let ledger = try Ledger(path: try folders.ledgerPath(of: personID))
            let opened = Tenant(personID: personID, ledger: ledger, rules: rules,
                                budgetsPath: try folders.budgetsPath(of: personID), maxMIMEDepth: maxMIMEDepth,
                                ownRules: try folders.rulesFolder(of: personID))
            tenant = opened
            return opened
        }
    }

    // MARK: - People

    /// Why registration or adding a person was refused.
    public enum Refusal: Error, Equatable {
        /// Registration is closed, or needs an invitation none was given for.
        case notAllowed
        /// The invitation is unknown, used, expired or for another address; or the address is taken
        /// (one answer for both, so that it does not say which addresses have accounts).
        case invitationOrAddress
        /// The address is taken (to the operator only).
        case taken
        /// The e-mail or password is not acceptable, and why.
        case invalid(String)
        /// Too many refused attempts from this address or for this address.
        case throttled(retryAfter: Duration)
    }

    /// The shortest password accepted (NIST SP 800-63B asks for at least 8).
    public static let minimumPasswordLength = 8

    /// Adds a person as the operator does (`spendlex people add`), whatever the registration mode.
    public func add(email: String, password: String) throws -> Person {
        try Self.check(email: email, password: password)
        guard let person = try directory.addPerson(email: email, passwordHash: try hasher.hash(password)) else {
            throw Refusal.taken
        }
        _ = try folders.folder(of: person.id)
        return person
    }

    /// Registers a person as they do themselves (`POST /auth/register`), as the mode allows. A
    /// refusal counts as a failed login for the address (and the address asked for), so that
    /// invitation codes cannot be guessed, nor addresses probed, faster than passwords.
    func register(email: String, password: String, invitation: String?, address: String) throws -> Person {
        if let wait = throttle.wait(account: email, address: address) { throw Refusal.throttled(retryAfter: wait) }
        do {
            let person = try registered(email: email, password: password, invitation: invitation)
            _ = try folders.folder(of: person.id)
            return person
        } catch let refusal as Refusal {
            if case .invalid = refusal {} else { throttle.failed(account: email, address: address) }
            throw refusal
        }
    }

    private func registered(email: String, password: String, invitation: String?) throws -> Person {
        try Self.check(email: email, password: password)
        switch registration {
        case .closed:
            throw Refusal.notAllowed
        case .invite:
            guard let invitation else { throw Refusal.notAllowed }
            let hash = try hasher.hash(password)
            guard let person = try directory.addPerson(email: email, passwordHash: hash,
                                                       invitationHash: APIKeys.hash(invitation)) else {
                throw Refusal.invitationOrAddress
            }
            return person
        case .open:
            guard let person = try directory.addPerson(email: email, passwordHash: try hasher.hash(password)) else {
                throw Refusal.invitationOrAddress
            }
            return person
        }
    }

    static func check(email: String, password: String) throws {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.utf8.count <= 254,
              !email.contains(where: \.isWhitespace) else {
            throw Refusal.invalid("email must be an e-mail address")
        }
        guard password.count >= minimumPasswordLength else {
            throw Refusal.invalid("password must have at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= 1024 else { throw Refusal.invalid("password must have at most 1024 bytes") }
    }

    /// Makes an invitation valid for `days` (for `email` only, when given); returns its code, shown once.
    public func invite(email: String?, days: Int = 7) throws -> String {
        let code = "inv_" + APIKeys.generate().dropFirst(4)
        try directory.addInvitation(codeHash: APIKeys.hash(code), email: email,
                                    expires: Date().addingTimeInterval(TimeInterval(days) * 86_400))
        return code
    }

    /// Removes a person: their keys and directory row, their open ledger, their folder.
    public func remove(personID: String) throws -> Bool {
        guard try directory.removePerson(id: personID) else { return false }
        tenants.withLock { $0[personID] = nil }
        try folders.remove(personID)
        return true
    }

    // MARK: - Keys

    /// Makes a key for a person (or, with `personID` nil and scope admin, for the operator);
    /// returns its record and the key, shown once.
    public func makeKey(personID: String?, scope: KeyScope, name: String) throws -> (record: PersonKey, key: String) {
        let key = APIKeys.generate()
        return (try directory.addKey(personID: personID, scope: scope, name: name, keyHash: APIKeys.hash(key)), key)
    }

    /// The key a request presents, if it is one in force.
    func key(presented: String) throws -> APIKeyCheck<PersonKey> {
        guard let record = try directory.key(hash: APIKeys.hash(presented)) else { return .unknown }
        return record.revokedAt == nil ? .valid(record) : .revoked
    }

    // MARK: - Login

    /// How a login went.
    enum LoginOutcome {
        case success(Person, key: String, record: PersonKey)
        case wrong
        case throttled(retryAfter: Duration)
    }

    /// Checks an e-mail and password from a client address. An unknown e-mail and a wrong
    /// password get the same outcome after the same work (one Argon2id verification); a
    /// throttled account or address gets no password checked at all.
    func login(email: String, password: String, device: String, scope: KeyScope = .write, address: String) throws -> LoginOutcome {
        if let wait = throttle.wait(account: email, address: address) { return .throttled(retryAfter: wait) }
        let found = try directory.login(email: email)
        let matches = hasher.verify(password, against: found?.passwordHash ?? decoyHash)
        guard let found, matches else {
            throttle.failed(account: email, address: address)
            return .wrong
        }
        throttle.succeeded(account: email)
        let (record, key) = try makeKey(personID: found.person.id, scope: scope, name: device)
        return .success(found.person, key: key, record: record)
    }
}

/// A household opened to manage people cannot open their data.
enum HouseholdError: Error {
    case noRules
}
