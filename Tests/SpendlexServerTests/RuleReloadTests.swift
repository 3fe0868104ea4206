import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import SpendlexServer
import Synchronization
import Testing

/// Rules reload while the service runs: on a file change and on SIGHUP, atomically, and a
/// broken edit keeps the old set serving.
@Suite("rules reload")
struct RuleReloadTests {
    static func bankFile(pattern: String) -> String {
        """
        bank: Test Bank
        id: testbank
        country: IN
        currency: INR
        senders: ["*-TESTBK"]
        parsers:
          - id: testbank.spend
            direction: debit
            kind: purchase
            pattern: '\(pattern)'

        """
    }

    static let spent = #"{"sender": "VM-TESTBK", "text": "Spent Rs 50.00 at Corner Cafe."}"#
    static let paid = #"{"sender": "VM-TESTBK", "text": "Paid Rs 75.00 to Corner Cafe."}"#

    /// A rules folder with one bank file, and the rule paths to serve it with.
    static func rulesFolder() throws -> (TemporaryFolder, file: String, paths: [String]) {
        let folder = try TemporaryFolder()
        let file = folder.path("testbank.yaml")
        try bankFile(pattern: #"Spent %{MONEY:amount} at (?<merchant>[A-Za-z ]+?)\."#).write(toFile: file, atomically: true, encoding: .utf8)
        return (folder, file, [folder.url.path, repositoryRoot.appendingPathComponent("grammars").path])
    }

    /// Polls `condition` until it holds or `seconds` pass.
    static func eventually(seconds: Double = 60, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test("editing a rule file while the server runs changes the next parse; a broken edit keeps the old set and shows in GET /")
    func fileChange() async throws {
        let (rules, file, paths) = try Self.rulesFolder()
        defer { rules.remove() }
        let test = try TestService(rules: paths, watch: .milliseconds(100))
        let key = test.key
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "spendlex-test") { _ in handler }
        logger.logLevel = .notice
        try await test.live(logger: logger) { client in
            let before = try await client.call(.post, "/parse", key: key, json: Self.spent)
            #expect(before["status"] as? String == "transaction", "\(before.text)")
            #expect(before.at("transaction", "amount") as? String == "50.00")
            #expect(try await client.call(.post, "/parse", key: key, json: Self.paid)["status"] as? String == "unmatched")

            try Self.bankFile(pattern: #"Paid %{MONEY:amount} to (?<merchant>[A-Za-z ]+?)\."#)
                .write(toFile: file, atomically: false, encoding: .utf8)
            let reloaded = try await Self.eventually {
                try await client.call(.post, "/parse", key: key, json: Self.paid)["status"] as? String == "transaction"
            }
            #expect(reloaded)
            #expect(try await client.call(.post, "/parse", key: key, json: Self.spent)["status"] as? String == "unmatched")

            // A broken edit: an unknown grammar name. The server stays up, the last good set serves.
            try Self.bankFile(pattern: #"Paid %{NO_SUCH_GRAMMAR:amount} to (?<merchant>.+)"#)
                .write(toFile: file, atomically: false, encoding: .utf8)
            let refused = try await Self.eventually {
                try await client.call(.get, "/", key: key).at("rules", "rejected_reload") is [String: Any]
            }
            #expect(refused)
            let info = try await client.call(.get, "/", key: key)
            let diagnostics = try #require(info.at("rules", "rejected_reload", "diagnostics") as? [[String: Any]])
            let error = try #require(diagnostics.first { $0["severity"] as? String == "error" })
            #expect(error["file"] as? String == file)
            #expect(error["line"] as? Int == 10)
            #expect((error["text"] as? String)?.hasPrefix("\(file):10:") == true)
            // The log has the refusal, the diagnostic in file:line:col form with its source line.
            // (The watcher logs just after the swap is refused: wait for the line.)
            #expect(try await Self.eventually {
                handler.entries.contains { "\($0.message)".contains("rules reload refused") && "\($0.message)".contains("\(file):10:") }
            })
            let logged = handler.entries.map { "\($0.message)" }.joined(separator: "\n")
            #expect(logged.contains("\(file):10:"), "\(logged)")
            #expect(logged.contains("NO_SUCH_GRAMMAR"), "\(logged)")
            let still = try await client.call(.post, "/parse", key: key, json: Self.paid)
            #expect(still["status"] as? String == "transaction")
            #expect(still.at("transaction", "amount") as? String == "75.00")

            // Fixed again: the refusal clears.
            try Self.bankFile(pattern: #"Paid %{MONEY:amount} to (?<merchant>[A-Za-z ]+?)\."#)
                .write(toFile: file, atomically: false, encoding: .utf8)
            #expect(try await Self.eventually {
                try await client.call(.get, "/", key: key).at("rules", "rejected_reload") is NSNull
            })
        }
    }

    @Test("a reload request reloads the rules of its own service only")
    func reloadRequest() async throws {
        let (rules, file, paths) = try Self.rulesFolder()
        defer { rules.remove() }
        let test = try TestService(rules: paths, watch: nil)
        let other = try TestService(rules: paths, watch: nil)
        let key = test.key
        try await test.live { client in
            #expect(try await client.call(.post, "/parse", key: key, json: Self.paid)["status"] as? String == "unmatched")
            try Self.bankFile(pattern: #"Paid %{MONEY:amount} to (?<merchant>[A-Za-z ]+?)\."#)
                .write(toFile: file, atomically: false, encoding: .utf8)
            // Nothing polls here: only a request reloads. Another service's request does not.
            #expect(other.reloads.send() == 0)
            #expect(try await client.call(.post, "/parse", key: key, json: Self.paid)["status"] as? String == "unmatched")
            // The watcher listens once the service runs; the reload happens within send().
            #expect(try await Self.eventually(seconds: 120) { test.reloads.listenerCount == 1 })
            #expect(test.reloads.send() == 1)
            #expect(try await client.call(.post, "/parse", key: key, json: Self.paid)["status"] as? String == "transaction")
        }
        #expect(test.reloads.listenerCount == 0)
    }

    @Test("SIGHUP sends a reload request to every listener of the process's hangup source")
    func hangupSignal() async throws {
        let received = Mutex(0)
        let hangup = ReloadRequests.hangup
        let id = hangup.listen { received.withLock { $0 += 1 } }
        defer { hangup.stopListening(id) }
        // A thread that takes SIGHUP raises it at itself, so the handler runs there whatever
        // other threads block. (Swift's concurrency threads block signals, and a thread inherits
        // its creator's mask: unblock it first.) Raised again every few seconds until it arrives:
        // the test failed twice in full CI runs on a loaded machine, waiting 120 s for a single
        // signal, without a cause found (see the issue notes); what it checks is that SIGHUP
        // reaches the listeners, which a lost first signal would not disprove.
        func raiseOnAThreadOfItsOwn() {
            let thread = Thread {
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGHUP)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(SIGHUP)
            }
            thread.start()
        }
        var arrived = false
        for _ in 0..<24 where !arrived {
            raiseOnAThreadOfItsOwn()
            arrived = try await Self.eventually(seconds: 5) { received.withLock { $0 } >= 1 }
        }
        #expect(arrived)
    }

    @Test("requests during reloads see the old set or the new one, never none")
    func atomicSwap() async throws {
        let (rules, file, paths) = try Self.rulesFolder()
        defer { rules.remove() }
        let test = try TestService(rules: paths, watch: nil)
        let key = test.key
        let live = test.service.rules
        let purchase = Self.bankFile(pattern: #"Spent %{MONEY:amount} at (?<merchant>[A-Za-z ]+?)\."#)
        let refund = purchase.replacingOccurrences(of: "direction: debit\n    kind: purchase",
                                                   with: "direction: credit\n    kind: refund")
        #expect(refund != purchase)
        let kinds = try await test.live { client in
            try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask {
                    for round in 0..<20 {
                        try (round.isMultiple(of: 2) ? refund : purchase).write(toFile: file, atomically: true, encoding: .utf8)
                        guard case .swapped = live.reload() else { throw CancellationError() }
                        try await Task.sleep(for: .milliseconds(10))  // spread the swaps over the requests
                    }
                    return []
                }
                for _ in 0..<2 {
                    group.addTask {
                        var seen: [String] = []
                        for _ in 0..<60 {
                            let reply = try await client.call(.post, "/parse", key: key, json: Self.spent)
                            seen.append(reply.at("transaction", "kind") as? String ?? "\(reply["status"] ?? "none")")
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
        }
        #expect(kinds.count == 120)
        #expect(Set(kinds).isSubset(of: ["purchase", "refund"]), "\(Set(kinds))")
    }

    @Test("a server does not start on rules with errors")
    func brokenAtStart() throws {
        let (rules, file, paths) = try Self.rulesFolder()
        defer { rules.remove() }
        try Self.bankFile(pattern: "%{NO_SUCH_GRAMMAR:amount}").write(toFile: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try TestService(rules: paths)
        } throws: { error in
            guard let error = error as? ServiceError, case .rules(let load) = error else { return false }
            return load.formatted.contains("\(file):10:")
        }
    }
}
