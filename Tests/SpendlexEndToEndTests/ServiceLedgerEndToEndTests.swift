import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex serve` and `spendlex parse --store` on one ledger, and the service killed with
    /// SIGKILL under load: every message stored once, the ledger sound.
    @Suite("the service's ledger, end to end", .serialized)
    struct ServiceLedgerEndToEndTests {
        /// A running `spendlex serve` on a free port, with an API key.
        final class Server: @unchecked Sendable {  // immutable after init; Process is thread-safe enough to kill
            let process = Process()
            let port: Int
            let key: String
            private let errors = Pipe()

            init(store: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
                let created = try spendlex(["keys", "create", "--store", store, "--name", "e2e"])
                guard created.status == 0 else { throw Failure("keys create: \(created.stderr)") }
                key = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                process.executableURL = spendlexBinary
                process.arguments = ["serve", "--store", store, "--port", "0", "--log-level", "warning"] + arguments
                process.currentDirectoryURL = repositoryRoot
                if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
                process.standardOutput = FileHandle.nullDevice
                process.standardError = errors
                try process.run()
                var log = ""
                var found: Int?
                while found == nil {
                    let chunk = errors.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    log += String(decoding: chunk, as: UTF8.self)
                    if let range = log.range(of: "serving on http://127.0.0.1:") {
                        found = Int(log[range.upperBound...].prefix { $0.isNumber })
                    }
                }
                guard let found else { throw Failure("serve did not start: \(log)") }
                port = found
                // Keep reading its log so that it never blocks on a full pipe.
                let handle = errors.fileHandleForReading
                Thread { while !handle.availableData.isEmpty {} }.start()
            }

            /// POSTs one message; the HTTP status (0 when the connection failed).
            func post(_ body: String) async -> Int {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/messages")!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue(key, forHTTPHeaderField: "X-API-Key")
                request.httpBody = Data(body.utf8)
                request.timeoutInterval = 120
                guard let (_, response) = try? await URLSession.shared.data(for: request) else { return 0 }
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }

            /// A request with the key and no body; the status and the JSON answer.
            func call(_ method: String, _ path: String) async throws -> (status: Int, json: [String: Any]) {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                request.httpMethod = method
                request.setValue(key, forHTTPHeaderField: "X-API-Key")
                request.timeoutInterval = 300
                let (data, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0,
                        (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
            }

            func kill9() {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }

            func stop() {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
            }
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }

        let folder: URL

        init() throws {
            folder = TestScratch.root.appendingPathComponent("spendlex-service-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        static func integrity(_ path: String) throws -> String? {
            try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        }

        @Test("parse --store into the ledger the service is writing under load: both finish, every message stored once")
        func cliWriterBesideTheService() async throws {
            let store = folder.appendingPathComponent("shared.sqlite").path
            let server = try Server(store: store)
            defer { server.stop() }
            let input = folder.appendingPathComponent("inbox.jsonl")
            try LedgerEndToEndTests.inbox(count: 10_000).write(to: input, atomically: true, encoding: .utf8)
            // The service's own messages: the same shapes under other ids.
            let posted = LedgerEndToEndTests.inbox(count: 1_000).split(separator: "\n")
                .map { $0.replacingOccurrences(of: #""id": "m"#, with: #""id": "svc-"#) }
            let cli = Process()
            cli.executableURL = spendlexBinary
            cli.arguments = ["parse", input.path, "--store", store, "--quiet"]
            cli.currentDirectoryURL = repositoryRoot
            cli.standardOutput = FileHandle.nullDevice
            let cliErrors = Pipe()
            cli.standardError = cliErrors
            try cli.run()
            let statuses = await withTaskGroup(of: [Int].self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var statuses: [Int] = []
                        for (index, body) in posted.enumerated() where index % 4 == worker { statuses.append(await server.post(body)) }
                        return statuses
                    }
                }
                return await group.reduce(into: [Int]()) { $0 += $1 }
            }
            let cliLog = String(decoding: cliErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            cli.waitUntilExit()
            #expect(cli.terminationStatus == 0, "\(cliLog)")
            #expect(statuses.count == 1_000)
            #expect(statuses.allSatisfy { (200..<300).contains($0) }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            server.stop()
            let counts = try await DatabaseQueue(path: store).read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE id LIKE 'svc-%'") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE status = 'transaction'") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0)
            }
            #expect(counts.0 == 11_000)
            #expect(counts.1 == 1_000)
            #expect(counts.2 == counts.3)
            #expect(try Self.integrity(store) == "ok")
        }

        @Test("the service killed with SIGKILL under load, restarted, sent everything again: one clean run's ledger")
        func serviceKilledUnderLoad() async throws {
            let messages = LedgerEndToEndTests.inbox(count: 2_000).split(separator: "\n").map(String.init)
            // One clean run: every message posted once, in order.
            let clean = folder.appendingPathComponent("clean.sqlite").path
            let first = try Server(store: clean)
            for body in messages { _ = await first.post(body) }
            first.stop()

            let killed = folder.appendingPathComponent("killed.sqlite").path
            let victim = try Server(store: killed)
            // Load from two clients; the kill comes once some hundreds are in.
            let sent = await withTaskGroup(of: Int.self) { group in
                group.addTask {
                    var sent = 0
                    for body in messages {
                        if await victim.post(body) == 0 { break }
                        sent += 1
                    }
                    return sent
                }
                group.addTask {
                    let deadline = Date().addingTimeInterval(300)
                    while LedgerEndToEndTests.count(killed) < 300 && victim.process.isRunning && Date() < deadline {
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    victim.kill9()
                    return 0
                }
                return await group.reduce(0, +)
            }
            #expect(sent < messages.count, "the load finished before the kill")
            #expect(try Self.integrity(killed) == "ok")
            // Restarted on the same ledger, everything sent again, in order.
            let again = try Server(store: killed)
            var statuses: [Int] = []
            for body in messages { statuses.append(await again.post(body)) }
            again.stop()
            #expect(statuses.allSatisfy { (200..<300).contains($0) })
            #expect(try Self.integrity(killed) == "ok")
            #expect(try LedgerEndToEndTests.dump(killed) == LedgerEndToEndTests.dump(clean))
        }
    }
}
