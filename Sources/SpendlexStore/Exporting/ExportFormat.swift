/// The formats of `spendlex export`.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// The expense-tracker columns of `spendlex parse --format csv`.
    case csv
    /// The record of `spendlex parse`, plus `ledger_id` and the primary's id in `duplicate_of`.
    case jsonl
    /// A beancount journal (`bean-check` clean).
    case beancount
    /// A ledger-cli journal.
    case ledger

    /// Whether the format is a double-entry journal, holding primaries only.
    public var isJournal: Bool { self == .beancount || self == .ledger }
}
