import Foundation

/// Account names for beancount and ledger-cli journals.
///
/// Beancount is the stricter of the two: a name is a root (`Assets`, `Liabilities`,
/// `Equity`, `Income`, `Expenses`) and components that each start with a capital letter or
/// a digit and hold only letters, digits and dashes. Every name made here follows it, in
/// ASCII: "Food & Dining" becomes `Food-Dining`, "Café" `Cafe`.
public enum JournalAccountName {
    /// The counter account of transfers between the user's own accounts.
    public static let transfers = "Equity:Transfers"

    /// The account of a card or bank account: `Liabilities:CreditCard:Hdfc:0000` for a credit
    /// card (or a card of no known kind), `Assets:Bank:Hdfc:Debit-Card-1234` for a debit card
    /// (`JournalAccounts` posts it to the bank account it draws on, where it can tell which),
    /// `Assets:Prepaid-Card:Pluxee:1345` for a prepaid card, `Assets:Bank:Icici:000` for an
    /// account, `Assets:Bank:Chase:Unknown` when the message named neither.
    public static func account(bank: String, account: StoredTransaction.Account?) -> String {
        let bankName = component(bank)
        guard let account else { return "Assets:Bank:\(bankName):Unknown" }
        let mask = component(account.last4)
        switch (account.type, account.cardKind) {
        case ("card", .debit?): return "Assets:Bank:\(bankName):Debit-Card-\(mask)"
        case ("card", .prepaid?): return "Assets:Prepaid-Card:\(bankName):\(mask)"
        case ("card", _): return "Liabilities:CreditCard:\(bankName):\(mask)"
        case ("account", _): return "Assets:Bank:\(bankName):\(mask)"
        default: return "Assets:\(component(account.type)):\(bankName):\(mask)"
        }
    }

    /// The account a transaction's money comes from or goes to: `Expenses:Food-Dining:Restaurants`,
    /// `Income:Salary`, `Expenses:Uncategorized`, `Equity:Transfers`.
    public static func counterAccount(flow: MoneyFlow, category: String?, subcategory: String?) -> String {
        let root: String
        switch flow {
        case .transfer, .declined: return transfers  // .declined: never posted (JournalEntry leaves it out)
        case .expense, .refund: root = "Expenses"
        case .income: root = "Income"
        }
        var name = root + ":" + component(category ?? StoredTransaction.uncategorized)
        if category != nil, let subcategory, !subcategory.isEmpty { name += ":" + component(subcategory) }
        return name
    }

    /// One component: words of ASCII letters and digits (accents folded away), each starting
    /// with a capital, joined by dashes; "Other" when nothing is left.
    public static func component(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let words = folded.unicodeScalars.split { !($0.isASCII && CharacterSet.alphanumerics.contains($0)) }
            .map { String(String.UnicodeScalarView($0)) }
        guard !words.isEmpty else { return "Other" }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}
