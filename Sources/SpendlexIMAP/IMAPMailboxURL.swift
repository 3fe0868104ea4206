import Foundation

/// `imaps://USER@HOST[:PORT]/MAILBOX` or `imap://…` (RFC 5092's form, the part a fetch needs):
/// which server, how to secure the connection, whose mail and which folder.
public struct IMAPMailboxURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is secured.
    public enum Security: String, Sendable {
        /// TLS from the first byte (`imaps://`, port 993).
        case implicitTLS
        /// Plain connection upgraded with STARTTLS (`imap://`, port 143).
        case startTLS
    }

    /// TLS from the start or STARTTLS, from the scheme.
    public var security: Security
    /// The user name, percent-decoded (`me@example.org`).
    public var user: String
    /// The server's name or address, lower-cased (IPv6 without brackets).
    public var host: String
    /// The TCP port: the URL's, else 993 (imaps) or 143 (imap).
    public var port: Int
    /// The folder, decoded (`INBOX`, `Banks/Alerts`); INBOX when the URL names none.
    public var mailbox: String

    /// Reads a mailbox URL. A password in it is refused: a command line is seen by every user
    /// of the machine (`ps`) and kept in shell histories.
    public init(_ text: String) throws(IMAPURLError) {
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("imaps://") {
            security = .implicitTLS
            rest = text.dropFirst(8)
        } else if lowered.hasPrefix("imap://") {
            security = .startTLS
            rest = text.dropFirst(7)
        } else {
            throw IMAPURLError("'\(text)' is not an imap:// or imaps:// URL (imaps://USER@HOST[:PORT]/MAILBOX)")
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).drop { $0 == "/" }
        guard let at = authority.lastIndex(of: "@") else {
            throw IMAPURLError("'\(text)' names no user: imaps://USER@HOST/MAILBOX (an @ in the user name is written %40)")
        }
        let userPart = authority[..<at]
        if userPart.contains(":") {
            throw IMAPURLError("'\(text)' holds a password: give it in SPENDLEX_IMAP_PASSWORD, a netrc file or at the prompt, "
                               + "never on the command line")
        }
        guard let user = String(userPart).removingPercentEncoding, !user.isEmpty else {
            throw IMAPURLError("'\(text)': the user name is empty or badly percent-encoded")
        }
        self.user = user
        var hostPart = authority[authority.index(after: at)...]
        var port: Int?
        if let colon = hostPart.lastIndex(of: ":"), !hostPart.hasSuffix("]") {
            guard let number = Int(hostPart[hostPart.index(after: colon)...]), (1...65535).contains(number) else {
                throw IMAPURLError("'\(text)': the port is not a number from 1 to 65535")
            }
            port = number
            hostPart = hostPart[..<colon]
        }
        if hostPart.hasPrefix("[") && hostPart.hasSuffix("]") { hostPart = hostPart.dropFirst().dropLast() }
        guard !hostPart.isEmpty else { throw IMAPURLError("'\(text)' names no host") }
        host = hostPart.lowercased()
        self.port = port ?? (security == .implicitTLS ? 993 : 143)
        // A `;UIDVALIDITY=…` or `?search` part of RFC 5092 means nothing to a fetch: cut off.
        let folder = path.prefix { $0 != ";" && $0 != "?" }
        guard let decoded = String(folder).removingPercentEncoding else {
            throw IMAPURLError("'\(text)': the mailbox name is badly percent-encoded")
        }
        mailbox = decoded.isEmpty ? "INBOX" : decoded
    }

    /// The URL written back, with the port and the mailbox always present: the key a ledger
    /// keeps the mailbox's fetch state under, and the source its messages cite.
    public var description: String {
        let scheme = security == .implicitTLS ? "imaps" : "imap"
        let userText = user.addingPercentEncoding(withAllowedCharacters: Self.userAllowed) ?? user
        let hostText = host.contains(":") ? "[\(host)]" : host
        let folder = mailbox.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? mailbox
        return "\(scheme)://\(userText)@\(hostText):\(port)/\(folder)"
    }

    private static let userAllowed = CharacterSet.urlUserAllowed.subtracting(CharacterSet(charactersIn: "@:;"))
    private static let pathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: ";?"))
}

/// A mailbox URL that cannot be used, with why.
public struct IMAPURLError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
