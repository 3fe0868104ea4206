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
    /// Empty when the reader's router declined the message from its headers (`route`'s
    /// `wantsBody` is false): its body was never copied out of the read buffer.
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
    /// The header block, when the reader parsed it in place to route the message.
    public let headers: EmailHeaders?
    /// What the reader's router decided from the headers (see `InputReader.router`); nil when
    /// the message was not routed while reading.
    public let route: EmailRoute?

    /// Makes an email record (the readers do this; tests and other sources may too).
    public init(bytes: [UInt8], file: String, offset: Int, flags: String? = nil, headers: EmailHeaders? = nil,
                route: EmailRoute? = nil) {
        self.bytes = bytes
        self.file = file
        self.offset = offset
        self.flags = flags
        self.headers = headers
        self.route = route
    }
}

/// A routing decision made from an email's headers alone, while the message is still in the
/// reader's buffer: which banks list its sender, and whether its body is wanted at all.
///
/// Mail from no bank's sender makes most of a personal mailbox's bytes (attachments among
/// them); declined while reading, its body is skipped over in the buffer, never copied.
public struct EmailRoute: Sendable {
    /// The `From` address, as routing read it.
    public var from: String?
    /// The Message-ID, as routing read it (to skip messages a ledger knows); read once.
    public var messageID: String?
    /// The banks whose `senders` name the address (indexes into the compiled rule set).
    public var senderBanks: [Int]
    /// From no bank, but with a subject that a fallback file reads.
    public var fallback: Bool
    /// Whether the body is to be decoded and parsed (from a bank, read by a fallback, or all
    /// mail asked for).
    public var parsesBody: Bool
    /// Whether the body is needed at all: to parse it, or to hash it (a ledger's id for mail
    /// without a Message-ID). False: the reader skips the body without copying it.
    public var wantsBody: Bool

    /// Makes a route.
    public init(from: String?, messageID: String?, senderBanks: [Int], fallback: Bool, parsesBody: Bool,
                wantsBody: Bool) {
        self.from = from
        self.messageID = messageID
        self.senderBanks = senderBanks
        self.fallback = fallback
        self.parsesBody = parsesBody
        self.wantsBody = wantsBody
    }
}
