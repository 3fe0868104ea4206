import Foundation
import Testing
@testable import SpendlexMail
import SpendlexTestSupport

/// Fixtures, temporary files and item helpers for the input reader tests.
enum InputTestSupport {
    /// The path of a file under `Inputs/InputFixtures` (not `Fixtures`: the MIME tests copy a
    /// `MIME/Fixtures` folder into the same bundle, and resource folders must differ by name).
    static func fixture(_ name: String) -> String {
        let folder = Bundle.module.url(forResource: "InputFixtures", withExtension: nil)!
        return folder.appendingPathComponent(name).path
    }

    static func fixtureBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: fixture(name))))
    }

    /// A new empty directory in the test process's scratch folder (`TestScratch.root`).
    static func temporaryDirectory() throws -> String {
        let url = TestScratch.root.appendingPathComponent("spendlex-inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Writes `bytes` to `name` inside `directory` (creating sub-directories) and returns its path.
    @discardableResult
    static func write(_ bytes: [UInt8], _ name: String, in directory: String) throws -> String {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    @discardableResult
    static func write(_ text: String, _ name: String, in directory: String) throws -> String {
        try write(Array(text.utf8), name, in: directory)
    }

    /// Writes `bytes` to a new temporary file called `name`.
    static func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
        try write(bytes, name, in: temporaryDirectory())
    }

    /// Every item of `path`.
    static func items(_ path: String, format: InputFormat? = nil, chunkSize: Int? = nil) throws -> [InputItem] {
        let reader = try chunkSize.map { try InputReader(path: path, format: format, chunkSize: $0) }
            ?? InputReader(path: path, format: format)
        return Array(reader)
    }

    static func emails(_ items: [InputItem]) -> [RawEmail] {
        items.compactMap { if case .email(let email) = $0 { email } else { nil } }
    }

    static func texts(_ items: [InputItem]) -> [TextRecord] {
        items.compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    static func string(_ email: RawEmail) -> String { String(decoding: email.bytes, as: UTF8.self) }

    /// A short name for an item's kind, for comparing sequences of items.
    static func kind(_ item: InputItem) -> String {
        switch item {
        case .email: "email"
        case .text: "text"
        case .jsonLine: "jsonLine"
        case .skipped: "skipped"
        case .malformed: "malformed"
        }
    }

    static func reason(_ item: InputItem) -> String? {
        switch item {
        case .skipped(_, _, let reason), .malformed(_, _, let reason): reason
        default: nil
        }
    }

    /// Offset of the first occurrence of `needle` in `haystack` at or after `from`.
    static func offset(of needle: String, in haystack: [UInt8], from: Int = 0) -> Int? {
        let pattern = Array(needle.utf8)
        guard pattern.count <= haystack.count else { return nil }
        var i = from
        while i + pattern.count <= haystack.count {
            if haystack[i] == pattern[0], Array(haystack[i..<(i + pattern.count)]) == pattern { return i }
            i += 1
        }
        return nil
    }

    /// Replaces every LF by CRLF.
    static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 20)
        for byte in bytes {
            if byte == 0x0A { out.append(0x0D) }
            out.append(byte)
        }
        return out
    }

    /// A pipe whose write end is fed `bytes` from another thread, then closed; returns the
    /// read end (keep the `Pipe` alive while reading).
    static func pipe(feeding bytes: [UInt8]) -> Pipe {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let data = Data(bytes)
        Thread.detachNewThread {
            writer.write(data)
            try? writer.close()
        }
        return pipe
    }
}
