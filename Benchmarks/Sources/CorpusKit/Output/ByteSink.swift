#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a generator writes: a file through a 1 MiB buffer, or memory.
///
/// Generators stream: a message is rendered, written and forgotten, so a gigabyte corpus
/// needs a few megabytes of memory (the largest message is built in pieces, see
/// `AttachmentWriter`).
public final class ByteSink {
    private var buffer: [UInt8] = []
    private let descriptor: Int32?
    private let path: String
    private let bufferLimit = 1 << 20
    /// The first write error, reported by the next `flush()`.
    private var failure: CorpusError?
    /// Bytes written so far (flushed or not).
    public private(set) var count = 0

    /// Writes to memory; read the result with `bytes`.
    public init() {
        descriptor = nil
        path = "memory"
    }

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws(CorpusError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path, errno: errno) }
        descriptor = fd
        self.path = path
        buffer.reserveCapacity(bufferLimit + 64 * 1024)
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Everything written, for a memory sink.
    public var bytes: [UInt8] { buffer }

    /// Appends UTF-8 text.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Appends bytes.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        count += bytes.count
        if descriptor != nil, buffer.count >= bufferLimit {
            do { try flush() } catch { failure = failure ?? error }
        }
    }

    /// Writes the buffer to the file (a no-op for a memory sink).
    public func flush() throws(CorpusError) {
        if let failure { throw failure }
        guard let descriptor, !buffer.isEmpty else { return }
        var code: Int32 = 0
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if code != 0 { throw .cannotWrite(path, errno: code) }
    }
}

/// Failures of the generators: I/O only; every argument is checked before generation starts.
public enum CorpusError: Error, CustomStringConvertible {
    case cannotWrite(String, errno: Int32)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let code): "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
