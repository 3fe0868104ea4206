import Foundation
import Testing
@testable import SpendlexMail

@Suite("Maildir and .eml readers")
struct MessageFileReaderTests {
    typealias Support = InputTestSupport

    static let message = "Return-Path: <alerts@hdfcbank.net>\nFrom: HDFC Bank <alerts@hdfcbank.net>\nSubject: Alert\n\nRs.100 debited.\n"

    /// A Maildir as mbsync or offlineimap leave it, with a Maildir++ sub-folder.
    static func makeMaildir() throws -> String {
        let root = try Support.temporaryDirectory()
        try Support.write("\(message)1", "cur/1700000000.M1P2.host,S=123:2,RS", in: root)
        try Support.write("\(message)2", "cur/1700000001.M2P2.host:2,", in: root)
        try Support.write("\(message)3", "new/1700000002.M3P2.host", in: root)
        try Support.write("being delivered", "tmp/1700000009.M9P2.host", in: root)
        try Support.write("not a message", "cur/.DS_Store", in: root)
        try Support.write("3 V1700000000 N4\n", "dovecot-uidlist", in: root)
        try Support.write("\(message)4", ".Sent/cur/1700000003.M4P2.host!2,S", in: root)
        try Support.write("\(message)5", ".Sent/new/1700000004.M5P2.host:2,FS", in: root)
        try FileManager.default.createDirectory(atPath: root + "/.Sent/tmp", withIntermediateDirectories: true)
        return root
    }

    @Test func maildirReadsCurThenNewThenSubFoldersWithFlags() throws {
        let root = try Self.makeMaildir()
        #expect(try InputDetector.detect(path: root) == .maildir)
        let reader = try InputReader(path: root)
        #expect(reader.format == .maildir)
        let items = Array(reader)
        let emails = Support.emails(items)
        #expect(items.count == 5)
        #expect(emails.map { String($0.file.dropFirst(root.count)) } == [
            "/cur/1700000000.M1P2.host,S=123:2,RS", "/cur/1700000001.M2P2.host:2,", "/new/1700000002.M3P2.host",
            "/.Sent/cur/1700000003.M4P2.host!2,S", "/.Sent/new/1700000004.M5P2.host:2,FS",
        ])
        #expect(emails.map(\.flags) == ["RS", "", nil, "S", "FS"])
        #expect(emails.map { Support.string($0).last } == ["1", "2", "3", "4", "5"])
        #expect(emails.allSatisfy { $0.offset == 0 })
        let expectedSize = 5 * Self.message.utf8.count + 5
        #expect(reader.totalBytes == expectedSize)
        #expect(reader.bytesRead == expectedSize)
    }

    @Test func mbsyncAccountRootWithFoldersIsAMaildir() throws {
        let root = try Support.temporaryDirectory()
        try Support.write(Self.message, "INBOX/cur/1700000000.M1P2.host:2,S", in: root)
        try Support.write(Self.message, "Archive/2024/new/1700000001.M1P2.host", in: root)
        #expect(try InputDetector.detect(path: root) == .maildir)
        let emails = Support.emails(try Support.items(root))
        #expect(emails.map { String($0.file.dropFirst(root.count)) } == ["/Archive/2024/new/1700000001.M1P2.host", "/INBOX/cur/1700000000.M1P2.host:2,S"])
        #expect(emails.map(\.flags) == [nil, "S"])
    }

    @Test func maildirEmptyAndBinaryFilesAreMalformed() throws {
        let root = try Support.temporaryDirectory()
        try Support.write(Self.message, "cur/1:2,S", in: root)
        try Support.write([], "cur/2:2,S", in: root)
        try Support.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D], "cur/3:2,S", in: root)
        let items = try Support.items(root)
        #expect(items.map(Support.kind) == ["email", "malformed", "malformed"])
        #expect(Support.reason(items[1]) == "empty file")
        #expect(Support.reason(items[2]) == "not an email: binary data (NUL bytes)")
    }

    @Test func singleEmlIsOneEmailWithItsBytesUntouched() throws {
        let path = Support.fixture("alert.eml")
        let reader = try InputReader(path: path)
        #expect(reader.format == .eml)
        let items = Array(reader)
        #expect(items.count == 1)
        let email = try #require(Support.emails(items).first)
        #expect(email.bytes == (try Support.fixtureBytes("alert.eml")))
        #expect(email.file == path && email.offset == 0 && email.flags == nil)
        #expect(reader.bytesRead == email.bytes.count)
    }

    @Test func emlWithAnEnvelopeFromLineLosesIt() throws {
        let path = try Support.temporaryFile(Array("From a@b.c Mon Jan  1 00:00:00 2024\n\(Self.message)".utf8), name: "x.eml")
        let items = try Support.items(path, format: .eml)
        #expect(Support.emails(items).map(Support.string) == [Self.message])
    }

    @Test func emlFolderReadsEveryFileRecursivelyInSortedOrder() throws {
        let root = Support.fixture("eml-folder")
        #expect(try InputDetector.detect(path: root) == .emlFolder)
        let items = try Support.items(root)
        #expect(items.map { String($0.file.dropFirst(root.count)) } == ["/01-hdfc.eml", "/02-chase.eml", "/README.txt", "/2024/03-amex.msg"])
        #expect(items.map(Support.kind) == ["email", "email", "malformed", "email"])
        #expect(Support.reason(items[2]) == "not an email: no header line at the start")
    }

    @Test func emlFolderReportsBinaryAndEmptyFiles() throws {
        let root = try Support.temporaryDirectory()
        try Support.write(Self.message, "a.eml", in: root)
        try Support.write([0x1F, 0x8B, 0x08, 0x00, 0x00], "b.eml.gz", in: root)
        try Support.write([], "c.eml", in: root)
        try Support.write("\n\n  \n", "d.eml", in: root)
        try Support.write("hidden", ".e.eml", in: root)
        let items = try Support.items(root)
        #expect(items.map(Support.kind) == ["email", "malformed", "malformed", "malformed"])
        #expect(items.compactMap(Support.reason) == [
            "not an email: binary data (gzip-compressed; decompress it first)", "empty file", "empty message (only blank lines)",
        ])
    }
}
