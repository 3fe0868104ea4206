import Foundation
import SpendlexRules

extension CardAdvisor {
    /// The advisor over a compiled rule set: its card files, point programs and categories.
    /// Merchants are resolved by the categories file's decision tables when it has some (as
    /// parsed transactions are categorized), else by the categories' keywords.
    public init(rules compiled: CompiledRuleSet) {
        let categories = CategoryList.of(compiled.rules)
        let keywords = KeywordCategoryResolver(categories: categories)
        let resolver: any PurchaseCategoryResolver = compiled.categorizer.map {
            DecisionTableCategoryResolver(categorizer: $0, keywords: keywords)
        } ?? keywords
        self.init(table: RewardTable(compiled.rules, categories: categories), resolver: resolver)
    }
}

extension PurchaseRequest {
    /// A request from a plain-words query (English or Spanish), with explicit fields winning
    /// over what the query says. `amount` is money as written ("150", "$150", "200 EUR");
    /// nil when it is not an amount (check it first with `PurchaseQueryParser.money`).
    /// A card number in the query or the merchant is masked first: it is no amount, and the
    /// request is echoed in replies and explanations.
    public init(query: String?, merchant: String? = nil, category: String? = nil, mcc: String? = nil,
                amount: String? = nil, currency: String? = nil, online: Bool = false) {
        self = query.map { PurchaseQueryParser.parse(CardNumberMasker.mask($0)) } ?? PurchaseRequest()
        if let merchant { self.merchant = CardNumberMasker.mask(merchant) }
        if let category { self.category = category }
        if let mcc { self.mcc = mcc }
        if let amount, let (value, code) = PurchaseQueryParser.money(amount) {
            self.amount = value
            if let code { self.currency = code }
        }
        if let currency { self.currency = currency.uppercased() }
        if online { self.online = true }
    }
}
