#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every format reader provides to `InputReader`.
protocol InputItemSource: AnyObject {
    func next() -> InputItem?
    var bytesRead: Int { get }
    var totalBytes: Int? { get }
}

/// A streaming source of input items for one path: a file, a directory, or stdin (`-`).
///
///     let reader = try InputReader(path: "Takeout/Mail/All mail.mbox")
///     for item in reader {
///         switch item {
///         case .email(let email): …           // hand email.bytes to the MIME layer
///         case .text(let sms): …
///         case .jsonLine(let bytes, let file, let line): …
///         case .skipped, .malformed: …         // count them; every record yields one item
///         }
///     }
///
/// Memory stays bounded whatever the input's size: 4 MiB of buffers (two 1 MiB chunks, each
/// with as much room for a carried-over partial record) plus about twice the largest record (an
/// mbox message, an MMS, a JSON line, a single .eml or Maildir file). Streamed records larger
/// than 256 MiB are skipped and reported as `.malformed`. Not thread-safe: one reader per thread.
///
/// `file` in the items is the path given (a Maildir's or eml folder's message file path), or
/// `stdin` for `-`.
public final class InputReader: Sequence, IteratorProtocol {
    /// The format being read (detected from content unless given).
    public let format: InputFormat
    private let source: any InputItemSource

    /// Opens `path`, or standard input when `path` is `-`, detecting the format from content
    /// when `format` is nil. Standard input is sniffed from its first 64 KiB, which are then
    /// read again from the same buffer, so no data is lost.
    /// - Throws: `InputError.unreadable` when the path cannot be opened or read;
    ///   `.unknownFormat` when it is empty, binary or in no known format, or when a directory
    ///   format is asked of a file (or the other way round).
    public convenience init(path: String, format: InputFormat? = nil) throws(InputError) {
        try self.init(path: path, format: format, chunkSize: InputByteStream.defaultChunkSize,
                      recordLimit: InputByteStream.defaultRecordLimit)
    }

    /// `init(path:format:)` with another chunk size and record limit (tests use tiny ones to
    /// cross chunk boundaries everywhere and to reach the limit).
    convenience init(path: String, format: InputFormat?, chunkSize: Int,
                     recordLimit: Int = InputByteStream.defaultRecordLimit) throws(InputError) {
        if path == "-" {
            try self.init(fileDescriptor: STDIN_FILENO, name: "stdin", format: format, chunkSize: chunkSize,
                          recordLimit: recordLimit)
            return
        }
        let kind: mode_t
        switch InputFile.kind(of: path) {
        case .success(let found): kind = found
        case .failure(let error): throw error
        }
        if kind == S_IFDIR {
            let detected: InputFormat
            if let format { detected = format } else { detected = try InputDetector.detectDirectory(path) }
            switch detected {
            case .maildir: self.init(format: .maildir, source: MessageFileSource(root: path, layout: .maildir))
            case .emlFolder: self.init(format: .emlFolder, source: MessageFileSource(root: path, layout: .emlFolder))
            default: throw .unknownFormat(path: path, reason: "a directory, but \(detected.rawValue) is read from a file")
            }
            return
        }
        let descriptor: Int32
        switch InputFile.openForReading(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw error
        }
        let size = InputFile.regularFileSize(descriptor: descriptor)
        let stream = InputByteStream(descriptor: descriptor, closes: true, fileSize: size, chunkSize: chunkSize)
        try self.init(stream: stream, name: path, format: format, fileSize: size, recordLimit: recordLimit)
    }

    /// Reads from an open file descriptor (a pipe, a socket, a file), which stays open and owned
    /// by the caller. `name` is the `file` of the items. The format is sniffed from the first
    /// 64 KiB when nil; those bytes are not lost.
    /// - Throws: as `init(path:format:)`.
    public convenience init(fileDescriptor: Int32, name: String, format: InputFormat? = nil) throws(InputError) {
        try self.init(fileDescriptor: fileDescriptor, name: name, format: format, chunkSize: InputByteStream.defaultChunkSize,
                      recordLimit: InputByteStream.defaultRecordLimit)
    }

    convenience init(fileDescriptor: Int32, name: String, format: InputFormat?, chunkSize: Int,
                     recordLimit: Int = InputByteStream.defaultRecordLimit) throws(InputError) {
        let size = InputFile.regularFileSize(descriptor: fileDescriptor)
        let stream = InputByteStream(descriptor: fileDescriptor, closes: false, fileSize: size, chunkSize: chunkSize)
        try self.init(stream: stream, name: name, format: format, fileSize: size, recordLimit: recordLimit)
    }

    private convenience init(stream: InputByteStream, name: String, format: InputFormat?, fileSize: Int?,
                             recordLimit: Int) throws(InputError) {
        // Sniffing wants the first 64 KiB; a given format needs only to know the input is not empty.
        stream.prefill(minimum: format == nil ? InputDetector.prefixLength : 1)
        if let error = stream.readError { throw .unreadable(path: name, reason: error) }
        let prefix = UnsafeBufferPointer(start: stream.base, count: stream.count)
        let chosen: InputFormat
        if stream.count == 0 {
            throw .unknownFormat(path: name, reason: "empty file")
        } else if let format {
            chosen = format
        } else {
            switch InputDetector.sniff(prefix) {
            case .success(let format): chosen = format
            case .failure(let reason): throw .unknownFormat(path: name, reason: reason.text)
            }
        }
        let source: any InputItemSource
        switch chosen {
        case .mbox: source = MboxMessageSplitter(stream: stream, file: name, totalBytes: fileSize, recordLimit: recordLimit)
        case .smsBackupXML: source = SMSBackupScanner(stream: stream, file: name, totalBytes: fileSize, recordLimit: recordLimit)
        case .jsonLines: source = JSONLinesSplitter(stream: stream, file: name, totalBytes: fileSize, recordLimit: recordLimit)
        case .eml: source = SingleMessageSource(stream: stream, file: name, totalBytes: fileSize)
        case .maildir, .emlFolder:
            throw .unknownFormat(path: name, reason: "\(chosen.rawValue) needs a directory, and this is a file or a stream")
        }
        self.init(format: chosen, source: source)
    }

    /// Reads the messages of the mbox at `path` whose From_ line starts in `range`: one worker's
    /// share of a large mbox split across cores (see `MboxMessageSplitter.init(stream:file:owning:recordLimit:)`).
    /// No read-ahead thread: the ranges are read in parallel already.
    convenience init(mboxPath path: String, owning range: Range<Int>,
                     recordLimit: Int = InputByteStream.defaultRecordLimit) throws(InputError) {
        let descriptor: Int32
        switch InputFile.openForReading(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw error
        }
        // Three bytes before the range: the empty-line test of its first From_ line reads them.
        let start = Swift.max(range.lowerBound - 3, 0)
        guard lseek(descriptor, off_t(start), SEEK_SET) == off_t(start) else {
            let reason = String(cString: strerror(errno))
            _ = close(descriptor)
            throw .unreadable(path: path, reason: reason)
        }
        let stream = InputByteStream(descriptor: descriptor, closes: true, startOffset: start)
        self.init(format: .mbox, source: MboxMessageSplitter(stream: stream, file: path, owning: range,
                                                             recordLimit: recordLimit))
    }

    private init(format: InputFormat, source: any InputItemSource) {
        self.format = format
        self.source = source
    }

    /// The next item, or nil when the input is exhausted.
    public func next() -> InputItem? { source.next() }

    /// Routes each email of an mbox from its header block while the message is still in the
    /// read buffer, before anything is copied: the `.email` items then carry the parsed
    /// `headers` and the `route`, and a message whose route does not want its body comes with
    /// empty `bytes`, its body skipped over in the buffer. Called on the reading thread, once
    /// per message. Other formats ignore it (a Maildir or .eml message is one file, read whole).
    public var router: ((EmailHeaders) -> EmailRoute)? {
        get { (source as? MboxMessageSplitter)?.router }
        set { (source as? MboxMessageSplitter)?.router = newValue }
    }

    /// Bytes of the input consumed so far (for progress: MB/s, ETA); for directories, the sizes
    /// of the message files read so far.
    public var bytesRead: Int { source.bytesRead }

    /// The input's total size when known: a regular file's size, or the sum of a Maildir's or
    /// eml folder's file sizes (measured by a walk the first time it is asked); nil for pipes.
    public var totalBytes: Int? { source.totalBytes }
}
