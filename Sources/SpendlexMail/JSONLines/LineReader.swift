import Foundation

/// Reads a file or stdin line by line in 1 MiB chunks: memory stays bounded by the
/// longest line, whatever the file's size.
public final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// 1-based number of the last line returned.
    public private(set) var lineNumber = 0
    /// Byte offset of the start of the last line returned.
    public private(set) var lineOffset = 0
    private var consumed = 0

    /// Reads from an open handle.
    public init(handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its `\n` (and `\r`), or nil at the end.
    public func nextLine() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                lineOffset = consumed + start
                lineNumber += 1
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                lineOffset = consumed + start
                lineNumber += 1
                start = buffer.count
                return line
            }
            // Keep the partial line, drop what was returned, read more.
            consumed += start
            buffer.removeSubrange(0..<start)
            start = 0
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer += chunk }
        }
    }
}
