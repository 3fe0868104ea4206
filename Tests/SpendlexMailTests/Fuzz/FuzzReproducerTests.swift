import Foundation
import Testing
@testable import SpendlexMail

/// Inputs found by the libFuzzer targets (`scripts/fuzz.sh`, `Tests/Fuzz/README.md`), each kept
/// as the failing case of the bug it found.
@Suite("Fuzz reproducers: mail")
struct FuzzReproducerTests {
    typealias Support = InputTestSupport

    /// mbox-ranges: the file's first `From ` line starts a message whatever its shape, but a
    /// range after the first one found separators by the local rule only, so when blank lines
    /// pushed that line past the first range, no range read its message.
    @Test(arguments: [1, 2, 3, 7])
    func firstFromLineWithoutTheShapeAfterTheFirstRange(rangeSize: Int) throws {
        let text = "\u{FEFF}\n\nFrom a@b.c Mon Jan  1 0he quot\nSubject: x\n\nbody\n"
            + "From b@c.d Mon Jan  1 00:00:01 2024\nSubject: y\n\nmore\n"
        let path = try Support.temporaryFile(Array(text.utf8), name: "first-from-line.mbox")
        let sequential = MboxRangeTests.summary(try Support.items(path, format: .mbox))
        #expect(sequential.count == 2)
        let ranged = MboxRangeTests.summary(try MboxRangeTests.ranged(path, size: text.utf8.count, rangeSize: rangeSize))
        #expect(ranged == sequential)
    }

    /// The same with a first From_ line of the right shape that neither follows an empty line
    /// nor comes before a header line (a blank line follows it).
    @Test(arguments: [1, 2, 4])
    func firstFromLineBeforeABlankLineAfterTheFirstRange(rangeSize: Int) throws {
        let text = "\u{FEFF}\nFrom a@b.c Mon Jan  1 00:00:00 2024\n\nbody\n"
        let path = try Support.temporaryFile(Array(text.utf8), name: "first-from-line-blank.mbox")
        let sequential = MboxRangeTests.summary(try Support.items(path, format: .mbox))
        #expect(sequential.count == 1)
        let ranged = MboxRangeTests.summary(try MboxRangeTests.ranged(path, size: text.utf8.count, rangeSize: rangeSize))
        #expect(ranged == sequential)
    }

    /// mbox-ranges: a From line at offset 1 or 2 (after a CR or a blank) was skipped by a range
    /// starting there, as if its first bytes were a BOM's, and the file's only message was lost.
    @Test(arguments: [1, 2, 3])
    func firstFromLineAtOffsetOneAfterACarriageReturn(rangeSize: Int) throws {
        var bytes = Array("\rFrom a@b.c MSubject:  mbo00".utf8) + [0xBA] + Array("00:0@t\n\nodq\n".utf8)
        bytes += [UInt8](repeating: 0, count: 58)
        let path = try Support.temporaryFile(bytes, name: "first-from-line-after-cr.mbox")
        let sequential = MboxRangeTests.summary(try Support.items(path, format: .mbox))
        #expect(sequential.count == 1)
        let ranged = MboxRangeTests.summary(try MboxRangeTests.ranged(path, size: bytes.count, rangeSize: rangeSize))
        #expect(ranged == sequential)
    }
}

@Suite("Fuzz reproducers: MIME")
struct MIMEFuzzReproducerTests {
    /// mime: a numeric zone with more digits than an `Int` holds overflowed (a trap) before it
    /// was found to be too long; it is no zone, so no date.
    @Test func dateWithAVeryLongNumericZone() throws {
        let message = "Date: Mon, 05 Jan 2026 23:10:00 +" + String(repeating: "2", count: 40) + "\n\nbody\n"
        let headers = try MIMEDecoder.headers(of: Array(message.utf8))
        #expect(headers.date == nil)
    }

    /// message-body: an RFC 2231 section number ("boundary*1111…=b") with more digits than an
    /// `Int` holds overflowed (a trap); it is no continuation, so the parameter is skipped.
    @Test func parameterSectionNumberTooLongForAnInt() throws {
        let message = "From: alerts@hdfcbank.net\r\nContent-Type: multipart/alternative; boundary*"
            + String(repeating: "1", count: 40) + "=b\r\n\r\n--b--\r\n"
        let bytes = Array(message.utf8)
        let headers = try MIMEDecoder.headers(of: bytes)
        _ = MIMEDecoder.body(of: bytes, headers: headers)
        let typed = "Content-Type: text/plain; charset*" + String(repeating: "9", count: 25) + "*=utf-8''x; name*0=a; name*1=b\r\n\r\nhi\r\n"
        let plain = try MIMEDecoder.headers(of: Array(typed.utf8))
        #expect(MIMEDecoder.body(of: Array(typed.utf8), headers: plain).text.contains("hi"))
    }
}
