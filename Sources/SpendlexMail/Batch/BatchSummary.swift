/// What became of every message of a run. `messages` always equals the sum of the
/// four outcomes: nothing is lost and nothing is counted twice.
public struct BatchSummary: Sendable, Equatable {
    /// Messages read, including malformed records.
    public var messages = 0
    /// Messages that produced a transaction.
    public var transactions = 0
    /// Messages recognised as non-transactions: by an ignore rule, a subject filter,
    /// a sender that is no bank's (`notFromBank`), or a record kind that carries no alert.
    public var ignored = 0
    /// Of `ignored`, the emails whose sender is in no bank's `senders` (bodies not decoded).
    public var notFromBank = 0
    /// Messages no parser matched.
    public var unmatched = 0
    /// Malformed records, invalid fields, match limits.
    public var errors = 0
    /// Messages already in the ledger (`BatchOptions.skipMessageIDs`), skipped unread: they
    /// were accounted for by the run that stored them.
    public var skipped = 0
    /// Transactions per bank id.
    public var transactionsByBank: [String: Int] = [:]
    /// Input bytes read.
    public var bytes = 0

    /// Creates an empty summary.
    public init() {}

    /// Whether the four outcomes add up to the messages read.
    public var isBalanced: Bool { transactions + ignored + unmatched + errors + skipped == messages }

    /// Adds another summary's counts to this one.
    public mutating func add(_ other: BatchSummary) {
        messages += other.messages
        transactions += other.transactions
        ignored += other.ignored
        notFromBank += other.notFromBank
        unmatched += other.unmatched
        errors += other.errors
        skipped += other.skipped
        bytes += other.bytes
        transactionsByBank.merge(other.transactionsByBank, uniquingKeysWith: +)
    }

    /// One line for people, then per-bank counts.
    public var description: String {
        var text = "\(messages) messages: \(transactions) transactions, \(ignored) ignored"
        if notFromBank > 0 { text += " (\(notFromBank) not from a bank sender)" }
        text += ", \(unmatched) unmatched, \(errors) errors"
        if skipped > 0 { text += ", \(skipped) already in the ledger" }
        for (bank, count) in transactionsByBank.sorted(by: { $0.key < $1.key }) {
            text += "\n  \(bank): \(count)"
        }
        return text
    }
}
