import Foundation
import Testing
@testable import SpendlexMail

@Suite("mbox reader")
struct MboxReaderTests {
    typealias Support = InputTestSupport

    @Test func mboxrdUnquotesOneLevelAndDropsTheSeparatorLines() throws {
        let path = Support.fixture("mboxrd.mbox")
        let file = try Support.fixtureBytes("mboxrd.mbox")
        let items = try Support.items(path)
        let emails = Support.emails(items)
        #expect(items.count == 3)
        #expect(emails.count == 3)
        let first = Support.string(emails[0])
        #expect(first.hasPrefix("Return-Path: <alerts@hdfcbank.net>\n"))
        #expect(first.contains("\nFrom now on, alerts for this card come from this address.\n"))
        #expect(first.contains("\n>From the archive: this line was"))
        #expect(first.contains("\n >From with a leading space is body text"))
        // The empty line before the next From_ line belongs to the mbox, not to the message.
        #expect(first.hasSuffix("stays as it is.\n"))
        #expect(Support.string(emails[1]).contains("\n>>From three levels deep.\n"))
        #expect(Support.string(emails[2]).hasPrefix("From: Mail System Internal Data"))
        #expect(emails.map(\.offset) == [0, Support.offset(of: "From alerts@notifications", in: file)!,
                                          Support.offset(of: "From MAILER-DAEMON", in: file)!])
        #expect(emails.allSatisfy { $0.file == path && $0.flags == nil })
    }

    @Test func mboxoKeepsUnescapedBodyLinesThatAreNotFromLines() throws {
        let emails = Support.emails(try Support.items(Support.fixture("mboxo.mbox")))
        #expect(emails.count == 2)
        let first = Support.string(emails[0])
        #expect(first.contains("\nFrom my phone: I spent $20 at lunch, lol.\n"))
        #expect(first.contains("\n\nFrom the desk of the branch manager:"))
        #expect(first.contains("\nFrom: is not a separator either.\n-SBI\n"))
        #expect(Support.string(emails[1]).hasSuffix("ending in 1234.\n"))
    }

    @Test func gmailTakeoutSplitsWithoutEmptyLinesWhenAHeaderFollows() throws {
        let emails = Support.emails(try Support.items(Support.fixture("takeout.mbox")))
        #expect(emails.count == 3)
        let texts = emails.map(Support.string)
        #expect(texts[0].hasPrefix("X-GM-THRID: 1796512345678901234\nX-Gmail-Labels: Inbox,Category Updates,Opened\n"))
        #expect(texts[0].hasSuffix("Avl Lmt: INR 1,23,456.78.\n"))
        #expect(texts[1].hasPrefix("X-GM-THRID: 1796512345678909999\n"))
        // A From_-shaped line followed by body text stays in its message.
        #expect(texts[1].contains("\nFrom 1796512345678900000@xxx Sat Jan 03 00:00:00 +0000 2026\nthis line is body text"))
        #expect(texts[2].hasPrefix("X-GM-THRID: 1796512345678911111\n"))
    }

    @Test func crlfMboxGivesTheSameMessagesWithCRLF() throws {
        let lf = Support.emails(try Support.items(Support.fixture("mboxrd.mbox")))
        let path = try Support.temporaryFile(Support.crlf(try Support.fixtureBytes("mboxrd.mbox")), name: "crlf.mbox")
        let crlf = Support.emails(try Support.items(path))
        #expect(crlf.count == 3)
        #expect(crlf.map(\.bytes) == lf.map { Support.crlf($0.bytes) })
    }

    @Test func truncatedLastMessageIsStillYielded() throws {
        let file = try Support.fixtureBytes("mboxrd.mbox")
        let cut = Support.offset(of: "This text is part", in: file)! + 9
        let path = try Support.temporaryFile(Array(file[..<cut]), name: "cut.mbox")
        let emails = Support.emails(try Support.items(path))
        #expect(emails.count == 3)
        #expect(Support.string(emails[2]).hasSuffix("X-IMAP: 1714780800 0000000003\n\nThis text"))
    }

    @Test func textBeforeTheFirstFromLineIsOneMalformedItem() throws {
        let file = Array("Saved by a mail client\nwith notes\n\n".utf8) + (try Support.fixtureBytes("mboxrd.mbox"))
        let path = try Support.temporaryFile(file, name: "preamble.mbox")
        // The content does not start with "From ", so the format is given.
        let items = try Support.items(path, format: .mbox)
        #expect(items.map(Support.kind) == ["malformed", "email", "email", "email"])
        #expect(Support.reason(items[0]) == "text before the first From line")
        #expect(items[0].offset == 0)
        #expect(items[1].offset == 35)
    }

    @Test func byteOrderMarkAndBlankLinesBeforeTheFirstFromLineAreNotText() throws {
        let file = [0xEF, 0xBB, 0xBF] + Array("\n\r\n\n".utf8) + (try Support.fixtureBytes("mboxrd.mbox"))
        let items = try Support.items(try Support.temporaryFile(file, name: "bom.mbox"))
        #expect(items.map(Support.kind) == ["email", "email", "email"])
        #expect(items[0].offset == 7)
    }

    @Test func fileWithoutAnyFromLineIsOneMalformedItem() throws {
        let path = try Support.temporaryFile(Array("just some text\nFrom: header-like\n".utf8), name: "none.mbox")
        let items = try Support.items(path, format: .mbox)
        #expect(items.count == 1)
        #expect(Support.reason(items[0]) == "text before the first From line (no From line found)")
    }

    @Test func fromLineWithNothingAfterItIsMalformed() throws {
        let text = "From a@b.c Mon Jan  1 00:00:00 2024\nSubject: one\n\nbody\n\nFrom a@b.c Mon Jan  1 00:00:01 2024"
        let items = try Support.items(try Support.temporaryFile(Array(text.utf8), name: "end.mbox"))
        #expect(items.map(Support.kind) == ["email", "malformed"])
        #expect(Support.string(Support.emails(items)[0]) == "Subject: one\n\nbody\n")
        #expect(Support.reason(items[1]) == "From line with no message after it")
    }

    @Test func emptyMessageBetweenTwoFromLinesIsMalformed() throws {
        let text = "From a@b.c Mon Jan  1 00:00:00 2024\n\nFrom a@b.c Mon Jan  1 00:00:01 2024\nSubject: two\n\nbody\n"
        let items = try Support.items(try Support.temporaryFile(Array(text.utf8), name: "empty.mbox"))
        #expect(items.map(Support.kind) == ["malformed", "email"])
        #expect(Support.reason(items[0]) == "empty message after the From line")
    }

    /// Messages written by an mboxrd writer, read back through every chunk boundary.
    @Test(arguments: [64, 97, 4096, 1 << 20])
    func randomMailboxesRoundTripAtAnyChunkSize(chunkSize: Int) throws {
        var generator = InputTestRandom(seed: UInt64(chunkSize))
        for lineEnding in ["\n", "\r\n"] {
            let messages = (0..<40).map { index in Self.randomMessage(index, lineEnding: lineEnding, using: &generator) }
            let mbox = Self.mboxrd(messages, lineEnding: lineEnding)
            let path = try Support.temporaryFile(mbox, name: "random.mbox")
            let read = try Support.items(path, format: .mbox, chunkSize: chunkSize)
            #expect(Self.firstDifference(read, messages) == nil, "file \(path), line ending \(lineEnding.debugDescription)")
            // The same through a pipe (no read-ahead, data arriving in pieces).
            let pipe = Support.pipe(feeding: mbox)
            let piped = Array(try InputReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "pipe",
                                              format: nil, chunkSize: chunkSize))
            #expect(Self.firstDifference(piped, messages) == nil, "pipe, line ending \(lineEnding.debugDescription)")
        }
    }

    @Test func messagesLargerThanAChunkAreKeptWhole() throws {
        var generator = InputTestRandom(seed: 7)
        var messages = (0..<6).map { Self.randomMessage($0, lineEnding: "\n", using: &generator) }
        let bigBody = (0..<60_000).map { "line \($0) of a large attachment-like body, From is inside\n" }.joined()
        messages[2] = Array("Subject: big\n\n\(bigBody)".utf8)  // about 3.5 MB, several 1 MiB chunks
        let mbox = Self.mboxrd(messages, lineEnding: "\n")
        let reader = try InputReader(path: try Support.temporaryFile(mbox, name: "big.mbox"))
        #expect(Self.firstDifference(Array(reader), messages) == nil)
        #expect(reader.totalBytes == mbox.count)
        #expect(reader.bytesRead == mbox.count)
    }

    /// Where the items read differ from the messages written, described briefly; nil if they match.
    static func firstDifference(_ items: [InputItem], _ messages: [[UInt8]]) -> String? {
        for (index, item) in items.enumerated() {
            guard case .email(let email) = item else { return "item \(index) is \(Support.kind(item)): \(Support.reason(item) ?? "")" }
            guard index < messages.count else { return "extra item \(index) at offset \(email.offset)" }
            if email.bytes != messages[index] {
                let common = zip(email.bytes, messages[index]).prefix { $0 == $1 }.count
                return "message \(index) differs at byte \(common): read \(email.bytes.count) bytes, wrote \(messages[index].count); "
                    + "read …\(String(decoding: email.bytes[max(0, common - 40)..<min(email.bytes.count, common + 40)], as: UTF8.self).debugDescription)"
            }
        }
        return items.count == messages.count ? nil : "read \(items.count) items for \(messages.count) messages"
    }

    // MARK: - Generating mailboxes

    /// A message with headers and a body holding lines an mbox writer must quote.
    static func randomMessage(_ index: Int, lineEnding: String, using generator: inout InputTestRandom) -> [UInt8] {
        let tricky = ["From the desk of the manager", ">From quoted once", ">>From quoted twice", "From: not a header here",
                      "From a@b.c Mon Jan  1 00:00:00 2024", "", "Fromage", ">", "F", "plain text line with From inside"]
        var lines = ["Return-Path: <bounce-\(index)@bank.example>", "From: Bank <alerts@bank.example>",
                     "Subject: Alert \(index)", "Message-ID: <\(index)@bank.example>", ""]
        for _ in 0..<Int(generator.next() % 60) {
            if generator.next() % 4 == 0 {
                lines.append(tricky[Int(generator.next() % UInt64(tricky.count))])
            } else {
                lines.append(String(repeating: "x", count: Int(generator.next() % 120)))
            }
        }
        // Every message ends with a line break: an mbox cannot tell whether one was missing.
        return Array((lines.joined(separator: lineEnding) + lineEnding).utf8)
    }

    /// The mbox an mboxrd writer makes: From_ line, message with `^>*From ` lines quoted, and an
    /// empty line after every message.
    static func mboxrd(_ messages: [[UInt8]], lineEnding: String) -> [UInt8] {
        var out: [UInt8] = []
        for (index, message) in messages.enumerated() {
            out += Array("From alerts@bank.example Mon Jan  1 00:00:\(String(format: "%02d", index % 60)) 2024\(lineEnding)".utf8)
            // Bytes, not String: Swift treats CRLF as one Character and would not split it on LF.
            var lineStart = 0
            while lineStart < message.count {
                let lineEnd = message[lineStart...].firstIndex(of: 0x0A).map { $0 + 1 } ?? message.count
                let line = message[lineStart..<lineEnd]
                if line.drop(while: { $0 == UInt8(ascii: ">") }).starts(with: "From ".utf8) { out.append(UInt8(ascii: ">")) }
                out += line
                lineStart = lineEnd
            }
            out += Array(lineEnding.utf8)
        }
        return out
    }
}

/// A small deterministic random number generator for generated inputs.
struct InputTestRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
