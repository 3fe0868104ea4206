import Foundation
import Testing
@testable import SpendlexMail

/// An mbox reader with a router settles mail from its header block, read in place: a message
/// the router declines comes without its bytes (its body skipped in the buffer, never copied),
/// the others with their bytes and the headers already parsed. Nothing else changes: the same
/// messages, offsets and bytes as without a router, whatever the chunk size.
@Suite("Mbox routing in place")
struct MboxRoutingTests {
    typealias Support = InputTestSupport

    static let attachment = String(repeating: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkwMTIzNDU2Nzg5MDEyMzQ1Njc4OTAx\n", count: 400)
    static let mailbox = "From alerts@bank.example Mon Jan  1 00:00:00 2024\n"
        + "From: Bank <alerts@bank.example>\nSubject: Transaction alert\nMessage-ID: <1@bank.example>\n\n"
        + "Rs 500 spent\n>From the bank\n\n"
        + "From friend@mail.example Mon Jan  1 00:00:01 2024\n"
        + "From: Friend <friend@mail.example>\r\nSubject: photos\r\nX-Long: \(String(repeating: "x", count: 300))\r\n"
        + " folded on\r\nMessage-ID: <2@mail.example>\r\n\r\n\(attachment)\n"
        + "From alerts@bank.example Mon Jan  1 00:00:02 2024\n"
        + "From: alerts@bank.example\nSubject: headers only, no blank line\n"
        + "From news@shop.example Mon Jan  1 00:00:03 2024\n"
        + "From: news@shop.example\nSubject: sale\n\nbody\n"

    /// Wants bodies from the bank only.
    static func route(_ headers: EmailHeaders) -> EmailRoute {
        let bank = headers.fromAddress == "alerts@bank.example"
        return EmailRoute(from: headers.fromAddress, messageID: headers.messageID, senderBanks: bank ? [0] : [], fallback: false, parsesBody: bank,
                          wantsBody: bank)
    }

    static func items(chunkSize: Int, routed: Bool, recordLimit: Int = 256 << 20) throws -> [InputItem] {
        let path = try Support.temporaryFile(Array(mailbox.utf8), name: "routed.mbox")
        let reader = try InputReader(path: path, format: .mbox, chunkSize: chunkSize, recordLimit: recordLimit)
        if routed { reader.router = route }
        return Array(reader)
    }

    @Test(arguments: [64, 100, 333, 1 << 20])
    func declinedMailComesWithoutItsBody(chunkSize: Int) throws {
        let plain = Support.emails(try Self.items(chunkSize: chunkSize, routed: false))
        let routed = Support.emails(try Self.items(chunkSize: chunkSize, routed: true))

        #expect(routed.map(\.offset) == plain.map(\.offset))
        #expect(routed.map { $0.route?.wantsBody } == [true, false, true, false])
        #expect(routed[1].bytes.isEmpty && routed[3].bytes.isEmpty)
        #expect(routed[1].headers?.subject == "photos")
        #expect(routed[1].headers?.messageID == "2@mail.example")
        #expect(routed[3].headers?.fromAddress == "news@shop.example")
        // Kept mail: the same bytes as without a router (mboxrd unquoting too), and headers
        // that read the same as headers parsed from those bytes.
        for index in [0, 2] {
            #expect(routed[index].bytes == plain[index].bytes)
            let reparsed = try MIMEDecoder.headers(of: plain[index].bytes)
            #expect(routed[index].headers?.subject == reparsed.subject)
            #expect(routed[index].headers?.bodyOffset == reparsed.bodyOffset)
        }
        #expect(Support.string(routed[0]).hasSuffix("Rs 500 spent\nFrom the bank\n"))
    }

    /// A declined message is not held, so the record limit does not apply to it.
    @Test func declinedMailLargerThanTheRecordLimitIsStillSettled() throws {
        let items = try Self.items(chunkSize: 512, routed: true, recordLimit: 8192)
        #expect(items.map(Support.kind) == ["email", "email", "email", "email"])
        let unrouted = try Self.items(chunkSize: 512, routed: false, recordLimit: 8192)
        #expect(unrouted.map(Support.kind) == ["email", "malformed", "email", "email"])
    }

    /// Routing must not change how broken messages are reported: a blank message stays
    /// malformed, and junk where the headers should be is left for the batch parser to report.
    @Test func blankAndHeaderlessMessagesAreNotRouted() throws {
        let text = "From a@b.c Mon Jan  1 00:00:00 2024\n\n\n\n"
            + "From a@b.c Mon Jan  1 00:00:01 2024\n\u{01}\u{02} not a header\n\n"
            + "From a@b.c Mon Jan  1 00:00:02 2024\nFrom: a@b.c\n\nbody\n"
        let path = try Support.temporaryFile(Array(text.utf8), name: "broken.mbox")
        let reader = try InputReader(path: path, format: .mbox)
        reader.router = Self.route
        let items = Array(reader)
        #expect(items.map(Support.kind) == ["malformed", "email", "email"])
        #expect(Support.reason(items[0]) == "empty message after the From line")
        let emails = Support.emails(items)
        #expect(emails[0].route == nil && !emails[0].bytes.isEmpty)
        #expect(emails[1].route?.wantsBody == false)
    }
}
