/// What became of every message of a run. `messages` always equals the sum of the
/// four outcomes: nothing is lost and nothing is counted twice.
public struct BatchSummary: Sendable, Equatable {
    /// Messages read, including malformed records.
    public var messages = 0
    /// Messages that produced a transaction.
    public var transactions = 0
    /// Messages recognised as non-transactions.
    public var ignored = 0
    /// Messages no parser matched.
    public var unmatched = 0
    /// Malformed records, invalid fields, match limits.
    public var errors = 0
    /// Transactions per bank id.
    public var transactionsByBank: [String: Int] = [:]

    /// Creates an empty summary.
    public init() {}

    /// Whether the four outcomes add up to the messages read.
    public var isBalanced: Bool { transactions + ignored + unmatched + errors == messages }

    /// One line for people, then per-bank counts.
    public var description: String {
        var text = "\(messages) messages: \(transactions) transactions, \(ignored) ignored, "
            + "\(unmatched) unmatched, \(errors) errors"
        for (bank, count) in transactionsByBank.sorted(by: { $0.key < $1.key }) {
            text += "\n  \(bank): \(count)"
        }
        return text
    }
}
