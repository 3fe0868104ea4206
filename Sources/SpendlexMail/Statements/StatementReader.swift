import Foundation
import SpendlexEngine

/// Reads a statement file: its bytes decoded (UTF-8, UTF-16 with a byte-order mark, else
/// Windows-1252, as exporting banks write), its format detected from its content, and its
/// entries read by that format's reader.
public enum StatementReader {
    /// The largest statement read, in bytes: a year of a busy account is a few MB.
    public static let maxBytes = 512 << 20

    /// Reads the statement at `path`.
    public static func read(path: String, options: StatementOptions) throws(StatementError) -> Statement {
        let bytes: [UInt8]
        switch InputFile.readWhole(path, limit: maxBytes) {
        case .success(let read): bytes = read
        case .failure(let error): throw StatementError(path: path, reason: "\(error)")
        }
        return try read(bytes: bytes, path: path, isFile: true, options: options)
    }

    /// Reads the statement at `path`, handing its entries to `body` in order as they are read,
    /// and returns it without them (its format, balances, skipped lines). A CSV in UTF-8 is read
    /// row by row (`CSVStatementReader.stream`): a bank's export of years can be millions of rows,
    /// and nothing of it is held. Other statements are read whole first.
    public static func stream(path: String, options: StatementOptions,
                              entries body: (StatementEntry) -> Void) throws(StatementError) -> Statement {
        if let head = utf8TextHead(path) {
            let lines = StatementReader.lines(head).prefix(30).map(String.init)
            if StatementFormat.detect(head) == .csv
                || options.profiles.contains(where: { profile in lines.contains { CSVStatementReader.matches(profile, $0) } }) {
                return try CSVStatementReader.stream(path: path, head: lines, options: options, body: body)
            }
        }
        var statement = try read(path: path, options: options)
        statement.entries.forEach(body)
        statement.entries = []
        return statement
    }

    /// The first 64 KiB of a file that is UTF-8 text through and through (no NUL, no byte-order
    /// mark of UTF-16, valid UTF-8 to its end, checked a MiB at a time); nil for any other file
    /// (which `read` decodes whole), or one that cannot be opened.
    static func utf8TextHead(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var head: String?
        var carry: [UInt8] = []
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            // nil, or no bytes: the end of the file.
            guard let data = chunk, !data.isEmpty else { break }
            var bytes = carry + Array(data)
            if head == nil {
                guard !bytes.starts(with: [0xFF, 0xFE]), !bytes.starts(with: [0xFE, 0xFF]), !bytes.starts(with: Array("%PDF".utf8)),
                      !bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return nil }
            }
            // A character cut at the chunk's end waits for the next chunk.
            var cut = bytes.count
            var back = 0
            while cut > 0, back < 3, bytes[cut - 1] & 0xC0 == 0x80 {
                cut -= 1
                back += 1
            }
            if cut > 0, bytes[cut - 1] >= 0xC0 { cut -= 1 } else { cut = bytes.count }
            carry = Array(bytes[cut...])
            bytes.removeSubrange(cut...)
            guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return nil }
            if head == nil { head = String(text.prefix(64 << 10)) }
        }
        // The file's last character, held back at the last chunk's end.
        if !carry.isEmpty {
            guard !carry.contains(0), let text = String(validating: carry, as: UTF8.self) else { return nil }
            if head == nil { head = text }
        }
        guard let head else { return nil }
        return head.hasPrefix("\u{FEFF}") ? String(head.dropFirst()) : head
    }

    /// Reads a statement's bytes; `path` names it in ids and messages (`isFile`: the bytes are
    /// that file's, and a workbook is read from it in place).
    public static func read(bytes: [UInt8], path: String, isFile: Bool = false,
                            options: StatementOptions) throws(StatementError) -> Statement {
        if bytes.starts(with: Array("%PDF".utf8)) {
            return try PDFStatementReader.read(bytes: bytes, path: path, isFile: isFile, options: options)
        }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return try XLSXStatementReader.read(bytes: bytes, path: path, isFile: isFile, options: options)
        }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0]) {
            throw StatementError(path: path, reason: "an old Excel workbook (.xls) or an encrypted one: save it as .xlsx or CSV")
        }
        guard let text = decode(bytes) else {
            throw StatementError(path: path, reason: "not text: neither UTF-8, UTF-16 nor Windows-1252")
        }
        guard !text.allSatisfy(\.isWhitespace) else { throw StatementError(path: path, reason: "the file is empty") }
        // A CSV whose header only a profile names (its columns are no plain words) is a CSV too.
        let head = StatementReader.lines(String(text.prefix(64 << 10))).prefix(30).map(String.init)
        guard let format = StatementFormat.detect(text)
            ?? (options.profiles.contains { profile in head.contains { CSVStatementReader.matches(profile, $0) } } ? .csv : nil) else {
            throw StatementError(path: path, reason: "not a statement format Spendlex reads (OFX/QFX, QIF, MT940, CAMT.053, or CSV with a header row naming a date and an amount or debit and credit columns)")
        }
        switch format {
        case .ofx: return try OFXStatementReader.read(text, path: path, options: options)
        case .qif: return try QIFStatementReader.read(text, path: path, options: options)
        case .mt940: return try MT940StatementReader.read(text, path: path, options: options)
        case .camt053: return try CAMT053StatementReader.read(text, path: path, options: options)
        case .csv: return try CSVStatementReader.read(text, path: path, options: options)
        case .xlsx, .pdf: throw StatementError(path: path, reason: "not a statement format Spendlex reads")
        }
    }

    /// Reads a PDF statement's text as `pdftotext -layout` lays it out (pages apart by form feeds):
    /// for text extracted some other way, and for tests and fuzzing without pdftotext.
    public static func read(pdfLayout text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        try PDFStatementReader.read(layout: text, path: path, options: options)
    }

    /// The text of a statement's bytes: UTF-8 (a byte-order mark dropped), UTF-16 with its
    /// byte-order mark, or else Windows-1252 (which gives every byte a character); nil for
    /// bytes that hold NUL outside UTF-16 (a binary file).
    static func decode(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return String(data: Data(bytes), encoding: .utf16)
        }
        if bytes.contains(0) { return nil }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return text }
        return String(data: Data(body), encoding: .windowsCP1252)
    }

    /// Lines of a text, `\r\n`, `\r` and `\n` ended, without their ends.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }

    /// The stable id of an entry: the format's own transaction id where there is one (unique
    /// within the account), else the file and line. Card numbers masked.
    static func entryID(format: StatementFormat, account: String?, ownID: String?, path: String, line: Int) -> String {
        if let ownID, !ownID.isEmpty {
            return CardNumberMasker.mask("\(format.rawValue):\(account ?? "-"):\(ownID)")
        }
        return CardNumberMasker.mask("\(format.rawValue):\(path):\(line)")
    }
}
