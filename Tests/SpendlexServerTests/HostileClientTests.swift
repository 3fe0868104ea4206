import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import SpendlexServer
import Testing

/// A TCP connection to the service on loopback, written and read byte by byte as a hostile
/// client would.
final class RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        #if os(Linux)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Not closed here: an initializer that throws after every property is set still runs
        // deinit, which closes it. Closing it twice closed whatever file the process had opened
        // under that number in between (once, the service's SIGHUP pipe, and a reload test waited
        // in vain).
        guard connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// Sends bytes; false once the peer has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, flags) } == bytes.count
    }

    /// Everything the peer sends until it closes the connection (waiting up to two minutes).
    func answer() async throws -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let (more, closed) = receiveAvailable()
            text += more
            if closed { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        return text
    }

    /// What has arrived, without waiting, and whether the peer has closed (or reset) the connection.
    func receiveAvailable() -> (text: String, closed: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = ""
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += String(decoding: buffer[..<count], as: UTF8.self)
                continue
            }
            return (received, count == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK))
        }
    }
}

@Suite("the service under hostile clients")
struct HostileClientTests {
    @Test("200 clients trickling their headers are closed after the idle timeout while others are served")
    func slowClientsAreCutOff() async throws {
        let test = try TestService { $0.idleTimeout = .seconds(1) }
        let outcome = try await test.live { client in
            let port = try #require(client.port)
            var slow: [RawConnection] = []
            for _ in 0..<200 {
                let connection = try RawConnection(port: port)
                connection.send("POST /messages HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                slow.append(connection)
            }
            // Served normally meanwhile, each on a new connection (the test client's own
            // keep-alive connection would be closed too, once idle for a second).
            var served = 0
            for _ in 0..<20 {
                let normal = try RawConnection(port: port)
                normal.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                if try await normal.answer().hasPrefix("HTTP/1.1 200") { served += 1 }
            }
            // One more header byte from each every 200 ms, as slowloris does, until all are closed.
            var open = Set(slow.indices)
            let deadline = Date().addingTimeInterval(120)  // a bound, far above the 1 s timeout
            while !open.isEmpty && Date() < deadline {
                for index in open where !slow[index].send("a") || slow[index].receiveAvailable().closed {
                    open.remove(index)
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            return (served, open.count)
        }
        #expect(outcome.0 == 20)
        #expect(outcome.1 == 0, "\(outcome.1) slow connections still open")
    }

    @Test("a body trickled byte by byte is answered 408 after the body timeout")
    func slowBody() async throws {
        let test = try TestService { $0.bodyTimeout = .seconds(1) }
        let key = test.key
        let answer = try await test.live { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("POST /messages HTTP/1.1\r\nHost: localhost\r\nX-API-Key: \(key)\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            var answer = ""
            let deadline = Date().addingTimeInterval(120)
            while !answer.contains("\r\n\r\n") && Date() < deadline {
                connection.send(" ")
                let (more, closed) = connection.receiveAvailable()
                answer += more
                if closed { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return answer
        }
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(answer.contains("body_timeout"), "\(answer)")
    }

    @Test("a body that is not JSON by its Content-Type is answered 415")
    func notJSON() async throws {
        let test = try TestService()
        let key = test.key
        let replies = try await test.live { client in
            var replies: [JSONReply] = []
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                replies.append(try await client.call(.post, "/messages", key: key, json: MessagesRouteTests.metroSMS,
                                                     headers: [("Content-Type", type)]))
            }
            replies.append(try await client.call(.post, "/parse", key: key, json: MessagesRouteTests.metroSMS,
                                                 headers: [("Content-Type", "application/json; charset=utf-8")]))
            return replies
        }
        for reply in replies.dropLast() {
            #expect(reply.status == .unsupportedMediaType, "\(reply.text)")
            #expect(reply.errorCode == "unsupported_media_type")
        }
        #expect(replies.last?.status == .ok)
    }

    @Test("a store failure is answered 500 store_failed, and the log says why")
    func storeFailureIsLogged() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "spendlex-test") { _ in handler }
        logger.logLevel = .info
        let test = try TestService()
        let key = test.key
        let ledger = test.folder.path("ledger.sqlite")
        let reply = try await test.live(logger: logger) { client in
            // Another program breaks the ledger under the service.
            try await DatabaseQueue(path: ledger).write { try $0.execute(sql: "DROP TABLE category_mappings") }
            return try await client.call(.get, "/categories/mappings", key: key)
        }
        #expect(reply.status == .internalServerError)
        #expect(reply.errorCode == "store_failed")
        #expect(!reply.text.contains("category_mappings"), "\(reply.text)")  // no detail to the client
        let logged = handler.entries.map { "\($0.message)" }
        #expect(logged.contains { $0.contains("500 store_failed") && $0.contains("no such table: category_mappings") },
                "\(logged)")
    }
}
