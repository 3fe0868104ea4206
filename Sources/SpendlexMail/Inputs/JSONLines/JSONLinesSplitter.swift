#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a JSON Lines input into its non-blank lines without decoding them: the caller decodes
/// each with `JSONLinesMessageReader.record(from:file:line:)`, so that the JSON rules live in one
/// place. Lines lose their LF and a trailing CR; a UTF-8 BOM before the first line is dropped.
/// Blank lines yield nothing but still count in the 1-based line numbers.
final class JSONLinesSplitter: InputItemSource {
    private let stream: InputByteStream
    private let file: String
    private let knownSize: Int?
    private var position = 0
    private var line = 0
    private var finished = false
    /// The longest line held whole; a longer one is skipped and reported.
    private let recordLimit: Int

    init(stream: InputByteStream, file: String, totalBytes: Int?, recordLimit: Int) {
        self.stream = stream
        self.file = file
        self.knownSize = totalBytes
        self.recordLimit = recordLimit
    }

    var bytesRead: Int { min(position, stream.endOffset) }
    var totalBytes: Int? { knownSize }

    func next() -> InputItem? {
        // Set when the line outgrew `recordLimit`: its bytes are dropped up to its end.
        var oversized = false
        while !finished {
            let held = stream.endOffset - position
            let lineEnd: Int
            if held > 0, let found = memchr(stream.base + (position - stream.bufferOffset), 0x0A, held) {
                lineEnd = stream.bufferOffset + (found.assumingMemoryBound(to: UInt8.self) - stream.base)
            } else if held > recordLimit || (oversized && held > 0) {
                oversized = true
                position = stream.endOffset
                continue
            } else if stream.fill(keepingFrom: position) {
                continue
            } else if held > 0 || oversized {
                lineEnd = stream.endOffset
            } else {
                finished = true
                if let error = stream.readError {
                    return .malformed(file: file, offset: line + 1, reason: "read error: \(error)")
                }
                return nil
            }
            var start = position
            var end = lineEnd
            line += 1
            position = lineEnd + 1
            if oversized || lineEnd - start > recordLimit {
                return .malformed(file: file, offset: line, reason: "line \(line) longer than \(InputByteStream.describe(size: recordLimit)): skipped")
            }
            if line == 1, end - start >= 3, stream[start] == 0xEF, stream[start + 1] == 0xBB, stream[start + 2] == 0xBF { start += 3 }
            if end > start, stream[end - 1] == InputShape.carriageReturn { end -= 1 }
            var blank = true
            var i = start
            while i < end, blank { blank = InputShape.isBlank(stream[i]); i += 1 }
            if blank { continue }
            return .jsonLine(bytes: stream.bytes(from: start, to: end), file: file, line: line)
        }
        return nil
    }
}
