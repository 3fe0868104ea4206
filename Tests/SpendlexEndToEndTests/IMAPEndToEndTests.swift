import Foundation
import GRDB
import Testing

/// A real Dovecot (Debian's dovecot-imapd, installed by `scripts/dev deps`) on loopback, with a
/// self-signed certificate, IMAPS and STARTTLS listeners, one user and a Maildir; started for a
/// test and stopped after it.
final class Dovecot: @unchecked Sendable {  // its state is set in init; Process is safe to signal
    let folder: URL
    let imapsPort: Int
    let imapPort: Int
    let maildir: URL
    let certificate: String
    private let config: String
    private let owner: String?
    private let master = Process()

    static let binary = ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot", "/opt/homebrew/sbin/dovecot"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    init() throws {
        guard let binary = Self.binary else {
            throw TestFailure("dovecot is not installed: scripts/dev deps installs Debian's dovecot-imapd")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-dovecot-\(UUID().uuidString)")
        maildir = folder.appendingPathComponent("Maildir")
        // Readable by Dovecot's unprivileged login user (dovenull), which works in run/login.
        for sub in ["run", "state", "home", "Maildir/cur", "Maildir/new", "Maildir/tmp"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let made = try run(URL(fileURLWithPath: "/usr/bin/env"), [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ], in: folder)
        guard made.status == 0 else { throw TestFailure("openssl failed: \(made.stderr)") }
        try "alice:{PLAIN}correct-horse\n".write(to: folder.appendingPathComponent("passwd"), atomically: true, encoding: .utf8)
        imapsPort = try freePort()
        imapPort = try freePort()
        // Dovecot's login processes must not run as root: as root, its own users do the work
        // (made by the Debian package) and own the mail; otherwise the current user does.
        let root = getuid() == 0
        let user = root ? "dovecot" : NSUserName()
        let login = root ? "dovenull" : NSUserName()
        let group = root ? "dovecot" : (try run(URL(fileURLWithPath: "/usr/bin/id"), ["-gn"], in: folder).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines))
        owner = root ? "dovecot:dovecot" : nil
        config = folder.appendingPathComponent("dovecot.conf").path
        let base = folder.path
        try """
            base_dir = \(base)/run
            state_dir = \(base)/state
            log_path = \(base)/dovecot.log
            instance_name = spendlex-\(imapsPort)
            protocols = imap
            listen = 127.0.0.1
            ssl = required
            ssl_cert = <\(certificate)
            ssl_key = <\(key)
            disable_plaintext_auth = yes
            auth_mechanisms = plain login
            default_internal_user = \(user)
            default_internal_group = \(group)
            default_login_user = \(login)
            first_valid_uid = 1
            first_valid_gid = 1
            service anvil {
              chroot =
            }
            service imap-login {
              chroot =
              inet_listener imap {
                address = 127.0.0.1
                port = \(imapPort)
              }
              inet_listener imaps {
                address = 127.0.0.1
                port = \(imapsPort)
                ssl = yes
              }
            }
            passdb {
              driver = passwd-file
              args = \(base)/passwd
            }
            userdb {
              driver = static
              args = uid=\(user) gid=\(group) home=\(base)/home
            }
            mail_location = maildir:\(base)/Maildir

            """.write(toFile: config, atomically: true, encoding: .utf8)
        try handOver()
        // In the foreground (-F), as this test's child: stopped with SIGTERM, waited for. Its
        // output goes nowhere, or it could hold the test runner's pipes open.
        // Through Python, which clears the signal mask Foundation's Process leaves on its
        // children: Dovecot's master must see SIGCHLD and SIGTERM.
        master.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        master.arguments = ["python3", "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                            binary, "-F", "-c", config]
        master.standardOutput = FileHandle.nullDevice
        master.standardError = FileHandle.nullDevice
        master.standardInput = FileHandle.nullDevice
        try master.run()
        try waitForPort(imapsPort)
    }

    /// Gives the mail to Dovecot's user when running as root (files written since included).
    func handOver() throws {
        guard let owner else { return }
        // Not run/: Dovecot gives its login directory to its login user itself.
        _ = try run(URL(fileURLWithPath: "/bin/chown"), ["-R", owner, maildir.path, folder.appendingPathComponent("home").path,
                                                        folder.appendingPathComponent("state").path], in: folder)
    }

    /// Every message file's flags (the Maildir info after `:2,`), by the file's unique name.
    func flags() throws -> [String: String] {
        var flags: [String: String] = [:]
        for sub in ["cur", "new"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent(sub).path) {
                let parts = name.components(separatedBy: ":2,")
                let unique = parts[0].components(separatedBy: ",")[0]
                flags[unique] = parts.count > 1 ? String(parts[1].filter(\.isUppercase).sorted()) : ""
            }
        }
        return flags
    }

    func stop() {
        if master.isRunning {
            // SIGTERM, then SIGKILL if it stays (a Process child may start with SIGTERM
            // blocked); Dovecot's own processes end when their master does.
            kill(master.processIdentifier, SIGTERM)
            for _ in 0..<60 where master.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            if master.isRunning { kill(master.processIdentifier, SIGKILL) }
            master.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs blocking work on a thread of its own and awaits it, leaving the concurrency pool free.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP port free on loopback now.
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw TestFailure("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Waits until something accepts connections on the loopback port.
func waitForPort(_ port: Int) throws {
    for _ in 0..<200 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(fd)
        if connected == 0 { return }
        Thread.sleep(forTimeInterval: 0.05)
    }
    throw TestFailure("nothing listens on port \(port)")
}

extension EndToEnd {
    /// `spendlex fetch` against a real Dovecot holding reference-corpus mail (gen_mbox.py) and
    /// unrelated mail: IMAPS and STARTTLS; only bank senders' mail downloaded; a second fetch
    /// downloads nothing; mail added later comes next time; a connection cut mid-fetch resumes with
    /// nothing lost or doubled; a wrong password, an untrusted certificate, a missing mailbox and an
    /// unreachable server give clear errors and exit codes; no message's flags change.
    @Suite("IMAP fetch against Dovecot, end to end", .serialized)
    struct IMAPEndToEndTests {
        /// The benchmark's rules read every labelled transaction of the reference corpus.
        static let rules = ["--rules", "Benchmarks/rules", "--rules", "grammars"]

        struct Corpus {
            let bank: Int
            let other: Int
            let transactions: Int
        }

        /// `count` reference-corpus mails (seed `seed`, messages `skip`… of it) and `unrelated` other mails into the Maildir.
        static func fill(_ dovecot: Dovecot, count: Int, seed: Int, unrelated: Int, tag: String) throws -> Corpus {
            let mbox = dovecot.folder.appendingPathComponent("corpus-\(tag).mbox").path
            let generated = try run(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["python3", try referenceCorpusGenerator().path, "\(count)", mbox, "\(seed)"], in: dovecot.folder)
            guard generated.status == 0 else { throw TestFailure("gen_mbox.py failed: \(generated.stderr)") }
            let made = try run(URL(fileURLWithPath: "/usr/bin/env"), [
                "python3", repositoryRoot.appendingPathComponent("Tests/Fixtures/imap/make-maildir.py").path, mbox,
                dovecot.maildir.path, "--unrelated", "\(unrelated)", "--tag", tag,
            ], in: dovecot.folder)
            guard made.status == 0, let counts = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Int] else {
                throw TestFailure("make-maildir.py failed: \(made.stderr)")
            }
            let labels = try String(contentsOfFile: mbox + ".labels.tsv", encoding: .utf8).split(separator: "\n").count
            try dovecot.handOver()
            return Corpus(bank: counts["bank"] ?? 0, other: counts["other"] ?? 0, transactions: labels)
        }

        static func fetch(_ dovecot: Dovecot, _ arguments: [String], password: String = "correct-horse",
                          port: Int? = nil, scheme: String = "imaps") throws -> RunResult {
            let url = "\(scheme)://alice@localhost:\(port ?? (scheme == "imaps" ? dovecot.imapsPort : dovecot.imapPort))/INBOX"
            return try run(spendlexBinary, ["fetch"] + rules + [url] + arguments, in: repositoryRoot,
                           environment: ["SPENDLEX_IMAP_PASSWORD": password, "HOME": dovecot.folder.path])
        }

        static func ledgerCounts(_ path: String) throws -> (messages: Int, transactions: Int, distinctSources: Int) {
            let queue = try DatabaseQueue(path: path)
            return try queue.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(DISTINCT byte_offset) FROM messages") ?? 0)
            }
        }

        /// Every mailbox's "N bank messages found, M downloaded", in order.
        static func allFoundAndDownloaded(_ stderr: String) -> [[Int]] {
            stderr.split(separator: "\n").compactMap { line in foundAndDownloaded(String(line)).map { [$0.0, $0.1] } }
        }

        /// "N bank messages found, M downloaded" from a fetch's summary.
        static func foundAndDownloaded(_ stderr: String) -> (Int, Int)? {
            guard let range = stderr.range(of: #"(\d+) bank messages found, (\d+) downloaded"#, options: .regularExpression) else { return nil }
            let numbers = stderr[range].split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
            return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
        }

        @Test("IMAPS and STARTTLS; only bank mail, once; later mail next time; flags unchanged")
        func incremental() throws {
            let dovecot = try Dovecot()
            defer { dovecot.stop() }
            let corpus = try Self.fill(dovecot, count: 1500, seed: 7, unrelated: 60, tag: "a")
            #expect(corpus.bank > 1000 && corpus.other > 100)
            let flagsBefore = try dovecot.flags()
            let store = dovecot.folder.appendingPathComponent("ledger.sqlite").path

            let first = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(Self.foundAndDownloaded(first.stderr).map { [$0.0, $0.1] } == [corpus.bank, corpus.bank], "\(first.stderr)")
            var ledger = try Self.ledgerCounts(store)
            #expect(ledger.messages == corpus.bank)
            #expect(ledger.transactions == corpus.transactions)
            // Messages cite the mailbox and their UID.
            #expect(ledger.distinctSources == corpus.bank)

            // Again: nothing new, nothing downloaded.
            let second = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(Self.foundAndDownloaded(second.stderr).map { [$0.0, $0.1] } == [0, 0], "\(second.stderr)")

            // Mail that arrives later (into new/, as a delivery agent puts it) is fetched next time, alone.
            let later = try Self.fill(dovecot, count: 200, seed: 11, unrelated: 10, tag: "b")
            let third = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store])
            #expect(third.status == 0, "\(third.stderr)")
            #expect(Self.foundAndDownloaded(third.stderr).map { [$0.0, $0.1] } == [later.bank, later.bank], "\(third.stderr)")
            ledger = try Self.ledgerCounts(store)
            #expect(ledger.messages == corpus.bank + later.bank)
            #expect(ledger.transactions == corpus.transactions + later.transactions)

            // STARTTLS on the plain port: another mailbox URL, so a search of everything; what the
            // ledger holds is recognised by Message-ID and not downloaded.
            let starttls = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store], scheme: "imap")
            #expect(starttls.status == 0, "\(starttls.stderr)")
            #expect(Self.foundAndDownloaded(starttls.stderr).map { [$0.0, $0.1] } == [corpus.bank + later.bank, 0],
                    "\(starttls.stderr)")
            // Without a ledger, STARTTLS fetches and prints every transaction.
            let printed = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate], scheme: "imap")
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(printed.stdout.split(separator: "\n").count == corpus.transactions + later.transactions)

            // The server renumbers the mailbox (its UID list and indexes lost: a new UIDVALIDITY): the
            // next fetch searches it all again and downloads nothing the ledger has.
            for name in try FileManager.default.contentsOfDirectory(atPath: dovecot.maildir.path)
            where name.hasPrefix("dovecot-uidlist") || name.hasPrefix("dovecot.index") {
                try FileManager.default.removeItem(at: dovecot.maildir.appendingPathComponent(name))
            }
            let renumbered = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store])
            #expect(renumbered.status == 0, "\(renumbered.stderr)")
            #expect(renumbered.stderr.contains("the server renumbered the mailbox"), "\(renumbered.stderr)")
            #expect(Self.foundAndDownloaded(renumbered.stderr).map { [$0.0, $0.1] } == [corpus.bank + later.bank, 0],
                    "\(renumbered.stderr)")
            #expect(try Self.ledgerCounts(store).messages == corpus.bank + later.bank)

            // Read-only: every message keeps its flags (the new ones moved to cur/ unread).
            let flagsAfter = try dovecot.flags()
            for (name, flags) in flagsBefore { #expect(flagsAfter[name] == flags, "flags of \(name) changed") }
            #expect(flagsAfter.count == flagsBefore.count + later.bank + later.other)
            #expect(flagsAfter.values.contains("S") && flagsAfter.values.contains("FS") && flagsAfter.values.contains(""))
        }

        @Test("a connection cut mid-fetch resumes, in the same run or the next, with nothing lost or doubled")
        func cut() throws {
            let dovecot = try Dovecot()
            defer { dovecot.stop() }
            let corpus = try Self.fill(dovecot, count: 1500, seed: 7, unrelated: 20, tag: "a")
            func proxy(_ mode: String) throws -> (Process, Int) {
                let portFile = dovecot.folder.appendingPathComponent("proxy-\(UUID().uuidString).port").path
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/Fixtures/imap/cutting-proxy.py").path,
                                     portFile, "\(dovecot.imapsPort)", "1500000", mode]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                try process.run()
                for _ in 0..<100 where !FileManager.default.fileExists(atPath: portFile) { Thread.sleep(forTimeInterval: 0.05) }
                let port = try #require(Int(try String(contentsOfFile: portFile, encoding: .utf8)))
                return (process, port)
            }

            // The first connection cut after 1.5 MB, no retries: the run fails (75), keeping what it stored.
            let (cutting, cuttingPort) = try proxy("first")
            defer { kill(cutting.processIdentifier, SIGKILL); cutting.waitUntilExit() }
            let store = dovecot.folder.appendingPathComponent("ledger.sqlite").path
            let failed = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store, "--retries", "0"],
                                        port: cuttingPort)
            #expect(failed.status == 75, "\(failed.stderr)")
            #expect(failed.stderr.contains("connection lost"), "\(failed.stderr)")
            let partial = try Self.ledgerCounts(store)
            #expect(partial.messages > 0 && partial.messages < corpus.bank)
            // The next run (the same mailbox URL; this connection is not cut) resumes after the last message stored.
            let resumed = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", store], port: cuttingPort)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(Self.foundAndDownloaded(resumed.stderr).map { [$0.0, $0.1] }
                == [corpus.bank - partial.messages, corpus.bank - partial.messages], "\(resumed.stderr)")
            var ledger = try Self.ledgerCounts(store)
            #expect(ledger.messages == corpus.bank)
            #expect(ledger.transactions == corpus.transactions)

            // Only the first connection cut, with retries: the fetch reconnects by itself and completes.
            let (once, oncePort) = try proxy("first")
            defer { kill(once.processIdentifier, SIGKILL); once.waitUntilExit() }
            let other = dovecot.folder.appendingPathComponent("other.sqlite").path
            let reconnected = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--store", other], port: oncePort)
            #expect(reconnected.status == 0, "\(reconnected.stderr)")
            #expect(reconnected.stderr.contains("reconnecting (1 of 3) to resume from UID"), "\(reconnected.stderr)")
            #expect(Self.foundAndDownloaded(reconnected.stderr).map { [$0.0, $0.1] } == [corpus.bank, corpus.bank],
                    "\(reconnected.stderr)")
            ledger = try Self.ledgerCounts(other)
            #expect(ledger.messages == corpus.bank)
            #expect(ledger.transactions == corpus.transactions)
        }

        @Test("POST /sync and serve --sync-every fetch the mailboxes of spendlex.yaml, sharing checkpoints with spendlex fetch")
        func service() async throws {
            // Blocking work (processes, files) on threads of its own, never on the concurrency pool
            // the other async tests share: a blocked pool thread starved them.
            let dovecot = try await offPool { try Dovecot() }
            defer { dovecot.stop() }
            let corpus = try await offPool { try Self.fill(dovecot, count: 400, seed: 5, unrelated: 10, tag: "a") }
            let person = dovecot.folder.appendingPathComponent("person")
            try FileManager.default.createDirectory(at: person, withIntermediateDirectories: true)
            let store = person.appendingPathComponent("ledger.sqlite").path
            try """
                mailboxes:
                  - url: imaps://alice@localhost:\(dovecot.imapsPort)/INBOX
                    password_env: TEST_IMAP_PASSWORD
                    ca_file: \(dovecot.certificate)
                  - url: imap://alice@localhost:\(dovecot.imapPort)/INBOX
                    password_env: TEST_IMAP_PASSWORD
                    ca_file: \(dovecot.certificate)
                """.write(toFile: person.appendingPathComponent("spendlex.yaml").path, atomically: true, encoding: .utf8)
            let environment = ["TEST_IMAP_PASSWORD": "correct-horse", "SPENDLEX_IMAP_PASSWORD": ""]

            do {
                let server = try ServiceLedgerEndToEndTests.Server(store: store, arguments: Self.rules, environment: environment)
                defer { server.stop() }
                let first = try await server.call("POST", "/sync")
                #expect(first.status == 200, "\(first.json)")
                let mailboxes = try #require(first.json["mailboxes"] as? [[String: Any]])
                #expect(mailboxes.count == 2)
                let mailbox = try #require(mailboxes.first)
                #expect(mailbox["found"] as? Int == corpus.bank)
                #expect(mailbox["downloaded"] as? Int == corpus.bank)
                #expect(mailbox["stored"] as? Int == corpus.transactions)
                #expect(mailbox["error"] is NSNull)
                // The same mail reached another way (STARTTLS): found, and none of it downloaded again.
                #expect(mailboxes.last?["found"] as? Int == corpus.bank)
                #expect(mailboxes.last?["downloaded"] as? Int == 0)
                let again = try await server.call("POST", "/sync")
                #expect((again.json["mailboxes"] as? [[String: Any]])?.map { $0["found"] as? Int } == [0, 0])
            }
            // The command line, without a URL, fetches the same mailboxes from the same checkpoints;
            // what the first stores, the second does not download.
            let later = try await offPool { try Self.fill(dovecot, count: 50, seed: 13, unrelated: 3, tag: "b") }
            let fetched = try await offPool {
                try run(spendlexBinary, ["fetch", "--store", store] + Self.rules, in: repositoryRoot, environment: environment)
            }
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(Self.allFoundAndDownloaded(fetched.stderr) == [[later.bank, later.bank], [later.bank, 0]], "\(fetched.stderr)")

            // --sync-every: mail that arrives is fetched without being asked.
            let more = try await offPool { try Self.fill(dovecot, count: 50, seed: 17, unrelated: 3, tag: "c") }
            let server = try ServiceLedgerEndToEndTests.Server(store: store, arguments: Self.rules + ["--sync-every", "1s"],
                                                               environment: environment)
            defer { server.stop() }
            var messages = 0
            for _ in 0..<240 where messages < corpus.bank + later.bank + more.bank {
                try await Task.sleep(nanoseconds: 250_000_000)
                messages = (try? Self.ledgerCounts(store).messages) ?? 0
            }
            #expect(messages == corpus.bank + later.bank + more.bank)

            // A ledger with no mailboxes configured: 404 no_mailboxes.
            let bare = dovecot.folder.appendingPathComponent("bare.sqlite").path
            let other = try ServiceLedgerEndToEndTests.Server(store: bare)
            defer { other.stop() }
            let none = try await other.call("POST", "/sync")
            #expect(none.status == 404)
            #expect((none.json["error"] as? [String: Any])?["code"] as? String == "no_mailboxes")
        }

        @Test("a wrong password, an untrusted certificate, a missing mailbox, no server: clear errors, exit codes")
        func errors() throws {
            let dovecot = try Dovecot()
            defer { dovecot.stop() }
            let corpus = try Self.fill(dovecot, count: 20, seed: 3, unrelated: 2, tag: "a")

            // A message larger than --max-message-bytes is an error with its size, never downloaded;
            // every message found is still accounted for.
            let limited = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--max-message-bytes", "2500",
                                                   "--store", dovecot.folder.appendingPathComponent("limited.sqlite").path])
            #expect(limited.status == 0, "\(limited.stderr)")
            #expect(limited.stderr.contains("bytes is larger than --max-message-bytes (2500); not downloaded"), "\(limited.stderr)")
            let found = Self.foundAndDownloaded(limited.stderr)
            let errors = limited.stderr.components(separatedBy: "not downloaded").count - 1
            #expect(errors > 0 && found?.0 == corpus.bank && found?.1 == corpus.bank - errors, "\(limited.stderr)")
            #expect(limited.stderr.contains("\(corpus.bank) messages:") && limited.stderr.contains(", \(errors) errors"),
                    "\(limited.stderr)")

            let wrong = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate], password: "wrong")
            #expect(wrong.status == 77)
            #expect(wrong.stderr.contains("login refused"), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains("wrong"), "the password was printed: \(wrong.stderr)")

            // The self-signed certificate is in no system store.
            let untrusted = try Self.fetch(dovecot, [])
            #expect(untrusted.status == 76)
            #expect(untrusted.stderr.contains("certificate is not trusted"), "\(untrusted.stderr)")
            let untrustedStartTLS = try Self.fetch(dovecot, [], scheme: "imap")
            #expect(untrustedStartTLS.status == 76, "\(untrustedStartTLS.stderr)")

            let missing = try run(spendlexBinary, ["fetch"] + Self.rules + [
                "imaps://alice@localhost:\(dovecot.imapsPort)/No%20Such%20Folder", "--ca-file", dovecot.certificate,
            ], in: repositoryRoot, environment: ["SPENDLEX_IMAP_PASSWORD": "correct-horse", "HOME": dovecot.folder.path])
            #expect(missing.status == 66)
            #expect(missing.stderr.contains("cannot open the mailbox: No Such Folder"), "\(missing.stderr)")

            let nobody = try Self.fetch(dovecot, ["--ca-file", dovecot.certificate, "--retries", "0"], port: try freePort())
            #expect(nobody.status == 69)
            #expect(nobody.stderr.contains("cannot connect"), "\(nobody.stderr)")

            // No password anywhere, and no terminal to ask on.
            let none = try run(spendlexBinary, ["fetch", "imaps://alice@localhost:\(dovecot.imapsPort)/INBOX"],
                               in: repositoryRoot, environment: ["SPENDLEX_IMAP_PASSWORD": "", "HOME": dovecot.folder.path])
            #expect(none.status == 77)
            #expect(none.stderr.contains("no password for alice"), "\(none.stderr)")

            // No URL, and no mailboxes beside the ledger to fetch instead.
            let noURL = try spendlex(["fetch", "--store", dovecot.folder.appendingPathComponent("none.sqlite").path])
            #expect(noURL.status == 64)
            #expect(noURL.stderr.contains("no mailboxes: in"), "\(noURL.stderr)")

            // A password in the URL is refused before anything is sent.
            let inURL = try spendlex(["fetch", "imaps://alice:correct-horse@localhost:\(dovecot.imapsPort)/INBOX"])
            #expect(inURL.status == 64)
            #expect(inURL.stderr.contains("holds a password"), "\(inURL.stderr)")
        }
    }
}
