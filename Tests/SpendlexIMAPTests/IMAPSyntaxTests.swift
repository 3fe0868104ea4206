import Testing
@testable import SpendlexIMAP

@Suite("IMAP URLs, search and syntax")
struct IMAPSyntaxTests {
    @Test("mailbox URLs: scheme, default ports, user with @, folder decoding")
    func urls() throws {
        let secure = try IMAPMailboxURL("imaps://me%40example.org@IMAP.Example.org/Banks%2FAlerts")
        #expect(secure.security == .implicitTLS)
        #expect(secure.user == "me@example.org")
        #expect(secure.host == "imap.example.org")
        #expect(secure.port == 993)
        #expect(secure.mailbox == "Banks/Alerts")
        #expect(secure.description == "imaps://me%40example.org@imap.example.org:993/Banks/Alerts")
        let plain = try IMAPMailboxURL("imap://alice@localhost:10143")
        #expect(plain.security == .startTLS)
        #expect(plain.port == 10143)
        #expect(plain.mailbox == "INBOX")
        // A bare @ in the user: the last @ separates the host.
        #expect(try IMAPMailboxURL("imaps://me@example.org@imap.example.org/INBOX").user == "me@example.org")
        #expect(try IMAPMailboxURL("imaps://a@[::1]:9993/INBOX").host == "::1")
    }

    @Test("a password in the URL, another scheme, no user or a bad port are refused with why")
    func badURLs() {
        for (url, words) in [("imaps://alice:secret@host/INBOX", "password"), ("https://alice@host/", "imap://"),
                             ("imaps://host/INBOX", "no user"), ("imaps://a@host:99999/INBOX", "port")] {
            #expect {
                try IMAPMailboxURL(url)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
    }

    @Test("sender search: addresses and domains, none containing another, OR-joined, in groups")
    func senderSearch() {
        let search = IMAPSenderSearch(senders: ["alerts@HDFCBank.net", "@hdfcbank.net", "credit_cards@icicibank.com",
                                                "*-HDFCBK", "in.amazon.mShop.android.shopping", "HDFC",
                                                "*@*.kotak.com", "@"], termsPerCommand: 2)
        #expect(search.terms == ["@hdfcbank.net", "credit_cards@icicibank.com", "kotak.com"])
        let commands = search.criteria(fromUID: 120, since: "1-Feb-2026")
        #expect(commands == [
            "UID 120:* SINCE 1-Feb-2026 OR FROM \"@hdfcbank.net\" FROM \"credit_cards@icicibank.com\"",
            "UID 120:* SINCE 1-Feb-2026 FROM \"kotak.com\"",
        ])
        #expect(IMAPSenderSearch(senders: ["a@b.com", "c@d.com", "e@f.com"]).criteria(fromUID: 0)
            == ["UID 1:* OR FROM \"a@b.com\" OR FROM \"c@d.com\" FROM \"e@f.com\""])
        #expect(IMAPSenderSearch.everything(fromUID: 5) == ["UID 5:*"])
    }

    @Test("modified UTF-7 mailbox names, quoting, sequence sets, search dates")
    func syntax() {
        #expect(IMAPSyntax.mailboxName("INBOX") == "INBOX")
        #expect(IMAPSyntax.mailboxName("Entrées") == "Entr&AOk-es")
        #expect(IMAPSyntax.mailboxName("R&D") == "R&-D")
        #expect(IMAPSyntax.mailboxName("台北") == "&U,BTFw-")
        #expect(IMAPSyntax.quoted("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(IMAPSyntax.quoted("line\nbreak") == nil)
        #expect(IMAPSyntax.sequenceSet([9, 1, 2, 3, 7, 10]) == "1:3,7,9:10")
        #expect(IMAPSyntax.searchDate(.init(year: 2026, month: 2, day: 1)) == "1-Feb-2026")
        #expect(IMAPSession.sniName("127.0.0.1") == nil)
        #expect(IMAPSession.sniName("::1") == nil)
        #expect(IMAPSession.sniName("imap.example.org") == "imap.example.org")
    }
}
