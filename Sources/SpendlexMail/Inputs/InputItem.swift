/// One record read from an input. Every record of the input yields exactly one item, so that
/// `messages read = emails + texts + JSON lines + skipped + malformed`.
public enum InputItem: Sendable {
    /// An email to hand to the MIME layer.
    case email(RawEmail)
    /// An SMS (or MMS text) to parse.
    case text(TextRecord)
    /// One non-blank line of a JSON Lines file, without its line break; decode it with
    /// `JSONLinesMessageReader.record(from:file:line:)`. `line` is 1-based.
    case jsonLine(bytes: [UInt8], file: String, line: Int)
    /// A record deliberately not parsed, with why: a sent or draft SMS, an MMS without text, an
    /// element of the backup that is not a message. It counts as one message read.
    case skipped(file: String, offset: Int, reason: String)
    /// Something that could not be read as a message, with why; it counts as one message read.
    case malformed(file: String, offset: Int, reason: String)

    /// The file the item came from.
    public var file: String {
        switch self {
        case .email(let email): email.file
        case .text(let text): text.file
        case .jsonLine(_, let file, _), .skipped(let file, _, _), .malformed(let file, _, _): file
        }
    }

    /// Where the item is in `file`: a byte offset, or the 1-based line for `.jsonLine`.
    public var offset: Int {
        switch self {
        case .email(let email): email.offset
        case .text(let text): text.offset
        case .jsonLine(_, _, let line): line
        case .skipped(_, let offset, _), .malformed(_, let offset, _): offset
        }
    }
}
