import Foundation

/// One SMS or notification already in text form.
public struct TextRecord: Sendable {
    /// A stable id when the format gives enough to build one; nil lets the caller hash the
    /// text. SMS Backup & Restore has no message id: `sms:<address>:<date ms>` (or
    /// `mms:<address>:<date ms>`) is used.
    public let id: String?
    /// The message text, entities decoded (`&#10;` is a newline).
    public let text: String
    /// The sender's address (a phone number or a short code such as `VM-HDFCBK`).
    public let sender: String?
    /// When the message was received (SMS Backup & Restore's `date`, milliseconds since 1970).
    public let receivedAt: Date?
    /// The channel: `"sms"` for SMS and MMS.
    public let channel: String
    /// The file the record came from; `stdin` for standard input.
    public let file: String
    /// UTF-8 byte offset of the record's element (`<sms`, `<mms`) in `file`.
    public let offset: Int

    /// Makes a text record.
    public init(id: String?, text: String, sender: String?, receivedAt: Date?, channel: String = "sms",
                file: String, offset: Int) {
        self.id = id
        self.text = text
        self.sender = sender
        self.receivedAt = receivedAt
        self.channel = channel
        self.file = file
        self.offset = offset
    }
}
