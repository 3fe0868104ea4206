/// One email as stored: its RFC 5322 bytes (headers and body).
///
/// From an mbox, the `From ` separator line is removed, so is the blank line the mbox writer
/// put before the next separator, and `>From ` quoting is undone with the mboxrd rule: one `>`
/// is stripped from every line matching `^>+From `. The same rule is applied to mboxo files,
/// where it is ambiguous: a body line that was `>From ` before mboxo quoting (which mboxo
/// leaves alone) comes out as `From `. That loses one `>` of quoting in a rare line and never
/// touches a header, which is the safer error for alert parsing than leaving `>From ` in every
/// quoted line of every mboxo file.
public struct RawEmail: Sendable {
    /// The message bytes: headers, blank line, body; line endings as in the file (LF or CRLF).
    public let bytes: [UInt8]
    /// The file the message came from: the mbox, the Maildir message file or the .eml file;
    /// `stdin` for standard input.
    public let file: String
    /// Byte offset in `file` where the message's record starts: the `From ` separator line in
    /// an mbox, 0 for one-message files (Maildir, .eml).
    public let offset: Int
    /// Maildir info flags from the file name (`…:2,RS` gives `"RS"`, `…:2,` gives `""`);
    /// nil for files without an info suffix and for every other format.
    public let flags: String?

    /// Makes an email record (the readers do this; tests and other sources may too).
    public init(bytes: [UInt8], file: String, offset: Int, flags: String? = nil) {
        self.bytes = bytes
        self.file = file
        self.offset = offset
        self.flags = flags
    }
}
