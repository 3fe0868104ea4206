import Foundation
import GRDB
import SpendlexEngine
import SpendlexRules

/// Which stored transactions to read.
public struct TransactionQuery: Sendable, Equatable {
    /// The first day, inclusive; nil: from the start.
    public var from: LocalDate?
    /// The last day, inclusive; nil: to the end.
    public var to: LocalDate?
    /// Whether duplicates (rows linked to a primary by `duplicate_of`) are read too.
    public var includeDuplicates: Bool
    /// Only this category ("Uncategorized": those without one).
    public var category: String? = nil
    /// Only the card or account ending in these digits.
    public var accountLast4: String? = nil
    /// Only transactions found by this full-text search (`SearchQuery`, every word a prefix) in their
    /// merchant, category, note, or their message's subject, text or sender.
    public var text: String? = nil
    /// Only this status: ok, review or pending.
    public var status: Transaction.Status? = nil
    /// Only transactions whose merchant contains this text (any case).
    public var merchant: String? = nil
    /// Only amounts of at least this much (in the transaction's own currency).
    public var minAmount: Decimal? = nil
    /// Only amounts of at most this much.
    public var maxAmount: Decimal? = nil
    /// Only this kind (purchase, refund, transfer, ...).
    public var kind: String? = nil
    /// Only money going this way.
    public var direction: Direction? = nil
    /// Newest first (by date, time, id) instead of oldest first.
    public var newestFirst = false
    /// At most this many; nil: all.
    public var limit: Int? = nil
    /// Skip this many first (with `limit`, for paging).
    public var offset = 0

    /// Primaries only, every date, unless told otherwise. With a range, transactions without
    /// a date are left out (they belong to no day of it).
    public init(from: LocalDate? = nil, to: LocalDate? = nil, includeDuplicates: Bool = false) {
        self.from = from
        self.to = to
        self.includeDuplicates = includeDuplicates
    }
}

extension Ledger {
    /// The stored transactions that `query` selects, ordered by date, time and ledger id;
    /// transactions without a date come last, without a time first in their day.
    public func transactions(_ query: TransactionQuery = TransactionQuery()) throws -> [StoredTransaction] {
        let (filter, arguments) = Self.filter(query)
        let order = query.newestFirst ? "date IS NULL, date DESC, time DESC, id DESC" : "date IS NULL, date, time, id"
        let page = query.limit.map { "LIMIT \(max(0, $0)) OFFSET \(max(0, query.offset))" } ?? ""
        return try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.transactionColumns) FROM transactions \(filter)
                ORDER BY \(order) \(page)
                """, arguments: arguments).map(Self.storedTransaction)
        }
    }

    /// How many transactions `query` selects, leaving its `limit` and `offset` aside.
    public func count(_ query: TransactionQuery) throws -> Int {
        let (filter, arguments) = Self.filter(query)
        return try pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions \(filter)", arguments: arguments) ?? 0
        }
    }

    /// `text` for a LIKE pattern with `ESCAPE '\\'`: its own % and _ taken literally.
    private static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// The WHERE clause of a query and its arguments.
    private static func filter(_ query: TransactionQuery) -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if !query.includeDuplicates { conditions.append("duplicate_of IS NULL") }
        if let from = query.from {
            conditions.append("date >= ?")
            arguments.append(from.description)
        }
        if let to = query.to {
            conditions.append("date <= ?")
            arguments.append(to.description)
        }
        if let category = query.category {
            conditions.append("COALESCE(category, ?) = ?")
            arguments += [StoredTransaction.uncategorized, category]
        }
        if let last4 = query.accountLast4 {
            conditions.append("account_last4 = ?")
            arguments.append(last4)
        }
        if let text = query.text, let match = SearchQuery(text).match {
            conditions.append("""
                message_id IN (SELECT id FROM messages WHERE rowid IN (SELECT rowid FROM search_index WHERE search_index MATCH ?))
                """)
            arguments.append(match)
        }
        if let status = query.status {
            conditions.append("status = ?")
            arguments.append(status.rawValue)
        }
        if let merchant = query.merchant, !merchant.isEmpty {
            conditions.append("merchant LIKE ? ESCAPE '\\'")
            arguments.append("%\(likeEscaped(merchant))%")
        }
        // Amounts are compared as SQLite REALs: exact for amounts of up to 15 significant digits
        // (any two such decimals convert to two doubles in the same order, DBL_DIG being 15), which
        // every amount a bank states is. Only the comparison is in floating point; no amount is.
        if let minimum = query.minAmount {
            conditions.append("CAST(amount_value AS REAL) >= CAST(? AS REAL)")
            arguments.append("\(minimum)")
        }
        if let maximum = query.maxAmount {
            conditions.append("CAST(amount_value AS REAL) <= CAST(? AS REAL)")
            arguments.append("\(maximum)")
        }
        if let kind = query.kind {
            conditions.append("kind = ?")
            arguments.append(kind)
        }
        if let direction = query.direction {
            conditions.append("direction = ?")
            arguments.append(direction.rawValue)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return (filter, StatementArguments(arguments))
    }

    /// The columns `storedTransaction(_:)` reads.
    static let transactionColumns = """
        id, message_id, source_kind, sender, received_at, file, byte_offset, rule, bank, direction, kind, amount,
        amount_value, currency, date, time, merchant, account_type, account_last4, balance, reference, channel,
        category, subcategory, confidence, status, idempotency_key, duplicate_of, duplicate_reason, category_source,
        note, merchant_raw, merchant_source, not_duplicate, learned_category, learned_subcategory, learned_probability,
        category_probability,
        (SELECT card_kind FROM accounts WHERE accounts.id = transactions.account_id) AS card_kind
        """

    /// A row of `transactions` as a value; exact decimals parsed from their canonical text.
    static func storedTransaction(_ row: Row) -> StoredTransaction {
        let amountText: String? = row["amount"]
        let amountValue: String? = row["amount_value"]
        let balanceText: String? = row["balance"]
        let accountType: String? = row["account_type"]
        let last4: String? = row["account_last4"]
        let cardKind = (row["card_kind"] as String?).flatMap(CardKind.init(rawValue:))
        let account = accountType.flatMap { type in last4.map { StoredTransaction.Account(type: type, last4: $0, cardKind: cardKind) } }
        return StoredTransaction(
            id: row["id"], messageID: row["message_id"],
            messageChannel: MessageChannel(rawValue: row["source_kind"]) ?? .unknown,
            sender: row["sender"], receivedAt: (row["received_at"] as String?).flatMap(date(from:)),
            file: row["file"], offset: row["byte_offset"], rule: row["rule"], bank: row["bank"],
            direction: (row["direction"] as String?).flatMap(Direction.init(rawValue:)),
            kind: (row["kind"] as String?).flatMap(TransactionKind.init(rawValue:)),
            amount: (amountValue ?? amountText).flatMap(exactDecimal), amountText: amountText,
            currency: row["currency"], date: (row["date"] as String?).flatMap(LocalDate.init(iso:)),
            time: (row["time"] as String?).flatMap(LocalTime.init(iso:)), merchant: row["merchant"],
            account: account, balance: balanceText.flatMap(exactDecimal), balanceText: balanceText,
            reference: row["reference"], channel: row["channel"], category: row["category"],
            subcategory: row["subcategory"], confidence: row["confidence"],
            status: Transaction.Status(rawValue: row["status"]) ?? .review,
            idempotencyKey: row["idempotency_key"], duplicateOf: row["duplicate_of"],
            duplicateReason: row["duplicate_reason"], categorySource: row["category_source"], note: row["note"],
            merchantRaw: row["merchant_raw"], merchantSource: row["merchant_source"],
            notDuplicate: (row["not_duplicate"] as Int?) == 1,
            learned: (row["learned_category"] as String?).map { category in
                StoredTransaction.LearnedCategory(label: CategoryModel.Label(category: category, subcategory: row["learned_subcategory"]),
                                                  probability: row["learned_probability"] as Double? ?? 0)
            },
            categoryProbability: row["category_probability"])
    }

    /// A plain decimal string ("1250", "-12.50") as an exact `Decimal`; nil for anything else.
    static func exactDecimal(_ text: String) -> Decimal? {
        var digits = 0, points = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "0"..."9": digits += 1
            case ".": points += 1
            case "-" where index == 0, "+" where index == 0: continue
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
