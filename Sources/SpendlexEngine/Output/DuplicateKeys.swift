/// What the ledger compares to find a transaction's duplicates, computed from the transaction
/// alone (`DuplicatePolicy.keys(of:)` in the store): a filter that keeps no state (`spendlex parse
/// --accounting`) writes them beside each transaction, and whoever links duplicates downstream
/// (a Spark job) uses the ledger's rules on them.
public struct DuplicateKeys: Sendable, Equatable {
    /// The content key: bank, account, direction, amount, currency, date, time and merchant (folded).
    public var content: String
    /// The amount as a plain decimal without trailing zeros ("1250.00" → "1250").
    public var amount: String?
    /// How many fields the transaction has: of duplicates, the one with the most is the primary.
    public var fieldCount: Int

    /// Keys as the store computes them.
    public init(content: String, amount: String?, fieldCount: Int) {
        self.content = content
        self.amount = amount
        self.fieldCount = fieldCount
    }
}
