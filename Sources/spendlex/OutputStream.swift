import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes of machine output to stdout, a file, or nowhere.
///
/// A file is opened with `open(2)` and written where it is. Foundation's
/// `FileManager.createFile(atPath:)`, used before, writes a new file and renames it over the
/// path: run as root, `spendlex parse -o /dev/null` replaced the null device with a regular
/// file, and a symlink or a FIFO given as output was replaced the same way.
final class OutputStream {
    /// The descriptor written to; nil discards everything.
    private let descriptor: Int32?
    private let closes: Bool
    private var buffer: [UInt8] = []
    /// Why a write failed (the first failure); later writes are dropped.
    private(set) var failure: String?

    private static let bufferSize = 1 << 16

    /// Opens `path` for writing (created or truncated), or standard output for nil or `-`.
    /// A new file is readable by its owner only: it holds someone's transactions.
    init(path: String?) throws {
        if let path, path != "-" {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard opened >= 0 else {
                throw ValidationError("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            descriptor = opened
            closes = true
        } else {
            descriptor = STDOUT_FILENO
            closes = false
        }
        buffer.reserveCapacity(Self.bufferSize)
    }

    private init(discarding: Void) {
        descriptor = nil
        closes = false
    }

    /// A stream that drops what it is given (output nobody asked for).
    static func discarding() -> OutputStream { OutputStream(discarding: ()) }

    deinit {
        flush()
        if closes, let descriptor { _ = close(descriptor) }
    }

    func write(_ text: String) {
        guard descriptor != nil else { return }
        buffer += text.utf8
        if buffer.count >= Self.bufferSize { flush() }
    }

    /// Writes UTF-8 bytes; a large block goes out directly, without a copy into the buffer.
    func write(bytes: [UInt8]) {
        guard descriptor != nil else { return }
        if bytes.count >= Self.bufferSize {
            flush()
            bytes.withUnsafeBytes { writeAll($0) }
        } else {
            buffer += bytes
            if buffer.count >= Self.bufferSize { flush() }
        }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, then reports a failed write (a full disk) on stderr and throws exit 70: output
    /// was lost, which must not pass for success.
    func finish(name: String) throws {
        flush()
        if let failure {
            Stderr.write("error: writing \(name) failed: \(failure)\n")
            throw ExitStatus.internalError
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard let descriptor, failure == nil, var start = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = writeSome(descriptor, start, left)
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                return
            }
            start += written
            left -= written
        }
    }
}

/// `write(2)`, under a name the stream's own `write` methods do not hide.
private func writeSome(_ descriptor: Int32, _ start: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, start, count)
}
