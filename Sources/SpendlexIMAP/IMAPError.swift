/// What can go wrong talking to an IMAP server, in words a person can act on.
public enum IMAPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server could not be reached (name, refused, timed out connecting).
    case cannotConnect(String)
    /// TLS failed: most often a certificate the system's store (or `--ca-file`) does not trust.
    case tls(String)
    /// The server offers no TLS on an `imap://` connection and plain text was not allowed.
    case noTLS
    /// The user name, password or token was refused.
    case authenticationFailed(String)
    /// The mailbox does not exist or cannot be opened.
    case mailbox(String)
    /// The connection ended or went silent in the middle of the session.
    case connectionLost(String)
    /// The server said something a client cannot follow, or refused a command.
    case protocolError(String)

    public var description: String {
        switch self {
        case .cannotConnect(let why): "cannot connect: \(why)"
        case .tls(let why): "TLS failed: \(why)"
        case .noTLS:
            "the server offers no STARTTLS on an imap:// connection; use imaps://, or --insecure to send the password in clear text"
        case .authenticationFailed(let why): "login refused: \(why)"
        case .mailbox(let why): "cannot open the mailbox: \(why)"
        case .connectionLost(let why): "connection lost: \(why)"
        case .protocolError(let why): "IMAP error: \(why)"
        }
    }

    /// Whether trying again, from where the fetch stopped, may succeed.
    public var isTransient: Bool {
        switch self {
        case .connectionLost, .cannotConnect: true
        default: false
        }
    }
}
