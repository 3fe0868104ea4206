import Testing
@testable import SpendlexIMAP

@Suite("IMAP response parser")
struct IMAPResponseParserTests {
    private func responses(_ chunks: [String]) throws -> [IMAPResponse] {
        var parser = IMAPResponseParser()
        var found: [IMAPResponse] = []
        for chunk in chunks {
            parser.append(Array(chunk.utf8))
            while let response = try parser.next() { found.append(response) }
        }
        return found
    }

    @Test("untagged, continuation and tagged responses, split anywhere by the network")
    func kinds() throws {
        let text = "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n+ \r\na1 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n"
        for cut in [1, 2, 5, 17, 40, text.utf8.count - 1] {
            let bytes = Array(text.utf8)
            let parts = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            let found = try responses(parts)
            #expect(found.map(\.kind) == [.untagged, .continuation, .tagged("a1")])
            #expect(found[2].status == "NO")
            #expect(found[2].statusText == "[AUTHENTICATIONFAILED] Authentication failed.")
            #expect(IMAPSession.capabilityCode(in: found[0].text) == ["IMAP4REV1", "AUTH=PLAIN"])
        }
    }

    @Test("a FETCH literal is kept apart from the text, CR LF and braces inside it included")
    func literal() throws {
        let body = "From: a@b\r\nSubject: {5}\r\n\r\n* 3 FETCH a body line\r\ns9 OK not the end\r\n"
        let text = "* 12 FETCH (UID 345 RFC822.SIZE \(body.utf8.count) BODY[] {\(body.utf8.count)}\r\n\(body))\r\ns4 OK done\r\n"
        // Byte by byte: the worst case of a slow network.
        let found = try responses(text.map { String($0) })
        #expect(found.count == 2)
        #expect(found[0].literals == [Array(body.utf8)])
        let message = try #require(IMAPSession.fetchedMessage(found[0]))
        #expect(message.uid == 345)
        #expect(message.size == body.utf8.count)
        #expect(message.body == Array(body.utf8))
        #expect(found[1].kind == .tagged("s4"))
    }

    @Test("a FETCH of flags alone carries no body; a non-FETCH is none")
    func flagsOnly() throws {
        let found = try responses(["* 4 FETCH (FLAGS (\\Seen) UID 9)\r\n* 5 EXISTS\r\n"])
        #expect(IMAPSession.fetchedMessage(found[0])?.uid == 9)
        #expect(IMAPSession.fetchedMessage(found[0])?.body == nil)
        #expect(IMAPSession.fetchedMessage(found[1]) == nil)
    }

    @Test("response codes: UIDVALIDITY and UIDNEXT")
    func codes() throws {
        let found = try responses(["* OK [UIDVALIDITY 1795729105] UIDs valid\r\n* OK [UIDNEXT 2041] Predicted\r\n"])
        #expect(found[0].code("UIDVALIDITY") == 1795729105)
        #expect(found[1].code("UIDNEXT") == 2041)
        #expect(found[0].code("UIDNEXT") == nil)
    }

    @Test("a literal or a line beyond the limits is an error, not a memory blow-up")
    func limits() throws {
        var parser = IMAPResponseParser(maxLine: 64, maxLiteral: 100)
        parser.append(Array("* 1 FETCH (BODY[] {101}\r\n".utf8))
        #expect(throws: IMAPError.self) { try parser.next() }
        var long = IMAPResponseParser(maxLine: 64, maxLiteral: 100)
        long.append(Array(String(repeating: "x", count: 100).utf8))
        #expect(throws: IMAPError.self) { try long.next() }
    }

    @Test("a line that is no response is a protocol error")
    func garbage() throws {
        #expect(throws: IMAPError.self) { try responses(["garbage\r\n"]) }
    }
}
