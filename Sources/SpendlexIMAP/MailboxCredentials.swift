import Foundation

/// Where a mailbox's password (or OAuth token) comes from: never the command line, never a log.
public enum MailboxCredentials {
    /// The environment variable that holds the password.
    public static let passwordVariable = "SPENDLEX_IMAP_PASSWORD"

    /// The credentials for `url`, looked for in order: an OAuth 2 token printed by `oauth2Command`
    /// (XOAUTH2); the password in `environment[variable]` (`SPENDLEX_IMAP_PASSWORD` unless a
    /// mailbox names another); the netrc file's entry for the
    /// host and user (`netrcPath`, else `$NETRC`, else `~/.netrc`); `prompt` (a terminal's
    /// question, nil when there is none).
    public static func resolve(for url: IMAPMailboxURL, oauth2Command: String? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment,
                               variable: String = passwordVariable,
                               netrcPath: String? = nil, prompt: (() -> String?)? = nil) throws -> IMAPCredentials {
        if let oauth2Command {
            return .xoauth2(user: url.user, token: try token(from: oauth2Command))
        }
        if let password = environment[variable], !password.isEmpty {
            return .password(user: url.user, password: password)
        }
        let path = netrcPath ?? environment["NETRC"] ?? (environment["HOME"].map { $0 + "/.netrc" })
        if let path, let text = try? String(contentsOfFile: path, encoding: .utf8),
           let password = Netrc(text).password(machine: url.host, login: url.user) {
            return .password(user: url.user, password: password)
        }
        if let netrcPath, !FileManager.default.isReadableFile(atPath: netrcPath) {
            throw CredentialsError("cannot read the netrc file \(netrcPath)")
        }
        if let prompt, let password = prompt(), !password.isEmpty {
            return .password(user: url.user, password: password)
        }
        throw CredentialsError("no password for \(url.user) at \(url.host): set \(variable), add a 'machine \(url.host) login \(url.user) password …' line to ~/.netrc, or run on a terminal to be asked")
    }

    /// Runs the command (with /bin/sh) and takes the first line it prints as the token.
    static func token(from command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { throw CredentialsError("cannot run the OAuth 2 token command: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CredentialsError("the OAuth 2 token command exited with status \(process.terminationStatus)")
        }
        let token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else { throw CredentialsError("the OAuth 2 token command printed no token") }
        return token
    }
}

/// Credentials that cannot be found, with where they were looked for.
public struct CredentialsError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A netrc file (the format of ftp, curl and git): `machine HOST login USER password PASS`
/// entries, and a `default` entry for any host; tokens are separated by any whitespace.
public struct Netrc: Sendable {
    struct Entry: Sendable {
        var machine: String?
        var login: String?
        var password: String?
    }

    let entries: [Entry]

    public init(_ text: String) {
        var entries: [Entry] = []
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).map(String.init)[...]
        var current: Entry?
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                if let current { entries.append(current) }
                current = Entry(machine: tokens.popFirst()?.lowercased())
            case "default":
                if let current { entries.append(current) }
                current = Entry(machine: nil)
            case "login": current?.login = tokens.popFirst()
            case "password": current?.password = tokens.popFirst()
            case "account": _ = tokens.popFirst()
            case "macdef":
                // A macro runs to the next blank line; nothing a password lookup needs.
                if let current { entries.append(current) }
                current = nil
                _ = tokens.popFirst()
            default: continue
            }
        }
        if let current { entries.append(current) }
        self.entries = entries
    }

    /// The password of the first entry for the host whose login is the user (or that names no
    /// login), else of the `default` entry.
    public func password(machine: String, login: String) -> String? {
        let host = machine.lowercased()
        let matching = entries.first { $0.machine == host && ($0.login == nil || $0.login == login) && $0.password != nil }
        return (matching ?? entries.first { $0.machine == nil && ($0.login == nil || $0.login == login) })?.password
    }
}
