import Foundation

/// The journal account each transaction posts to, over a whole journal: a debit card draws on a
/// bank account, and when the card's bank has exactly one account in the journal's transactions,
/// the card's spending posts there (`Assets:Bank:Hdfc:5521`), so that the account's balance
/// assertions see it. With several accounts at that bank, which one the card draws on is not
/// known, and the card keeps an asset account of its own (`Assets:Bank:Hdfc:Debit-Card-1234`).
/// Every other card or account posts to `JournalAccountName.account(bank:account:)`.
struct JournalAccounts: Sendable {
    /// Per bank, its one account's journal name (banks with several accounts are not here).
    private let soleAccount: [String: String]
    /// The bank accounts a debit card's spending posts to. Their alerts' balances are not
    /// asserted: an account alert's balance does not count a card payment made after it on the
    /// same day, which the journal posts to the account.
    let drawnOnByCards: Set<String>

    init(_ transactions: [StoredTransaction]) {
        var accounts: [String: Set<String>] = [:]
        for t in transactions where t.duplicateOf == nil {
            guard let account = t.account, account.type == "account" else { continue }
            accounts[t.bank, default: []].insert(account.last4)
        }
        var sole: [String: String] = [:]
        for (bank, masks) in accounts where masks.count == 1 {
            sole[bank] = JournalAccountName.account(bank: bank, account: .init(type: "account", last4: masks.first!))
        }
        soleAccount = sole
        drawnOnByCards = Set(transactions.compactMap { t in
            guard t.duplicateOf == nil, let account = t.account, account.type == "card", account.cardKind == .debit else { return nil }
            return sole[t.bank]
        })
    }

    /// The account `t` posts to.
    func name(of t: StoredTransaction) -> String {
        if let account = t.account, account.type == "card", account.cardKind == .debit, let drawnOn = soleAccount[t.bank] {
            return drawnOn
        }
        return JournalAccountName.account(bank: t.bank, account: t.account)
    }
}
