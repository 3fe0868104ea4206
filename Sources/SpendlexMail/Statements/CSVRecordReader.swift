import Foundation

/// A UTF-8 CSV file's records, read a MiB at a time: fields apart at the delimiter, quoted
/// fields (a delimiter, a doubled quote or a line break inside quotes), records ended by `\n` or
/// `\r\n`. Holds one chunk and one record.
///
/// Written here rather than read through CSV.swift's stream reader, which the whole-file path
/// uses: that reader (2.5.2) reports a read error at the end of every file longer than its
/// 64 KiB buffer on Linux (Foundation's `InputStream` says bytes are available until a read
/// returns none), and large files are what reading a record at a time is for. Splitting bytes
/// also costs a tenth of splitting characters: a million rows (50 MB) split in about 0.3 s.
final class CSVRecordReader {
    private let handle: FileHandle
    private let delimiter: UInt8
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var index = 0
    /// Why reading stopped early, if it did.
    private(set) var error: String?

    /// Opens `path`; nil when it cannot be opened or the delimiter is not one ASCII byte.
    init?(path: String, delimiter: Character) {
        guard let ascii = delimiter.asciiValue, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        self.delimiter = ascii
    }

    deinit { try? handle.close() }

    /// The next record's fields (untrimmed); nil at the end of the file or after a read error.
    func next() -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var sawAny = false
        while true {
            if position >= buffer.count {
                guard refill() else {
                    // The file ends: the last record, unless there is nothing left.
                    guard sawAny else { return nil }
                    fields.append(String(decoding: field, as: UTF8.self))
                    return finish(fields)
                }
            }
            let byte = buffer[position]
            position += 1
            sawAny = true
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if position >= buffer.count { _ = refill() }
                    if position < buffer.count, buffer[position] == UInt8(ascii: "\"") {
                        field.append(byte)
                        position += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                quoted = true
            case delimiter:
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\n"):
                if field.last == UInt8(ascii: "\r") { field.removeLast() }
                fields.append(String(decoding: field, as: UTF8.self))
                return finish(fields)
            default:
                field.append(byte)
            }
        }
    }

    /// A record's fields, the first record's byte-order mark dropped.
    private func finish(_ fields: [String]) -> [String] {
        defer { index += 1 }
        guard index == 0, let first = fields.first, first.hasPrefix("\u{FEFF}") else { return fields }
        var fields = fields
        fields[0] = String(first.dropFirst())
        return fields
    }

    /// Reads the next chunk; false at the end of the file or on a read error.
    private func refill() -> Bool {
        guard !atEnd else { return false }
        let chunk: Data?
        do { chunk = try handle.read(upToCount: 1 << 20) } catch {
            self.error = "\(error)"
            atEnd = true
            return false
        }
        guard let chunk, !chunk.isEmpty else {
            atEnd = true
            return false
        }
        buffer = Array(chunk)
        position = 0
        return true
    }
}
