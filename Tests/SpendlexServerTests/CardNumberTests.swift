import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import SpendlexServer
import Testing

/// No full card number in any response or log line, whatever a client sends; no API key in the log.
/// (A number glued to letters, "EAZYDINE4111111111111111", is no card number to the engine's
/// masker, which keeps references such as "IN00000000000000" whole: not tested here.)
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
            let unmatched = #"{"sender": "VM-HDFCBK", "text": "Your card \#(card) was blocked"}"#
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
}
