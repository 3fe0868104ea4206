import Foundation
import Testing
@testable import SpendlexIMAP
import SpendlexTestSupport

@Suite("Mailbox credentials")
struct MailboxCredentialsTests {
    private let url = try! IMAPMailboxURL("imaps://alice@mail.example.org/INBOX")

    @Test("netrc: the host's entry for the user, then one without a login, then default")
    func netrc() {
        let netrc = Netrc("""
            machine other.example password nope
            machine MAIL.example.org login bob password bobs
            machine mail.example.org
              login alice
              password s3cret
            default login alice password fallback
            """)
        #expect(netrc.password(machine: "mail.example.org", login: "alice") == "s3cret")
        #expect(netrc.password(machine: "mail.example.org", login: "bob") == "bobs")
        #expect(netrc.password(machine: "elsewhere.example", login: "alice") == "fallback")
        #expect(netrc.password(machine: "elsewhere.example", login: "carol") == nil)
    }

    @Test("the environment first, then netrc, then the prompt; none gives an error naming the three")
    func order() throws {
        let folder = TestScratch.root.appendingPathComponent("netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let netrcPath = folder.appendingPathComponent("netrc").path
        try "machine mail.example.org login alice password fromnetrc\n".write(toFile: netrcPath, atomically: true, encoding: .utf8)

        func password(_ credentials: IMAPCredentials) -> String? {
            if case .password(_, let password) = credentials { return password }
            return nil
        }
        let env = ["SPENDLEX_IMAP_PASSWORD": "fromenv", "NETRC": netrcPath]
        #expect(password(try MailboxCredentials.resolve(for: url, environment: env)) == "fromenv")
        #expect(password(try MailboxCredentials.resolve(for: url, environment: ["NETRC": netrcPath])) == "fromnetrc")
        #expect(password(try MailboxCredentials.resolve(for: url, environment: ["HOME": folder.path],
                                                        prompt: { "typed" })) == "typed")
        #expect {
            try MailboxCredentials.resolve(for: url, environment: ["HOME": folder.path], prompt: nil)
        } throws: { error in
            let text = "\(error)"
            return text.contains("SPENDLEX_IMAP_PASSWORD") && text.contains("netrc") && text.contains("terminal")
        }
    }

    @Test("an OAuth 2 token comes from the command's first line")
    func oauth2() throws {
        guard case .xoauth2(let user, let token) = try MailboxCredentials.resolve(
            for: url, oauth2Command: "printf 'ya29.token\\nignored\\n'", environment: [:]) else {
            Issue.record("not XOAUTH2")
            return
        }
        #expect(user == "alice")
        #expect(token == "ya29.token")
        #expect(throws: CredentialsError.self) {
            try MailboxCredentials.resolve(for: url, oauth2Command: "exit 3", environment: [:])
        }
    }
}
