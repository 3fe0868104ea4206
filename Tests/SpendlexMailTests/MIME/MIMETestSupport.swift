import Foundation
import Testing
@testable import SpendlexMail
import SpendlexTestSupport

/// Shared plumbing of the MIME tests: fixtures, temporary directories, running the
/// Python oracle, splitting an mbox.
enum MIMETestSupport {
    /// A failure of the test plumbing itself (not of the code under test).
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The bundled `Fixtures` directory (declared as a resource of the test target).
    static func fixture(_ name: String) throws -> URL {
        guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw Failure(description: "the Fixtures resource directory is missing from the test bundle")
        }
        return directory.appendingPathComponent(name)
    }

    /// A new empty directory in the test process's scratch folder (`TestScratch.root`).
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = TestScratch.root
            .appendingPathComponent("spendlex-mime-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `python3 arguments…` and returns its standard output; throws on a non-zero exit.
    static func python(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        let errorFile = TestScratch.root
            .appendingPathComponent("spendlex-mime-python-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer {
            try? errorHandle.close()
            try? FileManager.default.removeItem(at: errorFile)
        }
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw Failure(description: "python3 \(arguments.joined(separator: " ")) exited with "
                + "\(process.terminationStatus): \(message)")
        }
        return data
    }

    /// `shared/bench/gen_mbox.py`, which defines the reference corpus: beside the
    /// repository (CI clones main with shared/ next to it), or at /work/shared, or where
    /// SPENDLEX_GEN_MBOX says.
    static func referenceCorpusGenerator() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["SPENDLEX_GEN_MBOX"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        // This file is <repo>/Tests/SpendlexMailTests/MIME/MIMETestSupport.swift.
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(repository.deletingLastPathComponent().appendingPathComponent("shared/bench/gen_mbox.py"))
        candidates.append(URL(fileURLWithPath: "/work/shared/bench/gen_mbox.py"))
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw Failure(description: "gen_mbox.py not found; looked at "
                + candidates.map(\.path).joined(separator: ", "))
        }
        return found
    }

    /// Splits an mbox: a line starting with `From ` starts a message and is dropped;
    /// `>From `, `>>From `, … lose one `>` (mboxrd, which also undoes mboxo).
    static func mboxMessages(_ mbox: [UInt8]) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var current: [UInt8] = []
        var started = false
        var i = 0
        let from = Array("From ".utf8)
        while i < mbox.count {
            let end = mbox[i...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? mbox.count
            let line = mbox[i..<end]
            if line.starts(with: from) {
                if started { messages.append(current) }
                current = []
                started = true
            } else if started {
                let quotes = line.prefix { $0 == UInt8(ascii: ">") }.count
                if quotes > 0, line.dropFirst(quotes).starts(with: from) {
                    current += line.dropFirst()
                } else {
                    current += line
                }
            }
            i = end
        }
        if started { messages.append(current) }
        return messages
    }

    /// Whitespace runs collapsed to one space, the ends trimmed.
    static func normalized(_ text: String?) -> String? {
        text.map { $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
    }

    /// The characters of HTML text without whitespace and the table separator "|": what
    /// the oracle's `html_chars` holds.
    static func htmlCharacters(_ text: String?) -> String? {
        text.map { text in
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: text.unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "|" })
            return String(scalars)
        }
    }

    /// Bytes from a string written with `\n`, with the line ends turned into CRLF.
    static func crlf(_ text: String) -> [UInt8] {
        Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }
}

/// One line of `mime_oracle.py`'s output.
struct MIMEOracleRecord: Decodable, Sendable {
    var name: String
    var subject: String?
    var from: String?
    var message_id: String?
    var date: Int?
    var plain: String?
    var html_chars: String?
    var error: String?

    static func decodeLines(_ data: Data) throws -> [MIMEOracleRecord] {
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Self.self, from: Data($0)) }
    }
}

/// What our decoder says about one message, in the oracle's terms.
struct MIMEDecoded: Sendable {
    var subject: String?
    var from: String?
    var messageID: String?
    var date: Int?
    var plain: String?
    var html: String?
    var problems: [String]

    init(_ message: [UInt8]) throws {
        let headers = try MIMEDecoder.headers(of: message)
        subject = headers.subject
        from = headers.fromAddress
        messageID = headers.messageID
        date = headers.date.map { Int($0.timeIntervalSince1970) }
        let body = MIMEDecoder.body(of: message, headers: headers)
        plain = body.plain
        html = body.html
        problems = body.problems
    }
}
