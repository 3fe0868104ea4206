import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// The real `spendlex` binary: keys made, listed and revoked on the command line, `serve` on a
/// free loopback port, the Done-when over HTTP, SIGHUP, and a clean stop on SIGTERM.
@Suite("spendlex serve and keys, end to end", .serialized)
struct ServeBinaryTests {
    /// The built `spendlex` binary, next to the test bundle in SwiftPM's products folder.
    static let binary: URL? = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("spendlex")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        let built = repositoryRoot.appendingPathComponent(".build/debug/spendlex")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }()

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try #require(binary)
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test("keys on the command line; serve answers over HTTP; SIGHUP reloads; SIGTERM stops it",
          .enabled(if: binary != nil, "the spendlex binary is not built"))
    func serveEndToEnd() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = folder.path("ledger.sqlite")
        let created = try Self.run(["keys", "create", "--store", store, "--name", "phone"])
        #expect(created.status == 0)
        let key = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("slx_"))
        let old = try Self.run(["keys", "create", "--store", store, "--name", "old"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.run(["keys", "revoke", "--store", store, "2"]).status == 0)
        #expect(try Self.run(["keys", "revoke", "--store", store, "9"]).status == 65)
        let listed = try Self.run(["keys", "list", "--store", store])
        let rows = listed.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.first == ["id", "name", "created", "revoked"])
        #expect(rows.count == 3)
        #expect(rows.dropFirst().map { $0[1] } == ["phone", "old"])
        #expect(rows[1][3] == "-" && rows[2][3] != "-")
        #expect(!listed.stdout.contains(key) && !listed.stdout.contains(old))

        // serve on a free port; the port is read from its first line on stderr.
        let server = Process()
        server.executableURL = try #require(Self.binary)
        server.arguments = ["serve", "--store", store, "--port", "0"]
        server.currentDirectoryURL = repositoryRoot
        let errors = Pipe()
        server.standardError = errors
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var log = ""
        var port: Int?
        while port == nil {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let range = log.range(of: "serving on http://127.0.0.1:") {
                port = Int(log[range.upperBound...].prefix { $0.isNumber })
            }
        }
        let base = "http://127.0.0.1:\(try #require(port, "\(log)"))"
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        func call(_ path: String, key: String?, body: String? = nil) async throws -> (Int, String) {
            var request = HTTPClientRequest(url: base + path)
            if let body {
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: body))
            }
            if let key { request.headers.add(name: "X-API-Key", value: key) }
            let response = try await client.execute(request, timeout: .seconds(60))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), String(buffer: bytes))
        }
        do {
            #expect(try await call("/health", key: nil).0 == 200)
            let stored = try await call("/messages", key: key, body: MessagesRouteTests.metroSMS)
            #expect(stored.0 == 201, "\(stored.1)")
            #expect(stored.1.contains(#""category":"Transport""#))
            let again = try await call("/messages", key: key, body: MessagesRouteTests.metroSMS)
            #expect(again.1.contains(#""status":"duplicate""#))
            #expect(try await call("/messages", key: nil, body: MessagesRouteTests.metroSMS).0 == 401)
            #expect(try await call("/", key: old).0 == 403)

            kill(server.processIdentifier, SIGHUP)
            var reloaded = false
            let deadline = Date().addingTimeInterval(120)
            while !reloaded && Date() < deadline {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                log += String(decoding: chunk, as: UTF8.self)
                reloaded = log.contains("rules reloaded (SIGHUP)")
            }
            #expect(reloaded, "\(log)")
            #expect(try await call("/health", key: nil).0 == 200)
            // A second server on the same port cannot listen: exit 70, and why.
            let second = try Self.run(["serve", "--store", folder.path("other.sqlite"), "--port", "\(port ?? 0)"])
            #expect(second.status == 70)
            #expect(second.stderr.contains("cannot serve on 127.0.0.1"))
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        #expect(!log.contains(key))
    }
}
