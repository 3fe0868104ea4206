#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks a directory of one-message files in a fixed order, one directory listing at a time.
///
/// Maildir: the messages of a folder are the regular files in `cur/` then `new/` (never
/// `tmp/`, where deliveries are still being written); then every sub-directory other than
/// `cur`, `new` and `tmp` is walked the same way, which covers Maildir++ folders (`.Sent/`,
/// `.Archive.2024/`) and the plain nested folders of mbsync's `SubFolders Verbatim`.
/// eml folder: every regular file, recursively.
/// Names are sorted by their UTF-8 bytes; names starting with `.` are skipped (except Maildir++
/// folders); symbolic links to files are followed, symbolic links to directories are not (no
/// cycles). Memory is one directory listing at a time plus the stack of folders still to visit.
struct MessageFileWalker {
    enum Layout { case maildir, emlFolder }

    /// A file to read, or a directory that could not be listed.
    enum Step {
        case file(path: String, flags: String?)
        case unreadableDirectory(path: String, reason: String)
    }

    private let layout: Layout
    /// Directories still to visit, last one next.
    private var pending: [String]
    private var files: [(path: String, flags: String?)] = []
    private var nextFile = 0
    private var errors: [Step] = []

    init(root: String, layout: Layout) {
        self.layout = layout
        self.pending = [root]
    }

    mutating func next() -> Step? {
        while true {
            if !errors.isEmpty { return errors.removeFirst() }
            if nextFile < files.count {
                defer { nextFile += 1 }
                return .file(path: files[nextFile].path, flags: files[nextFile].flags)
            }
            guard let directory = pending.popLast() else { return nil }
            files.removeAll(keepingCapacity: true)
            nextFile = 0
            visit(directory)
        }
    }

    private mutating func visit(_ directory: String) {
        let entries: [InputDirectoryEntry]
        switch InputDirectoryEntry.list(directory) {
        case .success(let listed): entries = listed
        case .failure(let error):
            errors.append(.unreadableDirectory(path: directory, reason: error.reason))
            return
        }
        var subdirectories: [String] = []
        switch layout {
        case .emlFolder:
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = Self.join(directory, entry.name)
                if entry.isDirectory { subdirectories.append(path) } else if entry.isRegularFile { files.append((path, nil)) }
            }
        case .maildir:
            for entry in entries where entry.isDirectory {
                switch entry.name {
                case "cur", "new":
                    let box = Self.join(directory, entry.name)
                    switch InputDirectoryEntry.list(box) {
                    case .success(let messages):
                        for message in messages where message.isRegularFile && !message.name.hasPrefix(".") {
                            files.append((Self.join(box, message.name), Self.maildirFlags(message.name)))
                        }
                    case .failure(let error):
                        errors.append(.unreadableDirectory(path: box, reason: error.reason))
                    }
                case "tmp", ".", "..":
                    continue
                default:
                    subdirectories.append(Self.join(directory, entry.name))
                }
            }
        }
        pending.append(contentsOf: subdirectories.reversed())
    }

    /// Flags from a Maildir file name's info part: `1700000000.M1P2.host,S=123:2,RS` gives `RS`.
    /// `!` stands for `:` on file systems that forbid colons. Nil without a `2,` info part.
    static func maildirFlags(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        var i = bytes.count - 3
        while i >= 0 {
            if bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: "!"),
               bytes[i + 1] == UInt8(ascii: "2"), bytes[i + 2] == UInt8(ascii: ",") {
                return String(decoding: bytes[(i + 3)...], as: UTF8.self)
            }
            i -= 1
        }
        return nil
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// One name in a directory listing, with its kind (symbolic links resolved for files only).
struct InputDirectoryEntry {
    let name: String
    let isDirectory: Bool
    let isRegularFile: Bool

    /// The entries of `directory` but `.` and `..`, sorted by UTF-8 bytes, or why it cannot be
    /// listed.
    static func list(_ directory: String) -> Result<[InputDirectoryEntry], ListingError> {
        guard let handle = opendir(directory) else { return .failure(ListingError(InputFile.errorText())) }
        defer { closedir(handle) }
        var entries: [InputDirectoryEntry] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) || type == Int32(DT_LNK) {
                var info = stat()
                let found = MessageFileWalker.join(directory, name).withCString {
                    type == Int32(DT_LNK) ? stat($0, &info) : lstat($0, &info)
                }
                if found != 0 { continue }
                let mode = info.st_mode & S_IFMT
                // A link to a directory is left out: following it could loop.
                type = mode == S_IFREG ? Int32(DT_REG) : (mode == S_IFDIR && type != Int32(DT_LNK)) ? Int32(DT_DIR) : -1
            }
            entries.append(InputDirectoryEntry(name: name, isDirectory: type == Int32(DT_DIR), isRegularFile: type == Int32(DT_REG)))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return .success(entries)
    }

    /// Why a directory could not be listed.
    struct ListingError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
