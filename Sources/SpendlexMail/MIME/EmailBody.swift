/// The readable text of a message, as ``MIMEDecoder/body(of:headers:)`` finds it.
public struct EmailBody: Sendable, Equatable {
    /// The text/plain parts, decoded to UTF-8 with LF line ends, joined with "\n";
    /// nil when the message has none.
    public var plain: String?
    /// The text/html parts converted to readable text (``HTMLText``), joined with "\n";
    /// nil when the message has none.
    public var html: String?
    /// What was broken but survived, for people: "missing closing boundary",
    /// "bad base64 in part 2: 3 characters skipped", … Parts are numbered like IMAP
    /// sections (1-based, "2.1" is the first part inside the second).
    public var problems: [String]

    /// A body from its pieces.
    public init(plain: String? = nil, html: String? = nil, problems: [String] = []) {
        self.plain = plain
        self.html = html
        self.problems = problems
    }

    /// The text to parse: plain if it has any non-whitespace, else html (else empty).
    public var text: String {
        if let plain, !Self.isBlank(plain) { return plain }
        return html ?? plain ?? ""
    }

    /// Whether `text` has only whitespace, Unicode's included (no-break spaces and the like).
    static func isBlank(_ text: String) -> Bool {
        // Most text starts with a visible ASCII character: no Unicode property lookup then.
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
        return !text.unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}
