#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a Maildir or a folder of .eml files: one file, one message, each read whole.
///
/// A file yields `.email`, or `.malformed` when it is empty, binary, unreadable, or (eml folders
/// only; a Maildir holds messages by definition) does not start with a header line. A directory
/// that cannot be listed yields one `.malformed` too, so that nothing is lost silently.
final class MessageFileSource: InputItemSource {
    private let root: String
    private let layout: MessageFileWalker.Layout
    private var walker: MessageFileWalker
    private var consumed = 0
    private var measuredSize: Int?

    init(root: String, layout: MessageFileWalker.Layout) {
        self.root = root
        self.layout = layout
        self.walker = MessageFileWalker(root: root, layout: layout)
    }

    var bytesRead: Int { consumed }

    /// The sum of the message files' sizes, found by a separate walk the first time it is asked.
    var totalBytes: Int? {
        if let measuredSize { return measuredSize }
        var sizer = MessageFileWalker(root: root, layout: layout)
        var total = 0
        while let step = sizer.next() {
            guard case .file(let path, _) = step else { continue }
            var info = stat()
            if stat(path, &info) == 0 { total += Int(info.st_size) }
        }
        measuredSize = total
        return total
    }

    func next() -> InputItem? {
        guard let step = walker.next() else { return nil }
        switch step {
        case .unreadableDirectory(let path, let reason):
            return .malformed(file: path, offset: 0, reason: "unreadable directory: \(reason)")
        case .file(let path, let flags):
            switch InputFile.readWhole(path) {
            case .failure(let error):
                guard case .unreadable(_, let reason) = error else { return .malformed(file: path, offset: 0, reason: "\(error)") }
                return .malformed(file: path, offset: 0, reason: "unreadable: \(reason)")
            case .success(let bytes):
                consumed += bytes.count
                return Self.item(bytes, file: path, flags: flags, requireHeader: layout == .emlFolder)
            }
        }
    }

    /// Turns one message file's bytes into an item: `.email` without a leading mbox From_ line
    /// (some tools save one), or `.malformed` with the reason it is not an email.
    static func item(_ bytes: [UInt8], file: String, flags: String?, requireHeader: Bool) -> InputItem {
        bytes.withUnsafeBufferPointer { buffer -> InputItem in
            var start = 0
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
            while start < buffer.count, InputShape.isBlank(buffer[start]) { start += 1 }
            if start == buffer.count {
                return .malformed(file: file, offset: 0, reason: buffer.isEmpty ? "empty file" : "empty message (only blank lines)")
            }
            if let binary = InputShape.binaryReason(buffer) {
                return .malformed(file: file, offset: 0, reason: "not an email: \(binary)")
            }
            let rest = buffer.count - start
            let lineLength = memchrLength(buffer.baseAddress! + start, rest)
            if InputShape.startsWithFromSpace(buffer.baseAddress! + start, lineLength) {
                let body = min(start + lineLength + 1, buffer.count)
                return .email(RawEmail(bytes: Array(buffer[body...]), file: file, offset: 0, flags: flags))
            }
            if requireHeader, !InputShape.isHeaderLine(buffer.baseAddress! + start, lineLength) {
                return .malformed(file: file, offset: 0, reason: "not an email: no header line at the start")
            }
            return .email(RawEmail(bytes: bytes, file: file, offset: 0, flags: flags))
        }
    }

    /// Length of the line at `start` (up to its LF, or `length`).
    private static func memchrLength(_ start: UnsafePointer<UInt8>, _ length: Int) -> Int {
        guard let newline = memchr(start, 0x0A, length) else { return length }
        return UnsafePointer(newline.assumingMemoryBound(to: UInt8.self)) - start
    }
}

/// Reads one message file or standard input holding one message.
final class SingleMessageSource: InputItemSource {
    private let stream: InputByteStream
    private let file: String
    private let knownSize: Int?
    private var done = false

    init(stream: InputByteStream, file: String, totalBytes: Int?) {
        self.stream = stream
        self.file = file
        self.knownSize = totalBytes
    }

    var bytesRead: Int { done ? stream.endOffset : 0 }
    var totalBytes: Int? { knownSize }

    func next() -> InputItem? {
        guard !done else { return nil }
        done = true
        while stream.fill(keepingFrom: 0) {}
        if let error = stream.readError { return .malformed(file: file, offset: 0, reason: "read error: \(error)") }
        return MessageFileSource.item(stream.bytes(from: 0, to: stream.endOffset), file: file, flags: nil, requireHeader: true)
    }
}
