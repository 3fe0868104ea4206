import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import SpendlexServer
import Testing

/// No full card number in any response, log line or ledger byte, whatever a client sends and
/// however the number is written (alone, glued to letters, spaced, dashed); no API key in the log.
@Suite("card numbers and keys never leak")
struct CardNumberTests {
    static let card = "4111111111111111"

    @Test("responses and logs (at trace level) hold no full card number and no API key")
    func neverLeaked() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "spendlex-test") { _ in handler }
        logger.logLevel = .trace
        let test = try TestService()
        let key = test.key
        let card = Self.card
        let replies = try await test.live(logger: logger) { client in
            let sms = #"{"sender": "VM-HDFCBK", "text": "Spent Rs.10290 On HDFC Bank Card \#(card) At EAZYDINE \#(card) On 2026-05-02:22:26:01."}"#
            let unmatched = #"{"sender": "VM-HDFCBK", "text": "Your card \#(card) was renewed"}"#
            let email = jsonString("From: alerts@hdfcbank.net\r\nSubject: Card \(card)\r\nMessage-ID: <\(card)@x>\r\n\r\nCard \(card) used")
            var texts: [String] = []
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/messages", sms), (.post, "/messages", sms), (.post, "/parse", sms),
                (.post, "/parse", unmatched), (.post, "/messages", unmatched), (.post, "/messages", #"{"email": \#(email)}"#),
                (.post, "/parse", #"{"email": \#(email)}"#), (.post, "/messages", #"{"text": \#(card)}"#),
                (.post, "/messages", "{\(card)"), (.get, "/transactions?days=36500&q=\(card)", nil),
                (.get, "/transactions?days=36500", nil), (.get, "/transactions/export/csv", nil),
                (.get, "/\(card)", nil), (.post, "/messages/batch", #"{"messages": [\#(sms), \#(unmatched)]}"#),
            ] as [(HTTPRequest.Method, String, String?)] {
                let reply = try await client.call(method, path, key: key, json: body)
                #expect(reply.status != .internalServerError, "\(path): \(reply.text)")
                texts.append(reply.text)
            }
            return texts
        }
        for text in replies { #expect(!text.contains(card), "\(text)") }
        let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
        #expect(lines.count > 10)
        for line in lines {
            #expect(!line.contains(card), "\(line)")
            #expect(!line.contains(key), "\(line)")
        }
    }

    /// A card number in every shape a message or a client may write it.
    static let shapes = ["4111111111111111", "EAZYDINE4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111",
                         "ABC5555555555554444xyz"]
    /// What must never appear: the digits whole, in any of those spellings.
    static let forbidden = ["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "5555555555554444"]

    @Test("card numbers glued, spaced or dashed, in every field a client sets, are masked in replies, logs and the ledger")
    func everyShapeEveryField() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "spendlex-test") { _ in handler }
        logger.logLevel = .trace
        let test = try TestService()
        let key = test.key
        let ledgerPath = test.folder.path("ledger.sqlite")
        let replies = try await test.live(logger: logger) { client in
            var texts: [String] = []
            func send(_ method: HTTPRequest.Method, _ path: String, _ body: String?) async throws -> JSONReply {
                let reply = try await client.call(method, path, key: key, json: body)
                #expect(reply.status != .internalServerError, "\(path): \(reply.text)")
                texts.append(reply.text)
                return reply
            }
            for (index, shape) in Self.shapes.enumerated() {
                let sms = #"{"id": "sms-\#(shape)", "sender": "VM-HDFCBK\#(shape)", "text": "Spent Rs.1\#(index)0 On HDFC Bank Card 0000 At \#(shape) On 2026-05-0\#(index + 1):22:26:01."}"#
                let stored = try await send(.post, "/messages", sms)
                _ = try await send(.post, "/parse", sms)
                let email = jsonString("From: alerts@hdfcbank.net\r\nSubject: Card \(shape)\r\nMessage-ID: <\(shape)@x\(index)>\r\nContent-Type: text/html\r\n\r\n<p>Card <b>\(shape)</b> used</p>")
                _ = try await send(.post, "/messages", #"{"email": \#(email)}"#)
                if let id = stored.at("transaction", "id") as? Int {
                    _ = try await send(.put, "/transactions/\(id)", #"{"note": "paid with \#(shape)"}"#)
                    _ = try await send(.get, "/transactions/\(id)", nil)
                }
                _ = try await send(.post, "/wallet/cards", #"{"card": "amex-gold", "last4": "1234", "nickname": "my \#(shape)"}"#)
                _ = try await send(.post, "/categories/mappings", #"{"merchant": "\#(shape)", "category": "Shopping"}"#)
                _ = try await send(.post, "/recommendations", #"{"query": "shoes at \#(shape) for $50"}"#)
                _ = try await send(.post, "/recommendations", #"{"merchant": "\#(shape)", "amount": "50"}"#)
                _ = try await send(.get, "/x\(shape.replacingOccurrences(of: " ", with: "%20"))", nil)
            }
            for path in ["/transactions?days=36500", "/transactions/export/csv", "/wallet/cards", "/categories/mappings",
                         "/categories/mappings?format=yaml", "/reports/summary?days=36500"] {
                _ = try await send(.get, path, nil)
            }
            // The ledger's bytes, main file and WAL, read while the service still runs.
            for file in [ledgerPath, ledgerPath + "-wal"] {
                if let data = FileManager.default.contents(atPath: file) {
                    texts.append(String(decoding: data, as: UTF8.self))
                }
            }
            return texts
        }
        for text in replies {
            for number in Self.forbidden { #expect(!text.contains(number), "\(text)") }
        }
        for line in handler.entries.map({ "\($0.message) \($0.metadata)" }) {
            for number in Self.forbidden { #expect(!line.contains(number), "\(line)") }
            #expect(!line.contains(key))
        }
    }
}
