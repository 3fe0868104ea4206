#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file the input readers open: one per process (named after the pid, so two fuzzers
/// never share it), rewritten for every input and removed at exit.
enum ScratchFile {
    static let path: String = {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let path = "\(directory)/spendlex-fuzz-\(getpid()).input"
        atexit { _ = unlink(ScratchFile.path) }
        return path
    }()

    /// Replaces the file's content with `bytes` and returns its path.
    static func write(_ bytes: [UInt8]) -> String {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        FuzzCheck.expect(descriptor >= 0, "cannot open \(path)")
        var written = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count <= 0 { break }
                written += count
            }
        }
        _ = close(descriptor)
        FuzzCheck.expect(written == bytes.count, "short write to \(path)")
        return path
    }
}
