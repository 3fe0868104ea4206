#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells an input's format from its content; file names are never consulted, so a Takeout
/// export renamed `.txt` or a backup saved as `.eml` is still read correctly.
///
/// Files (after an optional UTF-8 BOM and blank lines): `From ` starts an mbox; `<?xml`,
/// `<smses` or a comment leads to SMS Backup & Restore XML when the root element is `<smses>`
/// (or is not within the prefix); `{` starts JSON Lines; an RFC 5322 header line (a known field
/// such as `Received:`, `From:`, `Delivered-To:`, `Return-Path:`, any `X-…:` field, or any field
/// followed by another header line) starts a single .eml. Directories: `cur/` or `new/` (in the
/// directory or in a sub-directory, as mbsync lays out accounts) make a Maildir; otherwise a
/// tree holding an `.eml` file or a file that sniffs as an email is an eml folder.
public enum InputDetector {
    /// How many bytes of a file or stream are sniffed.
    static let prefixLength = 64 << 10

    /// Detects the format of the file or directory at `path`.
    /// - Throws: `InputError.unreadable` when it cannot be opened; `.unknownFormat` when it is
    ///   empty, binary, standard input (`-`: use `InputReader(path: "-")`), or not a known format.
    public static func detect(path: String) throws(InputError) -> InputFormat {
        if path == "-" {
            throw .unknownFormat(path: path, reason: "standard input can only be sniffed while reading it: use InputReader(path: \"-\")")
        }
        let kind: mode_t
        switch InputFile.kind(of: path) {
        case .success(let found): kind = found
        case .failure(let error): throw error
        }
        if kind == S_IFDIR { return try detectDirectory(path) }
        guard kind == S_IFREG else {
            throw .unknownFormat(path: path, reason: "not a regular file: sniffing would consume it; InputReader(path:) reads and sniffs pipes")
        }
        let prefix: [UInt8]
        switch InputFile.readWhole(path, limit: prefixLength) {
        case .success(let bytes): prefix = bytes
        case .failure(let error): throw error
        }
        switch sniff(prefix) {
        case .success(let format): return format
        case .failure(let reason): throw .unknownFormat(path: path, reason: reason.text)
        }
    }

    /// Detects the format from the first bytes of a stream (stdin), or nil when they match no
    /// format. Give at least the first line; 64 KiB lets XML be told from other XML.
    public static func detect(prefix: [UInt8]) -> InputFormat? {
        try? sniff(prefix).get()
    }

    /// Why a prefix matched no format.
    struct Unrecognised: Error {
        let text: String
    }

    static func sniff(_ prefix: [UInt8]) -> Result<InputFormat, Unrecognised> {
        prefix.withUnsafeBufferPointer { sniff($0) }
    }

    static func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> Result<InputFormat, Unrecognised> {
        guard !prefix.isEmpty else { return .failure(Unrecognised(text: "empty file")) }
        var start = 0
        if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { start = 3 }
        if let binary = InputShape.knownBinaryFormat(prefix) { return .failure(Unrecognised(text: "binary data: \(binary)")) }
        while start < prefix.count, InputShape.isBlank(prefix[start]) { start += 1 }
        guard start < prefix.count else { return .failure(Unrecognised(text: "empty file (only blank lines)")) }
        let rest = UnsafeBufferPointer(rebasing: prefix[start...])
        if let binary = InputShape.binaryReason(rest) { return .failure(Unrecognised(text: binary)) }
        let base = rest.baseAddress!
        let firstLine = lineLength(base, rest.count)
        if InputShape.startsWithFromSpace(base, firstLine) { return .success(.mbox) }
        switch rest[0] {
        case UInt8(ascii: "{"):
            return .success(.jsonLines)
        case UInt8(ascii: "<"):
            return sniffXML(rest)
        case UInt8(ascii: "["):
            return .failure(Unrecognised(text: "a JSON array; write one JSON object a line (JSON Lines)"))
        default:
            break
        }
        if looksLikeHeaderBlock(base, rest.count, firstLine: firstLine) { return .success(.eml) }
        let shown = String(decoding: UnsafeBufferPointer(start: base, count: min(firstLine, 60)), as: UTF8.self)
        return .failure(Unrecognised(text: "not mbox, Maildir, email, SMS backup XML or JSON Lines (first line: \"\(shown)\")"))
    }

    /// XML: an SMS backup when the root element is `<smses>`, or when the root is past the prefix.
    private static func sniffXML(_ rest: UnsafeBufferPointer<UInt8>) -> Result<InputFormat, Unrecognised> {
        let base = rest.baseAddress!
        var i = 0
        while i < rest.count {
            guard let open = SMSBackupScanner.find("<", base, from: i, rest.count), open + 1 < rest.count else { break }
            let next = base[open + 1]
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
                let terminator: StaticString = next == UInt8(ascii: "!") && open + 3 < rest.count
                    && base[open + 2] == UInt8(ascii: "-") && base[open + 3] == UInt8(ascii: "-") ? "-->" : ">"
                guard let close = SMSBackupScanner.find(terminator, base, from: open + 2, rest.count) else { break }
                i = close + 1
                continue
            }
            var end = open + 1
            while end < rest.count, !InputShape.isBlank(base[end]), base[end] != UInt8(ascii: ">"),
                  base[end] != UInt8(ascii: "/") { end += 1 }
            let name = UnsafeBufferPointer(start: base + open + 1, count: end - open - 1)
            if name.elementsEqual("smses".utf8) { return .success(.smsBackupXML) }
            if end == rest.count { break }
            return .failure(Unrecognised(text: "XML, but not an SMS Backup & Restore backup (root element <\(String(decoding: name, as: UTF8.self))>)"))
        }
        let declaration = rest.count >= 5 && UnsafeBufferPointer(start: base, count: 5).elementsEqual("<?xml".utf8)
        return declaration ? .success(.smsBackupXML)
            : .failure(Unrecognised(text: "starts with '<' but is not an XML document"))
    }

    /// The first line is a header field, and either a field that messages start with or followed
    /// by another header line (or a folded continuation).
    private static func looksLikeHeaderBlock(_ base: UnsafePointer<UInt8>, _ count: Int, firstLine: Int) -> Bool {
        guard InputShape.isHeaderLine(base, firstLine) else { return false }
        var colon = 0
        while base[colon] != UInt8(ascii: ":") { colon += 1 }
        let name = String(decoding: UnsafeBufferPointer(start: base, count: colon), as: UTF8.self).lowercased()
        if name.hasPrefix("x-") || knownLeadingFields.contains(name) { return true }
        let next = firstLine + 1
        guard next < count else { return false }
        let nextLength = lineLength(base + next, count - next)
        return base[next] == 0x20 || base[next] == 0x09 || InputShape.isHeaderLine(base + next, nextLength)
    }

    private static let knownLeadingFields: Set<String> = [
        "received", "from", "to", "cc", "subject", "date", "return-path", "delivered-to", "message-id",
        "mime-version", "content-type", "reply-to", "sender", "envelope-to", "dkim-signature",
        "arc-seal", "arc-message-signature", "arc-authentication-results", "authentication-results",
        "received-spf", "in-reply-to", "references", "thread-topic", "thread-index", "status",
    ]

    private static func lineLength(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard let newline = memchr(start, 0x0A, count) else { return count }
        return UnsafePointer(newline.assumingMemoryBound(to: UInt8.self)) - start
    }

    /// Maildir when `cur/` or `new/` is in the directory or one of its sub-directories; eml folder
    /// when one of the first files found is an `.eml` or sniffs as an email.
    static func detectDirectory(_ path: String) throws(InputError) -> InputFormat {
        let entries: [InputDirectoryEntry]
        switch InputDirectoryEntry.list(path) {
        case .success(let listed): entries = listed
        case .failure(let error): throw .unreadable(path: path, reason: error.reason)
        }
        if entries.contains(where: { $0.isDirectory && ($0.name == "cur" || $0.name == "new") }) { return .maildir }
        for entry in entries where entry.isDirectory {
            if case .success(let inside) = InputDirectoryEntry.list(MessageFileWalker.join(path, entry.name)),
               inside.contains(where: { $0.isDirectory && ($0.name == "cur" || $0.name == "new") }) {
                return .maildir
            }
        }
        var walker = MessageFileWalker(root: path, layout: .emlFolder)
        var examined = 0
        while examined < 100, let step = walker.next() {
            guard case .file(let file, _) = step else { continue }
            examined += 1
            if file.lowercased().hasSuffix(".eml") { return .emlFolder }
            if case .success(let prefix) = InputFile.readWhole(file, limit: 4096),
               case .success(let format) = sniff(prefix), format == .eml || format == .mbox {
                return .emlFolder
            }
        }
        throw .unknownFormat(path: path, reason: examined == 0 && entries.isEmpty ? "empty directory"
                             : "a directory with no Maildir (cur/, new/) and no email files")
    }
}
