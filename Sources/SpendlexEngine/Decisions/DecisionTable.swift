import Foundation
import PCRE2
import SpendlexRules

/// What a transaction offers to a decision table. Absent values match only rows without
/// the matching condition.
public struct CategoryInput: Sendable, Equatable {
    /// The merchant or counterparty, as written or normalized (`SWIGGY BANGALORE`).
    public var merchant: String?
    /// ISO 18245 merchant category code (`5411`), when the source gives one.
    public var mcc: Int?
    /// The amount, exact.
    public var amount: Decimal?
    /// Debit or credit.
    public var direction: Direction?
    /// What kind of transaction.
    public var kind: TransactionKind?
    /// The bank's id (`hdfc`).
    public var bank: String?
    /// The card's or account's last digits.
    public var last4: String?
    /// `card` or `account`.
    public var accountType: String?

    /// Creates an input.
    public init(merchant: String? = nil, mcc: Int? = nil, amount: Decimal? = nil, direction: Direction? = nil,
                kind: TransactionKind? = nil, bank: String? = nil, last4: String? = nil, accountType: String? = nil) {
        self.merchant = merchant
        self.mcc = mcc
        self.amount = amount
        self.direction = direction
        self.kind = kind
        self.bank = bank
        self.last4 = last4
        self.accountType = accountType
    }

    /// Which values are present, as `CompiledRow.Needs` bits.
    var present: UInt8 {
        var bits: UInt8 = 0
        if merchant != nil { bits |= CompiledRow.Needs.merchant }
        if mcc != nil { bits |= CompiledRow.Needs.mcc }
        if amount != nil { bits |= CompiledRow.Needs.amount }
        if direction != nil { bits |= CompiledRow.Needs.direction }
        if kind != nil { bits |= CompiledRow.Needs.kind }
        if bank != nil { bits |= CompiledRow.Needs.bank }
        if last4 != nil { bits |= CompiledRow.Needs.last4 }
        if accountType != nil { bits |= CompiledRow.Needs.accountType }
        return bits
    }
}

/// A row, compiled: outputs and the conditions other than the merchant's, checked in Swift.
///
/// A class: a struct of a dozen arrays and strings was copied, reference by reference, each
/// time a row was looked at, which cost more than the merchant match.
final class CompiledRow: Sendable {
    let id: String
    let rule: CategoryRow
    let category: String?
    let subcategory: String?
    let tags: [String]
    let priority: Int
    let hasMerchant: Bool
    let isCatchAll: Bool
    let mcc: [ClosedRange<Int>]
    let direction: Direction?
    let kinds: [TransactionKind]
    let banks: [String]
    let last4: [String]
    let accountType: String?
    let amountMin: Decimal?
    let amountMax: Decimal?
    /// The input values the row's conditions need (`Needs` bits): a row whose needs the input
    /// lacks is passed over without looking at it (an MCC table, for alerts without an MCC).
    let needs: UInt8

    /// Bits of `needs` and `CategoryInput.present`.
    enum Needs {
        static let merchant: UInt8 = 1, mcc: UInt8 = 2, amount: UInt8 = 4, direction: UInt8 = 8
        static let kind: UInt8 = 16, bank: UInt8 = 32, last4: UInt8 = 64, accountType: UInt8 = 128
    }

    init(_ row: CategoryRow) {
        id = row.id.value
        rule = row
        category = row.category?.value
        subcategory = row.subcategory?.value
        tags = row.tags.map(\.value)
        priority = row.priority?.value ?? 0
        hasMerchant = row.conditions.merchant != nil
        isCatchAll = row.isCatchAll
        mcc = row.conditions.mcc.map(\.value)
        direction = row.conditions.direction?.value
        kinds = row.conditions.kinds.map(\.value)
        banks = row.conditions.banks.map(\.value)
        last4 = row.conditions.account?.last4.map(\.value) ?? []
        accountType = row.conditions.account?.type?.value
        amountMin = row.conditions.amount?.min?.value
        amountMax = row.conditions.amount?.max?.value
        var needs: UInt8 = 0
        if hasMerchant { needs |= Needs.merchant }
        if !mcc.isEmpty { needs |= Needs.mcc }
        if amountMin != nil || amountMax != nil { needs |= Needs.amount }
        if direction != nil { needs |= Needs.direction }
        if !kinds.isEmpty { needs |= Needs.kind }
        if !banks.isEmpty { needs |= Needs.bank }
        if !last4.isEmpty { needs |= Needs.last4 }
        if accountType != nil { needs |= Needs.accountType }
        self.needs = needs
    }

    /// Whether every condition but the merchant's holds.
    @inline(__always)
    func otherConditionsHold(_ input: CategoryInput) -> Bool {
        if let direction, input.direction != direction { return false }
        if !kinds.isEmpty { guard let kind = input.kind, kinds.contains(kind) else { return false } }
        if !mcc.isEmpty { guard let code = input.mcc, mcc.contains(where: { $0.contains(code) }) else { return false } }
        if amountMin != nil || amountMax != nil {
            guard let value = input.amount else { return false }
            if let amountMin, value < amountMin { return false }
            if let amountMax, value >= amountMax { return false }
        }
        if !banks.isEmpty { guard let bank = input.bank, banks.contains(bank) else { return false } }
        if !last4.isEmpty { guard let digits = input.last4, last4.contains(digits) else { return false } }
        if let accountType, input.accountType != accountType { return false }
        return true
    }
}

/// One decision table, compiled: its rows and one merchant matcher for all of them.
/// Immutable and shared by every worker; matching uses the caller's `MatchScratch`.
public final class DecisionTable: Sendable {
    /// Which rows a table's evaluation picked.
    enum Hit: Equatable {
        /// No row matched and the table has no catch-all.
        case none
        /// One row decided (index into `rows`).
        case row(Int)
        /// Several rows: `collect`, or a `unique` table whose rows overlap (the first decides).
        case rows([Int])
        /// No row matched: the catch-all row's output.
        case catchAll(Int)

        var indices: [Int] {
            switch self {
            case .none: []
            case .row(let index), .catchAll(let index): [index]
            case .rows(let indices): indices
            }
        }
    }

    /// The table's id.
    public let id: String
    /// Its hit policy.
    public let policy: HitPolicy
    /// The table as written.
    public let rule: CategoryTable
    let rows: [CompiledRow]
    let merchant: MerchantMatcher
    /// Rows without a merchant condition, in order: catch-alls only under `first`, where a row's
    /// place is what it means (a catch-all that is not last hides the rows after it).
    let rowsWithoutMerchant: [Int]
    /// The first row without conditions: the table's default.
    let catchAll: Int?
    /// Whether any row adds tags.
    let hasTags: Bool
    /// The needs every row with conditions shares: an input that lacks one of them can only
    /// get the catch-all.
    let commonNeeds: UInt8

    init(_ table: CategoryTable, diagnostics: inout [Diagnostic]) {
        id = table.id.value
        policy = table.hitPolicy.value
        rule = table
        let rows = table.rows.map(CompiledRow.init)
        let policy = table.hitPolicy.value
        self.rows = rows
        merchant = MerchantMatcher(rows: table.rows, diagnostics: &diagnostics)
        rowsWithoutMerchant = rows.indices.filter { !rows[$0].hasMerchant && (policy == .first || !rows[$0].isCatchAll) }
        catchAll = rows.firstIndex { $0.isCatchAll }
        hasTags = rows.contains { !$0.tags.isEmpty }
        commonNeeds = rows.filter { !$0.isCatchAll }.reduce(UInt8.max) { $0 & $1.needs }
    }

    /// Applies the table. `found`, when given, hears every merchant keyword or pattern that matched.
    func evaluate(_ input: CategoryInput, scratch: MatchScratch,
                  found: ((MerchantMatcher.Hit, Range<Int>) -> Void)? = nil) -> Hit {
        let present = input.present
        if commonNeeds & present != commonNeeds {
            return catchAll.map { .catchAll($0) } ?? .none
        }
        let words = (rows.count + 63) / 64
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { bits in
            bits.initialize(repeating: 0)
            if let merchant = input.merchant, !self.merchant.isEmpty {
                // A hostile merchant that hits the match limit matches no merchant condition.
                try? self.merchant.visitHits(in: merchant, scratch: scratch) { hit, range in
                    bits[hit.row >> 6] |= 1 << UInt64(hit.row & 63)
                    found?(hit, range)
                }
            }
            return pick(input, present: present, merchantRows: UnsafeBufferPointer(bits))
        }
    }

    /// Applies the hit policy to the rows whose merchant condition matched (`merchantRows`, a
    /// bit set) and the rows without one, visiting candidates in row order.
    private func pick(_ input: CategoryInput, present: UInt8, merchantRows: UnsafeBufferPointer<UInt64>) -> Hit {
        var matched: [Int] = []
        var best: Int?
        var word = 0
        var bitsLeft = merchantRows.isEmpty ? 0 : merchantRows[0]
        var other = 0
        while true {
            // The next candidate: the lower of the next merchant hit and the next row without a merchant.
            while bitsLeft == 0 && word + 1 < merchantRows.count {
                word += 1
                bitsLeft = merchantRows[word]
            }
            let nextHit = bitsLeft == 0 ? Int.max : word << 6 + bitsLeft.trailingZeroBitCount
            let nextOther = other < rowsWithoutMerchant.count ? rowsWithoutMerchant[other] : Int.max
            let index = min(nextHit, nextOther)
            if index == Int.max { break }
            if index == nextHit { bitsLeft &= bitsLeft - 1 } else { other += 1 }

            let row = rows[index]
            if row.isCatchAll { return .catchAll(index) }  // only under `first`
            guard row.needs & present == row.needs, row.otherConditionsHold(input) else { continue }
            switch policy {
            case .first: return .row(index)
            case .priority:
                if best.map({ rows[$0].priority < row.priority }) ?? true { best = index }
            case .unique, .collect: matched.append(index)
            }
        }
        if let best { return .row(best) }
        if matched.count == 1 { return .row(matched[0]) }
        if !matched.isEmpty { return .rows(matched) }
        return catchAll.map { .catchAll($0) } ?? .none
    }
}
