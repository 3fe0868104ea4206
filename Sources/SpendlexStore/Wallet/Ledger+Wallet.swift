import Foundation
import GRDB
import SpendlexEngine
import SpendlexRules

/// A card of the user's wallet as the ledger keeps it (for the HTTP service's wallet).
public struct WalletCardRecord: Sendable, Equatable {
    /// The row id in `wallet_cards`.
    public var id: Int64
    /// What the card is: its card file's id, and how the user knows it.
    public var fields: WalletCardFields
    /// Spending so far set by hand, by reward group id: wins over the ledger's sums up to its day.
    public var spent: [String: SpendingCorrection]
}

/// The fields of a wallet card a user sets.
public struct WalletCardFields: Sendable, Equatable {
    /// The card file's id (`amex-gold`).
    public var card: String
    /// The last four digits, as the ledger stores them: the ledger's spending on them counts.
    public var last4: String?
    /// What the user calls it.
    public var nickname: String?
    /// Card-membership anniversary, YYYY-MM-DD.
    public var anniversary: String?
    /// Day of the month the statement closes, 1...31.
    public var statementDay: Int?
    /// Rotating quarters activated (`2026-Q4`).
    public var activated: [String]

    /// A card's fields.
    public init(card: String, last4: String? = nil, nickname: String? = nil, anniversary: String? = nil,
                statementDay: Int? = nil, activated: [String] = []) {
        self.card = card
        self.last4 = last4
        self.nickname = nickname
        self.anniversary = anniversary
        self.statementDay = statementDay
        self.activated = activated
    }
}

extension Ledger {
    /// The wallet's cards in the order they were added.
    public func walletCards() throws -> [WalletCardRecord] {
        try pool.read { db in
            let spending = try Row.fetchAll(db, sql: "SELECT card_id, reward_group, amount, as_of FROM wallet_spending")
            var spent: [Int64: [String: SpendingCorrection]] = [:]
            for row in spending {
                guard let amount = Self.exactDecimal(row["amount"]), let day = LocalDay(iso: row["as_of"]) else { continue }
                spent[row["card_id"], default: [:]][row["reward_group"]] = SpendingCorrection(amount: amount, asOf: day)
            }
            return try Row.fetchAll(db, sql: """
                SELECT id, card, last4, nickname, anniversary, statement_day, activated FROM wallet_cards ORDER BY id
                """).map { row in
                let activated: String = row["activated"]
                return WalletCardRecord(
                    id: row["id"],
                    fields: WalletCardFields(card: row["card"], last4: row["last4"], nickname: row["nickname"],
                                             anniversary: row["anniversary"], statementDay: row["statement_day"],
                                             activated: activated.split(separator: ",").map(String.init)),
                    spent: spent[row["id"]] ?? [:])
            }
        }
    }

    /// Adds a card to the wallet; returns it.
    public func addWalletCard(_ fields: WalletCardFields) throws -> WalletCardRecord {
        let fields = fields.maskingCardNumbers()
        return try pool.write { db in
            let now = Self.now()
            try db.execute(sql: """
                INSERT INTO wallet_cards (card, last4, nickname, anniversary, statement_day, activated, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [fields.card, fields.last4, fields.nickname, fields.anniversary, fields.statementDay,
                                 fields.activated.joined(separator: ","), now, now])
            return WalletCardRecord(id: db.lastInsertedRowID, fields: fields, spent: [:])
        }
    }

    /// Replaces a wallet card's fields; false when there is no such card.
    @discardableResult
    public func updateWalletCard(id: Int64, _ fields: WalletCardFields) throws -> Bool {
        let fields = fields.maskingCardNumbers()
        return try pool.write { db in
            try db.execute(sql: """
                UPDATE wallet_cards SET card = ?, last4 = ?, nickname = ?, anniversary = ?, statement_day = ?, activated = ?,
                    updated_at = ? WHERE id = ?
                """, arguments: [fields.card, fields.last4, fields.nickname, fields.anniversary, fields.statementDay,
                                 fields.activated.joined(separator: ","), Self.now(), id])
            return db.changesCount > 0
        }
    }

    /// Removes a card and its spending corrections; false when there is no such card.
    @discardableResult
    public func deleteWalletCard(id: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM wallet_spending WHERE card_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM wallet_cards WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Sets a card's spending so far by hand, by reward group; replaces the corrections it had
    /// (an empty dictionary clears them, and the ledger's sums count again). False when there
    /// is no such card.
    @discardableResult
    public func setWalletSpending(card id: Int64, _ spent: [String: SpendingCorrection]) throws -> Bool {
        try pool.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM wallet_cards WHERE id = ?", arguments: [id]) == 1 else {
                return false
            }
            let now = Self.now()
            try db.execute(sql: "DELETE FROM wallet_spending WHERE card_id = ?", arguments: [id])
            for (group, figure) in spent.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: """
                    INSERT INTO wallet_spending (card_id, reward_group, amount, as_of, updated_at) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [id, group, "\(figure.amount)", figure.asOf.description, now])
            }
            return true
        }
    }

    /// The stored preferences by name.
    public func preferences() throws -> [String: String] {
        try pool.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, value FROM preferences").map {
                ($0["name"] as String, $0["value"] as String)
            })
        }
    }

    /// Sets preferences (nil removes one); the others stay.
    public func setPreferences(_ values: [String: String?]) throws {
        try pool.write { db in
            for (name, value) in values {
                if let value {
                    try db.execute(sql: """
                        INSERT INTO preferences (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value
                        """, arguments: [name, value])
                } else {
                    try db.execute(sql: "DELETE FROM preferences WHERE name = ?", arguments: [name])
                }
            }
        }
    }
}

extension WalletCardFields {
    /// The fields with any card number in the nickname masked: only the last 4 digits are kept.
    func maskingCardNumbers() -> WalletCardFields {
        var fields = self
        fields.nickname = nickname.map(CardNumberMasker.mask)
        return fields
    }
}
