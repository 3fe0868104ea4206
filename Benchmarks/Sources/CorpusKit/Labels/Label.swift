/// The ground truth of one transaction message.
public struct Label: Sendable, Equatable {
    /// Which format made it: gen_mbox.py's names for mail ("hdfc_cc"), the bundled parser id
    /// for SMS and JSON Lines ("hdfc.card.spend").
    public var rule: String
    /// The amount as written in the message (mail), or as a plain decimal (SMS, JSON Lines).
    public var amount: String
    /// The merchant or payee; empty when the message names none.
    public var merchant: String
    /// The card or account digits the engine must report.
    public var card: String

    public init(rule: String, amount: String, merchant: String, card: String) {
        self.rule = rule
        self.amount = amount
        self.merchant = merchant
        self.card = card
    }
}

/// Writes `<corpus>.labels.tsv`: one line per transaction message,
/// `ordinal \t rule \t amount \t merchant \t card` (gen_mbox.py's columns).
public final class LabelWriter {
    private let sink: ByteSink
    /// Lines written.
    public private(set) var count = 0

    /// Writes to `path`.
    public init(path: String) throws(CorpusError) {
        sink = try ByteSink(path: path)
    }

    /// Writes to memory.
    public init() {
        sink = ByteSink()
    }

    public func write(ordinal: Int, _ label: Label) {
        sink.write("\(ordinal)\t\(label.rule)\t\(label.amount)\t\(label.merchant)\t\(label.card)\n")
        count += 1
    }

    public func finish() throws(CorpusError) {
        try sink.flush()
    }
}
