#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens files and reads small ones whole, with `errno` turned into text.
enum InputFile {
    /// Opens `path` for reading, or returns the reason it cannot be.
    static func openForReading(_ path: String) -> Result<Int32, InputError> {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        if descriptor < 0 { return .failure(.unreadable(path: path, reason: errorText())) }
        return .success(descriptor)
    }

    /// The current `errno` as text ("No such file or directory").
    static func errorText() -> String { String(cString: strerror(errno)) }

    /// The size of a regular file, or nil for pipes and terminals.
    static func regularFileSize(descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Kind of a path: nil when it does not exist or cannot be examined.
    static func kind(of path: String) -> Result<mode_t, InputError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(.unreadable(path: path, reason: errorText())) }
        return .success(info.st_mode & S_IFMT)
    }

    /// Reads a whole file, or at most `limit` bytes of it.
    static func readWhole(_ path: String, limit: Int = .max) -> Result<[UInt8], InputError> {
        let descriptor: Int32
        switch openForReading(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(error)
        }
        defer { _ = close(descriptor) }
        let expected = min(regularFileSize(descriptor: descriptor) ?? 65_536, limit)
        var bytes = [UInt8](repeating: 0, count: max(expected, 1))
        var used = 0
        while used < limit {
            if used == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit - used))) }
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + used, $0.count - used) }
            if got > 0 { used += got; continue }
            if got == 0 { break }
            if errno == EINTR { continue }
            return .failure(.unreadable(path: path, reason: errorText()))
        }
        bytes.removeSubrange(used...)
        return .success(bytes)
    }
}
