import Foundation
import Testing
@testable import SpendlexMail
#if canImport(Glibc)
import Glibc
#endif

@Suite("Standard input and pipes")
struct StdinInputTests {
    typealias Support = InputTestSupport

    /// Each format read through a pipe gives the same items as the file, sniffed from the pipe.
    @Test(arguments: [
        ("mboxrd.mbox", InputFormat.mbox),
        ("takeout.mbox", .mbox),
        ("sms-backup.xml", .smsBackupXML),
        ("messages.jsonl", .jsonLines),
        ("alert.eml", .eml),
    ])
    func pipeIsSniffedAndNothingIsLost(fixture: String, expected: InputFormat) throws {
        let bytes = try Support.fixtureBytes(fixture)
        let pipe = Support.pipe(feeding: bytes)
        let reader = try InputReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin")
        #expect(reader.format == expected)
        #expect(reader.totalBytes == nil)
        let piped = Array(reader)
        let fromFile = try Support.items(Support.fixture(fixture))
        #expect(piped.map(Support.kind) == fromFile.map(Support.kind))
        #expect(Support.emails(piped).map(\.bytes) == Support.emails(fromFile).map(\.bytes))
        #expect(Support.texts(piped).map(\.text) == Support.texts(fromFile).map(\.text))
        #expect(piped.map(\.offset) == fromFile.map(\.offset))
        #expect(piped.allSatisfy { $0.file == "stdin" })
        #expect(reader.bytesRead == bytes.count)
    }

    /// A mailbox much larger than the sniffed prefix keeps every byte after the sniff.
    @Test func largePipeKeepsTheSniffedPrefix() throws {
        var generator = InputTestRandom(seed: 11)
        let messages = (0..<400).map { MboxReaderTests.randomMessage($0, lineEnding: "\n", using: &generator) }
        let mbox = MboxReaderTests.mboxrd(messages, lineEnding: "\n")
        #expect(mbox.count > 4 * InputDetector.prefixLength)
        let pipe = Support.pipe(feeding: mbox)
        let reader = try InputReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin")
        #expect(Support.emails(Array(reader)).map(\.bytes) == messages)
    }

    @Test func emptyPipeIsAnError() throws {
        let pipe = Support.pipe(feeding: [])
        #expect(throws: InputError.unknownFormat(path: "stdin", reason: "empty file")) {
            try InputReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin")
        }
    }

    @Test func binaryPipeIsAnError() throws {
        let pipe = Support.pipe(feeding: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00])
        #expect(throws: InputError.unknownFormat(path: "stdin", reason: "binary data: a zip archive; extract it first")) {
            try InputReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin")
        }
    }

    /// `-` reads the process's standard input: a pipe is put on descriptor 0 for the test.
    @Test func dashReadsStandardInput() throws {
        let bytes = try Support.fixtureBytes("sms-backup.xml")
        let pipe = Support.pipe(feeding: bytes)
        let saved = dup(STDIN_FILENO)
        #expect(saved >= 0)
        #expect(dup2(pipe.fileHandleForReading.fileDescriptor, STDIN_FILENO) == STDIN_FILENO)
        defer {
            dup2(saved, STDIN_FILENO)
            close(saved)
        }
        let reader = try InputReader(path: "-")
        #expect(reader.format == .smsBackupXML)
        #expect(Array(reader).map(Support.kind) == SMSBackupReaderTests.expectedKinds)
    }
}
