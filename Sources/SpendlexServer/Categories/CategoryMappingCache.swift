import Foundation
import SpendlexEngine
import SpendlexStore
import Synchronization

/// The user's merchant-to-category mappings, read from the ledger once and again after each
/// change, so that every posted message does not read them.
final class CategoryMappingCache: Sendable {
    private let ledger: Ledger
    private let cached = Mutex<[CategoryMapping]?>(nil)

    init(ledger: Ledger) {
        self.ledger = ledger
    }

    /// The mappings now.
    func mappings() throws -> [CategoryMapping] {
        if let known = cached.withLock({ $0 }) { return known }
        let read = try ledger.categoryMappings()
        cached.withLock { $0 = read }
        return read
    }

    /// Forgets the mappings: the next read goes to the ledger.
    func invalidate() {
        cached.withLock { $0 = nil }
    }

    /// The outcome with a user's mapping applied to its transaction's category, when one
    /// matches its merchant: the user's mappings come before the rules' tables.
    func apply(to outcome: ParseOutcome) throws -> ParseOutcome {
        guard case .transaction(var transaction) = outcome,
              let mapping = try mappings().mapping(for: transaction.merchant) else { return outcome }
        transaction.category = mapping.category
        transaction.subcategory = mapping.subcategory
        transaction.categoryRow = mapping.rowID
        return .transaction(transaction)
    }
}
