import Foundation
import SpendlexEngine
import Testing
@testable import SpendlexMail

/// An mbox split into byte ranges, each read on its own (as workers do for a large mailbox),
/// gives exactly the items of one sequential read: each range owns the messages whose From_ line
/// starts in it, and consecutive ranges hand over at the same separator.
@Suite("Mbox byte ranges")
struct MboxRangeTests {
    typealias Support = InputTestSupport

    /// Kind, offset, bytes and reason of each item: what must not change.
    static func summary(_ items: [InputItem]) -> [String] {
        items.map { item in
            var line = "\(Support.kind(item)) @\(item.offset)"
            if case .email(let email) = item { line += " \(email.bytes.count) \(StableHash.hex(email.bytes))" }
            if let reason = Support.reason(item) { line += " \(reason)" }
            return line
        }
    }

    static func ranged(_ path: String, size: Int, rangeSize: Int) throws -> [InputItem] {
        var items: [InputItem] = []
        for start in stride(from: 0, to: size, by: rangeSize) {
            items += Array(try InputReader(mboxPath: path, owning: start..<min(start + rangeSize, size)))
        }
        return items
    }

    static let tricky = "\u{FEFF}\n"
        + "From a@b.c Mon Jan  1 00:00:00 2024\nFrom: a@b.c\nSubject: one\n\nbody line\n>From the quoted\n\n"
        + "From b@c.d Mon Jan  1 00:00:01 2024\r\nFrom: b@c.d\r\n\r\nFrom the desk of nobody (not a separator)\r\n\r\n"
        + "From c@d.e Mon Jan  1 00:00:02 2024\nSubject: takeout, no blank line before the next\n\nx\n"
        + "From d@e.f Mon Jan  1 00:00:03 2024\nSubject: four\n\n" + String(repeating: "a long body line\n", count: 300) + "\n"
        + "From e@f.g Mon Jan  1 00:00:04 2024\n\n\n\n"
        + "From f@g.h Mon Jan  1 00:00:05 2024\nSubject: last\n\nend"

    @Test(arguments: [7, 64, 100, 333, 1000, 4096, 1 << 20])
    func rangesReadLikeOneSequentialPass(rangeSize: Int) throws {
        var files = ["mboxo.mbox", "mboxrd.mbox", "takeout.mbox"].map(Support.fixture)
        files.append(try Support.temporaryFile(Array(Self.tricky.utf8), name: "tricky.mbox"))
        for path in files {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let sequential = Self.summary(try Support.items(path, format: .mbox))
            let ranged = Self.summary(try Self.ranged(path, size: size, rangeSize: rangeSize))
            #expect(ranged == sequential, "\(path) in ranges of \(rangeSize) bytes")
        }
    }

    /// Blank lines longer than the first range before the first From_ line: the message belongs
    /// to the range it starts in, and is read once.
    @Test func leadingBlankLinesLongerThanARange() throws {
        let text = String(repeating: "\n", count: 50) + "From a@b.c Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody\n"
        let path = try Support.temporaryFile(Array(text.utf8), name: "blank-start.mbox")
        let sequential = Self.summary(try Support.items(path, format: .mbox))
        #expect(sequential.count == 1)
        #expect(Self.summary(try Self.ranged(path, size: text.utf8.count, rangeSize: 16)) == sequential)
    }

    /// Text before the first From_ line is reported once, by the first range only.
    @Test func preambleBelongsToTheFirstRange() throws {
        let text = "not an mbox line\nstill not\nFrom a@b.c Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody\n"
        let path = try Support.temporaryFile(Array(text.utf8), name: "preamble.mbox")
        let items = try Self.ranged(path, size: text.utf8.count, rangeSize: 20)
        #expect(items.map(Support.kind) == ["malformed", "email"])
    }
}
