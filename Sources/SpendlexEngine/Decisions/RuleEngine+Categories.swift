import PCRE2
import SpendlexRules

extension RuleEngine.Worker {
    /// The outcome with its transaction's category and subcategory filled in by the decision
    /// tables, when a categories file is loaded; any other outcome as it is.
    func categorized(_ outcome: ParseOutcome) -> ParseOutcome {
        guard let categorizer = rules.categorizer, case .transaction(var transaction) = outcome else { return outcome }
        let output = categorizer.categoryOutput(CategoryInput(transaction), scratch: scratch)
        transaction.category = output.category
        transaction.subcategory = output.subcategory
        return .transaction(transaction)
    }

    /// How the decision tables categorize a transaction, with the deciding rows and why.
    public func categorize(_ transaction: Transaction) -> CategoryDecision? {
        rules.categorizer?.categorize(CategoryInput(transaction), scratch: scratch)
    }

    /// Categorizes an input with this worker's scratch; nil when no categories file is loaded.
    public func categorize(_ input: CategoryInput) -> CategoryDecision? {
        rules.categorizer?.categorize(input, scratch: scratch)
    }
}

extension CategoryInput {
    /// What a parsed transaction offers to the decision tables (alerts carry no MCC).
    public init(_ transaction: Transaction) {
        self.init(merchant: transaction.merchant, amount: transaction.amount, direction: transaction.direction,
                  kind: transaction.kind, bank: transaction.bank, last4: transaction.account?.last4,
                  accountType: transaction.account?.type)
    }
}
