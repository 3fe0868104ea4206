import Foundation
import SpendlexEngine
import SpendlexRules

/// One message as a client posts it: an SMS or notification (`text`, with `sender`), or a
/// raw email (`email`: the RFC 5322 message, headers and all).
package struct MessageInput: Decodable, Sendable {
    /// The message's own id, if the client has one; else the service derives a stable one
    /// (from the sender and text, or the email's Message-ID), so that posting the same
    /// message twice is recognised.
    package var id: String?
    /// The text of an SMS or notification.
    package var text: String?
    /// A raw email, as received.
    package var email: String?
    /// SMS sender id, app or email address.
    package var sender: String?
    /// An email's subject (with `text`).
    package var subject: String?
    /// When it arrived, ISO 8601 (`2026-05-02T16:56:30Z`).
    package var receivedAt: String?
    /// `sms`, `push` or `email`; default `sms` with `text`, `email` with `email`.
    package var channel: String?

    enum CodingKeys: String, CodingKey {
        case id, text, email, sender, subject, channel
        case receivedAt = "received_at"
    }

    /// Each field is a string or left out; null is refused (400).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeUnlessLeftOut(String.self, forKey: .id)
        text = try c.decodeUnlessLeftOut(String.self, forKey: .text)
        email = try c.decodeUnlessLeftOut(String.self, forKey: .email)
        sender = try c.decodeUnlessLeftOut(String.self, forKey: .sender)
        subject = try c.decodeUnlessLeftOut(String.self, forKey: .subject)
        receivedAt = try c.decodeUnlessLeftOut(String.self, forKey: .receivedAt)
        channel = try c.decodeUnlessLeftOut(String.self, forKey: .channel)
    }

    /// A message to parse.
    package init(id: String? = nil, text: String? = nil, email: String? = nil, sender: String? = nil,
                subject: String? = nil, receivedAt: String? = nil, channel: String? = nil) {
        self.id = id
        self.text = text
        self.email = email
        self.sender = sender
        self.subject = subject
        self.receivedAt = receivedAt
        self.channel = channel
    }

    /// What is wrong with it, or nil: exactly one of `text` and `email`, a known channel, a time, no
    /// empty id or text. (Whether `email` is an email is `invalid_email`'s business: `startsWithHeader`.)
    package func problem() -> String? {
        switch (text, email) {
        case (nil, nil): return "give text (an SMS or notification) or email (a raw email)"
        case (.some, .some): return "give text or email, not both"
        default: break
        }
        if let id, id.isEmpty { return "id is empty; leave it out to have one derived" }
        if let text, text.isEmpty { return "text is empty" }
        if let channel, MessageChannel(rawValue: channel) == nil || channel == "unknown" {
            return "channel must be sms, push or email"
        }
        if let receivedAt, parseTimestamp(receivedAt) == nil {
            return "received_at is not an ISO 8601 time such as 2026-05-02T16:56:01Z"
        }
        return nil
    }
}

extension MessageInput {
    /// Whether a raw email starts as one: a header field name (printable ASCII but the colon), optional
    /// blanks and a colon, after an optional mbox `From ` line. openapi.yaml states the same as the
    /// pattern `^(F[Rr][Oo][Mm] [^\n]*\n|(?!F[Rr][Oo][Mm] ))[!-9;-~]+[ \t]*:`; whatever passes, the MIME
    /// decoder reads headers from.
    package static func startsWithHeader(_ email: String) -> Bool {
        var bytes = Array(email.utf8)[...]
        // An mbox envelope, as the MIME decoder tells it: `F`, then `rom ` in any case.
        let envelope = Array("from ".utf8)
        if bytes.first == UInt8(ascii: "F"), bytes.count >= envelope.count,
           zip(bytes.prefix(envelope.count), envelope).allSatisfy({ ($0 >= 65 && $0 <= 90 ? $0 + 32 : $0) == $1 }) {
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return false }
            bytes = bytes[(newline + 1)...]
        }
        let name = bytes.prefix { $0 >= 33 && $0 <= 126 && $0 != UInt8(ascii: ":") }
        guard !name.isEmpty else { return false }
        let rest = bytes.dropFirst(name.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return rest.first == UInt8(ascii: ":")
    }
}
