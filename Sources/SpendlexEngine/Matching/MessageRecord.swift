import Foundation

/// What became of one message, as a ledger keeps it: the message's identity, its outcome,
/// and the transaction when there is one. Every message read becomes exactly one record.
public struct MessageRecord: Sendable {
    /// The four ways a message can end.
    public enum Status: String, Sendable, CaseIterable {
        case transaction, ignored, unmatched, error
    }

    /// The message's stable id (its own id, Message-ID, or a content hash).
    public var id: String
    /// The input file, when it came from one.
    public var file: String?
    /// UTF-8 byte offset of the message in `file`.
    public var offset: Int?
    /// Email, SMS, push.
    public var channel: MessageChannel
    /// Sender address or SMS id.
    public var sender: String?
    /// Arrival time.
    public var receivedAt: Date?
    /// How it ended.
    public var status: Status
    /// The rule that decided (parser or ignore rule), when one did.
    public var rule: String?
    /// Why, in words: "ignored by hdfc.ignore.1", "not from a bank sender", an error.
    public var reason: String?
    /// The transaction, for `.transaction`.
    public var transaction: Transaction?
    /// The message's subject (an e-mail's), card numbers masked (whoever sets it).
    public var subject: String? {
        didSet { if let subject, subject != oldValue { self.subject = CardNumberMasker.mask(subject) } }
    }
    /// The message's text as parsed, card numbers masked (whoever sets it): kept in the ledger for
    /// a transaction, an unmatched message and an error (what a person looks up or cites), nil for
    /// an ignored one.
    public var text: String? {
        didSet { if let text, text != oldValue { self.text = CardNumberMasker.mask(text) } }
    }

    /// Creates a record.
    public init(id: String, file: String? = nil, offset: Int? = nil, channel: MessageChannel = .unknown,
                sender: String? = nil, receivedAt: Date? = nil, status: Status, rule: String? = nil,
                reason: String? = nil, transaction: Transaction? = nil, subject: String? = nil, text: String? = nil) {
        self.id = id
        self.file = file
        self.offset = offset
        self.channel = channel
        self.sender = sender
        self.receivedAt = receivedAt
        self.status = status
        self.rule = rule
        self.reason = reason
        self.transaction = transaction
        // Masked here, on the thread that parsed the message: a batch run's single ledger writer
        // masking every text it stores was a sixth of the time storing took.
        self.subject = subject.map(CardNumberMasker.mask)
        self.text = text.map(CardNumberMasker.mask)
    }

    /// The record of a message and what the engine made of it.
    public init(_ message: Message, outcome: ParseOutcome) {
        let status: Status
        var rule: String?
        switch outcome {
        case .transaction(let t): status = .transaction; rule = t.rule
        case .ignored(let r, _): status = .ignored; rule = r
        case .unmatched: status = .unmatched
        case .failed(let r, _, _), .matchLimit(let r, _): status = .error; rule = r
        }
        self.init(id: message.id, file: message.file, offset: message.offset, channel: message.channel,
                  sender: message.sender, receivedAt: message.receivedAt, status: status, rule: rule,
                  reason: outcome.reason, transaction: outcome.transaction,
                  subject: message.subject, text: status == .ignored ? nil : message.text)
    }
}
