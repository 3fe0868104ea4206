import Foundation
import SpendlexEngine
import SpendlexRules

/// One message as a client posts it: an SMS or notification (`text`, with `sender`), or a
/// raw email (`email`: the RFC 5322 message, headers and all).
struct MessageInput: Decodable, Sendable {
    /// The message's own id, if the client has one; else the service derives a stable one
    /// (from the sender and text, or the email's Message-ID), so that posting the same
    /// message twice is recognised.
    var id: String?
    /// The text of an SMS or notification.
    var text: String?
    /// A raw email, as received.
    var email: String?
    /// SMS sender id, app or email address.
    var sender: String?
    /// An email's subject (with `text`).
    var subject: String?
    /// When it arrived, ISO 8601 (`2026-05-02T16:56:30Z`).
    var receivedAt: String?
    /// `sms`, `push` or `email`; default `sms` with `text`, `email` with `email`.
    var channel: String?

    enum CodingKeys: String, CodingKey {
        case id, text, email, sender, subject, channel
        case receivedAt = "received_at"
    }

    /// A message to parse.
    init(id: String? = nil, text: String? = nil, email: String? = nil, sender: String? = nil,
                subject: String? = nil, receivedAt: String? = nil, channel: String? = nil) {
        self.id = id
        self.text = text
        self.email = email
        self.sender = sender
        self.subject = subject
        self.receivedAt = receivedAt
        self.channel = channel
    }

    /// What is wrong with it, or nil: exactly one of `text` and `email`, a known channel, a time.
    func problem() -> String? {
        switch (text, email) {
        case (nil, nil): return "give text (an SMS or notification) or email (a raw email)"
        case (.some, .some): return "give text or email, not both"
        default: break
        }
        if let text, text.isEmpty { return "text is empty" }
        if let email, email.isEmpty { return "email is empty" }
        if let channel, MessageChannel(rawValue: channel) == nil || channel == "unknown" {
            return "channel must be sms, push or email"
        }
        if let receivedAt, parseTimestamp(receivedAt) == nil {
            return "received_at is not an ISO 8601 time such as 2026-05-02T16:56:01Z"
        }
        return nil
    }
}

/// Several messages at once.
struct MessageBatchInput: Decodable, Sendable {
    /// The messages, parsed and stored in order.
    var messages: [MessageInput]
}
