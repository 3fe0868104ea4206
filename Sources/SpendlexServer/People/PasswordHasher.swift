import CSodium
import Foundation

/// Hashes and checks the passwords of the people a service hosts. A protocol so that tests can
/// count the work done (an unknown e-mail must cost what a wrong password costs).
public protocol PasswordHashing: Sendable {
    /// A self-describing hash of `password` (algorithm, parameters and salt in the string).
    func hash(_ password: String) throws -> String
    /// Whether `password` is the one `hash` was made from; compared in constant time.
    func verify(_ password: String, against hash: String) -> Bool
}

/// Argon2id from libsodium (`crypto_pwhash_str`), with libsodium's "interactive" limits by
/// default: 2 passes over 64 MiB, about 50 ms on this project's 2-core machines, the
/// parameters OWASP's password storage guide accepts for Argon2id (it asks for at least
/// 19 MiB and 2 passes). The string it stores, `$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>`,
/// names them, so raising them later leaves old hashes readable. libsodium's verification
/// compares in constant time.
public struct Argon2idHasher: PasswordHashing {
    /// Passes over memory.
    public let opsLimit: UInt64
    /// Memory, in bytes.
    public let memLimit: Int

    /// libsodium's interactive limits, or the ones given (tests use its minimum to run fast).
    public init(opsLimit: UInt64 = UInt64(crypto_pwhash_opslimit_interactive()),
                memLimit: Int = crypto_pwhash_memlimit_interactive()) {
        Self.initialize
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    /// libsodium's smallest limits: for tests only, where many hashes are made.
    public static var fastest: Argon2idHasher {
        Argon2idHasher(opsLimit: UInt64(crypto_pwhash_opslimit_min()), memLimit: crypto_pwhash_memlimit_min())
    }

    /// `sodium_init` once per process (it is safe to call more, but not free).
    private static let initialize: Void = { _ = sodium_init() }()

    public func hash(_ password: String) throws -> String {
        var out = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let length = UInt64(password.utf8.count)
        let status = password.withCString { crypto_pwhash_str(&out, $0, length, opsLimit, memLimit) }
        guard status == 0 else { throw PasswordHashError() }
        return String(cString: out)
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        var stored = Array(hash.utf8CString)
        // crypto_pwhash_str_verify reads a buffer of crypto_pwhash_STRBYTES.
        guard stored.count <= crypto_pwhash_strbytes() else { return false }
        stored += [CChar](repeating: 0, count: crypto_pwhash_strbytes() - stored.count)
        let length = UInt64(password.utf8.count)
        return password.withCString { crypto_pwhash_str_verify(stored, $0, length) == 0 }
    }
}

/// libsodium could not hash (it could not get the memory the limits ask for).
public struct PasswordHashError: Error, CustomStringConvertible {
    public var description: String { "cannot hash the password (out of memory?)" }
}
