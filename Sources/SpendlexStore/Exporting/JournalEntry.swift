import Foundation
import SpendlexEngine
import SpendlexRules

/// One stored transaction as a balanced double-entry transaction, before it is written in
/// a journal's syntax: two postings of the same amount in the same currency, opposite signs.
struct JournalEntry: Sendable, Equatable {
    /// The stored transaction.
    let source: StoredTransaction
    /// The day.
    let date: LocalDate
    /// The merchant, or the bank and kind when the message named none.
    let payee: String
    /// What happened and which rule read it: "purchase by hdfc.card.spend".
    let narration: String
    /// ISO 4217 code: the commodity.
    let currency: String
    /// The amount without sign, a plain decimal string, scale kept ("1234.50").
    let magnitude: String
    /// The card's or bank account's account name.
    let account: String
    /// The expense, income or transfer account on the other side.
    let counterAccount: String
    /// Whether money left `account` (a debit): then `account` is credited, the counter account debited.
    let moneyOut: Bool
    /// Whether the parse can be trusted as is (status ok): `*`, else `!`.
    let cleared: Bool

    /// The entry of `t`, or why it cannot be one (no amount, currency, date or direction).
    /// `ownTransfer`: one side of a transfer between the person's own accounts (`OwnTransfers`),
    /// posted against `Equity:Transfers` whatever its kind.
    /// `account`: the journal account the transaction posts to (`JournalAccounts.name(of:)`).
    static func make(_ t: StoredTransaction, account: String? = nil, ownTransfer: Bool = false) -> Result<JournalEntry, LeftOut> {
        guard let amount = t.amount else { return .failure(LeftOut(t, "no amount")) }
        guard let currency = t.currency, isCommodity(currency) else {
            return .failure(LeftOut(t, t.currency.map { "currency \($0) is not an ISO 4217 code" } ?? "no currency"))
        }
        guard let date = t.date else { return .failure(LeftOut(t, "no date")) }
        guard let direction = t.direction else { return .failure(LeftOut(t, "no direction (debit or credit)")) }
        let kindFlow = MoneyFlow(direction: direction, kind: t.kind)
        let flow = ownTransfer && kindFlow != .declined ? .transfer : kindFlow
        if flow == .declined { return .failure(LeftOut(t, "declined: no money moved")) }
        let what = t.kind?.rawValue ?? direction.rawValue
        return .success(JournalEntry(
            source: t, date: date,
            payee: t.merchant.map(oneLine).flatMap { $0.isEmpty ? nil : $0 } ?? "\(t.bank) \(what)",
            narration: "\(what) by \(t.rule)", currency: currency, magnitude: magnitudeText(amount, written: t.amountText),
            account: account ?? JournalAccountName.account(bank: t.bank, account: t.account),
            counterAccount: JournalAccountName.counterAccount(flow: flow, category: t.category, subcategory: t.subcategory),
            moneyOut: direction == .debit, cleared: t.status == .ok))
    }

    /// A transaction a journal cannot hold, with the reason.
    struct LeftOut: Error, Sendable, Equatable {
        let transaction: StoredTransaction
        let reason: String

        init(_ transaction: StoredTransaction, _ reason: String) {
            self.transaction = transaction
            self.reason = reason
        }

        /// "ledger id 12 (message sms-009): no amount".
        var description: String { "ledger id \(transaction.id) (message \(transaction.messageID)): \(reason)" }
    }

    /// Three capital letters: what both tools accept as a commodity without quoting.
    static func isCommodity(_ code: String) -> Bool {
        code.count == 3 && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }

    /// The amount as written when it is a plain decimal (keeps "1234.50"), else the exact value.
    static func magnitudeText(_ amount: Decimal, written: String?) -> String {
        if let written {
            let unsigned = written.hasPrefix("-") || written.hasPrefix("+") ? String(written.dropFirst()) : written
            if !unsigned.isEmpty, unsigned.first != ".", unsigned.last != ".",
               unsigned.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
               unsigned.filter({ $0 == "." }).count <= 1,
               Decimal(string: unsigned, locale: Locale(identifier: "en_US_POSIX")) == abs(amount) {
                return unsigned
            }
        }
        return "\(abs(amount))"
    }

    /// Whitespace (line breaks, tabs, runs of spaces) folded to single spaces: a journal's
    /// header line ends at a line break, and ledger-cli reads two spaces as the start of a note.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
