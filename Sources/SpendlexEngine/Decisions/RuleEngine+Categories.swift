import PCRE2
import SpendlexRules

extension RuleEngine.Worker {
    /// The outcome with its transaction's category and subcategory filled in by the decision
    /// tables, when a categories file is loaded; any other outcome as it is.
    /// The outcome is consumed, so that the transaction is updated in place, not copied field by field.
    func categorized(_ outcome: consuming ParseOutcome) -> ParseOutcome {
        guard let categorizer = rules.categorizer else { return outcome }
        switch consume outcome {
        case .transaction(var transaction):
            let output = categorizer.categoryOutput(CategoryInput(transaction), scratch: scratch)
            transaction.category = output.category
            transaction.subcategory = output.subcategory
            transaction.categoryRow = output.row
            return .transaction(transaction)
        case let other:
            return other
        }
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
