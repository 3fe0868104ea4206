/// A Content-Transfer-Encoding.
public enum TransferEncoding: String, Sendable {
    case sevenBit = "7bit"
    case eightBit = "8bit"
    case quotedPrintable = "quoted-printable"
    case base64
}

/// One text part of an email: its type, charset and encoding.
public struct MailPart: Sendable {
    /// "text/plain" or "text/html".
    public var contentType: String
    /// The text, before charset conversion and transfer encoding.
    public var text: String
    public var encoding: TransferEncoding
    /// "utf-8" or "iso-8859-1" (the text must then be Latin-1).
    public var charset: String

    public init(_ contentType: String, _ text: String, _ encoding: TransferEncoding = .sevenBit, charset: String = "utf-8") {
        self.contentType = contentType
        self.text = text
        self.encoding = encoding
        self.charset = charset
    }

    /// The part's header lines and its encoded body, as gen_mbox.py's `Part.encoded()`.
    func encoded() -> (header: String, body: [UInt8]) {
        let raw: [UInt8] = charset == "iso-8859-1"
            ? text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            : Array(text.utf8)
        let body: [UInt8] = switch encoding {
        case .base64: Base64Lines.encode(raw)
        case .quotedPrintable: QuotedPrintable.encode(raw)
        case .sevenBit, .eightBit: raw
        }
        return ("Content-Type: \(contentType); charset=\"\(charset)\"\nContent-Transfer-Encoding: \(encoding.rawValue)\n", body)
    }
}

/// A binary attachment, written in pieces: its bytes are random, made and encoded 57 KiB at a
/// time, so that a 25 MB attachment never sits in memory.
public struct Attachment: Sendable {
    public enum Kind: Sendable { case pdf, jpeg }
    public var kind: Kind
    public var filename: String
    /// Decoded size in bytes.
    public var size: Int
}

/// What an email holds.
public enum MailBody: Sendable {
    /// One text part.
    case single(MailPart)
    /// multipart/alternative.
    case alternative([MailPart])
    /// multipart/mixed: the text (one part, or an alternative when several) then attachments.
    case mixed(text: [MailPart], attachments: [Attachment])
}

/// An email before rendering: who sends it, its subject, its body.
public struct MailDraft: Sendable {
    public var senderName: String
    public var address: String
    public var subject: String
    public var body: MailBody

    public init(senderName: String, address: String, subject: String, body: MailBody) {
        self.senderName = senderName
        self.address = address
        self.subject = subject
        self.body = body
    }
}
