import Foundation

/// How a message reached the user.
public enum MessageChannel: String, Sendable, Hashable, CaseIterable {
    case email, sms, push, unknown
    /// A row of a bank statement (`spendlex import`): the record the alerts are reconciled with.
    case statement
}

/// One input message: what the engine parses.
public struct Message: Sendable {
    /// Stable id: the input's own id, an email's Message-ID, or a hash.
    public var id: String
    /// The text to parse (an email's decoded body).
    public var text: String
    /// Email address or SMS sender id, if known.
    public var sender: String?
    /// Email subject, if any.
    public var subject: String?
    /// When the message arrived; resolves dates without a year, or without a date.
    public var receivedAt: Date?
    /// Email, SMS, push notification.
    public var channel: MessageChannel
    /// The input file it was read from, if any.
    public var file: String?
    /// Byte offset of the message in that file, or its line number for line-based inputs.
    public var offset: Int?

    /// Creates a message. A card number in its id, sender or subject is masked here, where
    /// every input meets the engine, so that no output, ledger row or log line downstream
    /// can carry it (the text is masked where it is written: the parsers read it whole).
    /// The text is put in normalization form C ("é" written as "e" and a combining accent reads
    /// as "é"), so that rules written composed read it; a text with nothing from U+0300 on (ASCII,
    /// accented Latin) costs one pass over its bytes, eight at a time. `textIsComposed`: the
    /// caller has done it (the MIME decoder, which learns in its UTF-8 check whether a body can
    /// need it, and so spares every plain body of a mailbox that pass).
    public init(id: String, text: String, sender: String? = nil, subject: String? = nil,
                receivedAt: Date? = nil, channel: MessageChannel = .unknown,
                file: String? = nil, offset: Int? = nil, textIsComposed: Bool = false) {
        self.id = CardNumberMasker.mask(id)
        self.text = textIsComposed ? text : NormalizingText.composed(text)
        self.sender = sender.map(CardNumberMasker.mask)
        self.subject = subject.map(CardNumberMasker.mask)
        self.receivedAt = receivedAt
        self.channel = channel
        self.file = file
        self.offset = offset
    }

    /// The id of a text message that has none of its own: a hash of its sender and text, the
    /// same whether it is read from a backup or posted to the service, so that one SMS is one
    /// message in a ledger.
    public static func textID(sender: String?, text: String) -> String {
        "sms:" + StableHash.hex(parts: [sender ?? "", text])
    }
}
