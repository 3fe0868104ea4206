import Testing
@testable import SpendlexRules

@Suite("spendlex.yaml mailboxes")
struct PersonConfigMailboxesTests {
    @Test("mailboxes with their password variable, token command, CA file, since and flags")
    func reads() {
        let (config, diagnostics) = PersonConfigReader.read(text: """
            mailboxes:
              - url: imaps://me%40example.org@imap.example.org/INBOX
                password_env: EXAMPLE_PASSWORD
                ca_file: /etc/ca.pem
                since: 2026-02-01
                all_senders: true
              - url: imap://me@mail.example.net/Alerts
                oauth2_command: token-helper --user me
                insecure: yes
            """, path: "spendlex.yaml")
        #expect(diagnostics.isEmpty)
        let mailboxes = config?.mailboxes ?? []
        #expect(mailboxes.count == 2)
        #expect(mailboxes.first?.passwordVariable == "EXAMPLE_PASSWORD")
        #expect(mailboxes.first?.caFile == "/etc/ca.pem")
        #expect(mailboxes.first?.since?.month == 2)
        #expect(mailboxes.first?.allSenders == true)
        #expect(mailboxes.last?.oauth2Command == "token-helper --user me")
        #expect(mailboxes.last?.insecure == true)
    }

    @Test("a URL with a password, another scheme, a bad day, an unknown key: located errors")
    func errors() {
        let (_, diagnostics) = PersonConfigReader.read(text: """
            mailboxes:
              - url: imaps://me:secret@imap.example.org/INBOX
              - url: https://example.org
              - url: imaps://me@imap.example.org/INBOX
                since: yesterday
              - url: imaps://me@imap.example.org/INBOX
                password: secret
              - password_env: X
            """, path: "spendlex.yaml")
        let lines = diagnostics.map(\.location.line).sorted()
        #expect(lines == [2, 3, 5, 7, 8], "\(diagnostics.map(\.description))")
        #expect(!diagnostics.map(\.description).joined().contains("secret@"))
    }
}
