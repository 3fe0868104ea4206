import Foundation

/// A purchase the user is about to make, as the advisor sees it once resolved.
public struct Purchase: Sendable, Equatable {
    /// The merchant's name, as written (`Whole Foods`).
    public var merchant: String?
    /// The category the purchase codes as (`Food & Dining`).
    public var category: String?
    /// The subcategory it codes as (`Groceries`).
    public var subcategory: String?
    /// The category the user said (`groceries`), resolved to a declared name; may differ from
    /// how the merchant codes.
    public var statedCategory: String?
    /// Merchant category code (four digits), when known.
    public var mcc: String?
    /// Amount in `currency`; nil when the user gave none (values are then shown per 100).
    public var amount: Decimal?
    /// ISO 4217 currency of the amount; nil means the card's own.
    public var currency: String?
    /// Whether the purchase is made online.
    public var online = false

    /// Creates a purchase.
    public init(merchant: String? = nil, category: String? = nil, subcategory: String? = nil,
                statedCategory: String? = nil, mcc: String? = nil, amount: Decimal? = nil,
                currency: String? = nil, online: Bool = false) {
        self.merchant = merchant
        self.category = category
        self.subcategory = subcategory
        self.statedCategory = statedCategory
        self.mcc = mcc
        self.amount = amount
        self.currency = currency
        self.online = online
    }

    /// The subcategory, else the category, else `Uncategorized`: how outputs name it.
    public var categoryLabel: String { subcategory ?? category ?? "Uncategorized" }
}

/// What the user asked, before categories are resolved: the parsed query and explicit flags.
public struct PurchaseRequest: Sendable, Equatable {
    /// The merchant (`--merchant`, or after "at"/"en" in the query).
    public var merchant: String?
    /// An explicit category or subcategory (`--category`): it wins over the merchant's.
    public var category: String?
    /// Words that may name a category ("groceries", "cena").
    public var words: String = ""
    /// An explicit MCC (`--mcc`).
    public var mcc: String?
    /// The amount.
    public var amount: Decimal?
    /// The currency of the amount.
    public var currency: String?
    /// "online", "en línea" in the query, or `--online`.
    public var online = false

    /// Creates a request.
    public init(merchant: String? = nil, category: String? = nil, words: String = "", mcc: String? = nil,
                amount: Decimal? = nil, currency: String? = nil, online: Bool = false) {
        self.merchant = merchant
        self.category = category
        self.words = words
        self.mcc = mcc
        self.amount = amount
        self.currency = currency
        self.online = online
    }
}
