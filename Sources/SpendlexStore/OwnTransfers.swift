import Foundation
import SpendlexEngine
import SpendlexRules

/// Money moved between two of a person's own accounts, matched on both sides: the debit on one
/// account (a transfer out, a card bill paid from the bank account) and the credit of the same
/// amount and currency on another account the ledger holds (the transfer in, the payment the
/// card received), at most three days apart. Both sides are transfers (`MoneyFlow.transfer`):
/// neither spending nor income, in reports, journals and answers alike.
///
/// One side must say it is a transfer or a card payment by its kind (a purchase and a salary of
/// the same amount are not a transfer), and neither may be a refund, a reversal, a decline,
/// interest, a salary or a dividend. Each debit takes the nearest credit in time not yet taken.
public enum OwnTransfers {
    static let transferKinds: Set<TransactionKind> = [.transfer, .cardPayment, .billPayment]
    static let neverKinds: Set<TransactionKind> = [.refund, .reversal, .declined, .interest, .salary, .dividend, .cashback]

    /// The ledger ids of both sides of each matched transfer, each mapped to the other side.
    public static func pairs(_ transactions: [StoredTransaction]) -> [Int64: Int64] {
        func eligible(_ t: StoredTransaction) -> Bool {
            t.duplicateOf == nil && t.account != nil && t.amount != nil && t.currency != nil && t.date != nil
                && !(t.kind.map(neverKinds.contains) ?? false)
        }
        func accountKey(_ t: StoredTransaction) -> String { "\(t.bank) \(t.account!.type) \(t.account!.last4)" }
        let credits = transactions.filter { $0.direction == .credit && eligible($0) }
        var creditsByMoney: [String: [StoredTransaction]] = [:]
        for credit in credits { creditsByMoney["\(credit.amount!) \(credit.currency!)", default: []].append(credit) }
        var paired: [Int64: Int64] = [:]
        let debits = transactions.filter { $0.direction == .debit && eligible($0) }
            .sorted { ($0.date!, $0.id) < ($1.date!, $1.id) }
        for debit in debits {
            let candidates = creditsByMoney["\(debit.amount!) \(debit.currency!)"] ?? []
            let day = debit.date!.daysSinceEpoch
            let best = candidates.filter { credit in
                paired[credit.id] == nil && accountKey(credit) != accountKey(debit)
                    && abs(credit.date!.daysSinceEpoch - day) <= 3
                    && (debit.kind.map(transferKinds.contains) ?? false || credit.kind.map(transferKinds.contains) ?? false)
            }.min { (abs($0.date!.daysSinceEpoch - day), $0.id) < (abs($1.date!.daysSinceEpoch - day), $1.id) }
            if let best {
                paired[debit.id] = best.id
                paired[best.id] = debit.id
            }
        }
        return paired
    }
}

extension MoneyFlow {
    /// The flow of `t`, a transfer when it is one side of a transfer between own accounts
    /// (`OwnTransfers.pairs`); nil without a direction.
    public init?(_ t: StoredTransaction, ownTransfers: [Int64: Int64]) {
        guard let direction = t.direction else { return nil }
        let flow = MoneyFlow(direction: direction, kind: t.kind)
        self = ownTransfers[t.id] != nil && flow != .declined ? .transfer : flow
    }
}
