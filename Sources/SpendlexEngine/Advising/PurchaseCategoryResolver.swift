import Foundation
import PCRE2
import SpendlexRules

/// A category (and MCC) a merchant or a word resolves to.
public struct ResolvedCategory: Sendable, Equatable {
    /// The top-level category (`Food & Dining`).
    public var category: String
    /// The subcategory (`Groceries`), when known.
    public var subcategory: String?
    /// The merchant category code most such purchases carry, when known.
    public var mcc: String?
    /// The merchant's display name, when the resolution came from a merchant (`Whole Foods`).
    public var merchant: String?

    /// Creates a resolution.
    public init(category: String, subcategory: String? = nil, mcc: String? = nil, merchant: String? = nil) {
        self.category = category
        self.subcategory = subcategory
        self.mcc = mcc
        self.merchant = merchant
    }
}

/// Turns a merchant name or words into a category. The keyword implementation below stands in
/// until the categorization tables (`rules/categories.yaml` and its mappings) take its place.
public protocol PurchaseCategoryResolver: Sendable {
    /// How purchases at this merchant usually code; nil when the merchant is unknown.
    func category(forMerchant merchant: String) -> ResolvedCategory?
    /// The category that words such as "groceries" or "cena" name; nil when none.
    func category(forWords words: String) -> ResolvedCategory?
    /// A known merchant named somewhere in free text ("Netflix subscription"); nil when none.
    func merchant(in text: String) -> ResolvedCategory?
}

/// A small keyword table: known merchants and category words in English and Spanish.
public struct KeywordCategoryResolver: PurchaseCategoryResolver {
    /// A merchant: the words that name it, its display name, its subcategory and usual MCC.
    struct MerchantEntry: Sendable {
        let keywords: [String]
        let name: String
        let subcategory: String
        let mcc: String
    }

    let categories: CategoryList
    let merchants: [MerchantEntry]
    let words: [(keywords: [String], subcategory: String, mcc: String?)]

    /// The built-in table, checked against `categories`.
    public init(categories: CategoryList = .standard) {
        self.categories = categories
        func m(_ keywords: [String], _ name: String, _ subcategory: String, _ mcc: String) -> MerchantEntry {
            MerchantEntry(keywords: keywords, name: name, subcategory: subcategory, mcc: mcc)
        }
        merchants = [
            m(["whole foods", "wholefds"], "Whole Foods", "Groceries", "5411"),
            m(["trader joe"], "Trader Joe's", "Groceries", "5411"),
            m(["kroger"], "Kroger", "Groceries", "5411"),
            m(["safeway"], "Safeway", "Groceries", "5411"),
            m(["aldi"], "Aldi", "Groceries", "5411"),
            m(["publix"], "Publix", "Groceries", "5411"),
            m(["bigbasket", "big basket"], "BigBasket", "Groceries", "5411"),
            m(["blinkit"], "Blinkit", "Groceries", "5411"),
            m(["dmart", "d-mart"], "DMart", "Superstores", "5311"),
            m(["walmart", "wal-mart"], "Walmart", "Superstores", "5310"),
            m(["target"], "Target", "Superstores", "5310"),
            m(["costco"], "Costco", "Warehouse Clubs", "5300"),
            m(["sam's club", "sams club"], "Sam's Club", "Warehouse Clubs", "5300"),
            m(["bj's", "bjs wholesale"], "BJ's Wholesale Club", "Warehouse Clubs", "5300"),
            m(["amazon"], "Amazon", "Online", "5942"),
            m(["flipkart"], "Flipkart", "Online", "5399"),
            m(["myntra"], "Myntra", "Clothing", "5651"),
            m(["netflix"], "Netflix", "Streaming", "4899"),
            m(["spotify"], "Spotify", "Streaming", "4899"),
            m(["hulu"], "Hulu", "Streaming", "4899"),
            m(["disney+", "disney plus"], "Disney+", "Streaming", "4899"),
            m(["starbucks"], "Starbucks", "Coffee", "5814"),
            m(["uber eats"], "Uber Eats", "Food Delivery", "5812"),
            m(["doordash"], "DoorDash", "Food Delivery", "5812"),
            m(["grubhub"], "Grubhub", "Food Delivery", "5812"),
            m(["swiggy"], "Swiggy", "Food Delivery", "5812"),
            m(["zomato"], "Zomato", "Food Delivery", "5812"),
            m(["uber"], "Uber", "Taxi & Rideshare", "4121"),
            m(["lyft"], "Lyft", "Taxi & Rideshare", "4121"),
            m(["ola"], "Ola", "Taxi & Rideshare", "4121"),
            m(["shell"], "Shell", "Fuel", "5541"),
            m(["chevron"], "Chevron", "Fuel", "5541"),
            m(["exxon"], "Exxon", "Fuel", "5541"),
            m(["indian oil"], "Indian Oil", "Fuel", "5541"),
            m(["cvs"], "CVS", "Pharmacy", "5912"),
            m(["walgreens"], "Walgreens", "Pharmacy", "5912"),
            m(["apollo pharmacy"], "Apollo Pharmacy", "Pharmacy", "5912"),
            m(["delta"], "Delta", "Airlines", "4511"),
            m(["united airlines"], "United Airlines", "Airlines", "4511"),
            m(["american airlines"], "American Airlines", "Airlines", "4511"),
            m(["indigo"], "IndiGo", "Airlines", "4511"),
            m(["air india"], "Air India", "Airlines", "4511"),
            m(["marriott"], "Marriott", "Hotels", "7011"),
            m(["hilton"], "Hilton", "Hotels", "7011"),
            m(["hyatt"], "Hyatt", "Hotels", "7011"),
            m(["hertz"], "Hertz", "Car Rental", "7512"),
            m(["avis"], "Avis", "Car Rental", "7512"),
            m(["amc theatres", "amc"], "AMC Theatres", "Movies", "7832"),
            m(["pvr"], "PVR", "Movies", "7832"),
            m(["ticketmaster"], "Ticketmaster", "Events", "7922"),
            m(["bookmyshow"], "BookMyShow", "Events", "7922"),
            m(["macy's", "macys"], "Macy's", "Department Stores", "5311"),
            m(["nordstrom"], "Nordstrom", "Department Stores", "5311"),
            m(["best buy"], "Best Buy", "Electronics", "5732"),
            m(["croma"], "Croma", "Electronics", "5732"),
            m(["reliance digital"], "Reliance Digital", "Electronics", "5732"),
            m(["old navy"], "Old Navy", "Clothing", "5651"),
            m(["zara"], "Zara", "Clothing", "5651"),
            m(["nobu"], "Nobu", "Restaurants", "5812"),
            m(["chipotle"], "Chipotle", "Restaurants", "5812"),
            m(["mcdonald's", "mcdonalds"], "McDonald's", "Restaurants", "5812"),
        ]
        words = [
            (["groceries", "grocery", "supermarket", "supermercado", "super", "mercado", "despensa", "víveres"], "Groceries", "5411"),
            (["dinner", "lunch", "breakfast", "brunch", "restaurant", "dining", "meal", "cena", "almuerzo", "comida",
              "restaurante", "desayuno"], "Restaurants", "5812"),
            (["coffee", "café", "cafe", "cafetería"], "Coffee", "5814"),
            (["delivery", "takeout", "domicilio"], "Food Delivery", "5812"),
            (["gas", "fuel", "petrol", "gasoline", "gasolina", "combustible", "nafta"], "Fuel", "5541"),
            (["taxi", "rideshare", "ride", "cab"], "Taxi & Rideshare", "4121"),
            (["transit", "metro", "subway", "bus", "train", "tren", "autobús"], "Public Transport", "4111"),
            (["parking", "estacionamiento"], "Parking", "7523"),
            (["toll", "tolls", "peaje"], "Tolls", "4784"),
            (["subscription", "streaming", "suscripción", "suscripcion"], "Streaming", "4899"),
            (["flight", "flights", "airfare", "vuelo", "vuelos", "boleto de avión"], "Airlines", "4511"),
            (["hotel", "hotels", "hotel room"], "Hotels", "7011"),
            (["car rental", "rental car", "alquiler de auto"], "Car Rental", "7512"),
            (["movie", "movies", "cinema", "cine", "película"], "Movies", "7832"),
            (["concert", "tickets", "show", "concierto", "entradas"], "Events", "7922"),
            (["pharmacy", "drugstore", "medicine", "farmacia", "medicinas"], "Pharmacy", "5912"),
            (["electronics", "laptop", "phone", "electrónica"], "Electronics", "5732"),
            (["clothes", "clothing", "shoes", "ropa", "zapatos"], "Clothing", "5651"),
            (["bill", "bills", "utility", "utilities", "electricity", "factura", "luz", "recharge"], "Bills & Utilities", "4900"),
            (["tuition", "school", "colegiatura", "escuela"], "Education", "8299"),
        ]
    }

    public func category(forMerchant merchant: String) -> ResolvedCategory? {
        let text = " " + Self.normalized(merchant) + " "
        for entry in merchants where entry.keywords.contains(where: { text.contains(" " + $0 + " ") }) {
            return resolution(entry.subcategory, mcc: entry.mcc, merchant: entry.name)
        }
        return nil
    }

    public func merchant(in text: String) -> ResolvedCategory? {
        category(forMerchant: text)
    }

    public func category(forWords words: String) -> ResolvedCategory? {
        let text = " " + Self.normalized(words) + " "
        for entry in self.words where entry.keywords.contains(where: { text.contains(" " + $0 + " ") }) {
            return resolution(entry.subcategory, mcc: entry.mcc, merchant: nil)
        }
        return nil
    }

    private func resolution(_ name: String, mcc: String?, merchant: String?) -> ResolvedCategory? {
        guard let resolved = categories.resolve(name) else { return nil }
        if let parent = categories.parent(of: resolved) {
            return ResolvedCategory(category: parent, subcategory: resolved, mcc: mcc, merchant: merchant)
        }
        return ResolvedCategory(category: resolved, subcategory: nil, mcc: mcc, merchant: merchant)
    }

    /// Lower case, punctuation other than `'`, `&`, `+` and `-` turned into spaces.
    static func normalized(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber || "'&+-".contains($0) ? $0 : " " })
            .split(separator: " ").joined(separator: " ")
    }
}

/// Resolves merchants with the categorization tables (`rules/categories.yaml`), the same
/// decision that categorizes parsed transactions; the keyword table still supplies category
/// words ("groceries", "cena"), a merchant's usual MCC, and merchants the tables do not know.
public struct DecisionTableCategoryResolver: PurchaseCategoryResolver {
    let categorizer: Categorizer
    let keywords: KeywordCategoryResolver

    /// A resolver over compiled tables, with the keyword table for what they do not cover.
    public init(categorizer: Categorizer, keywords: KeywordCategoryResolver) {
        self.categorizer = categorizer
        self.keywords = keywords
    }

    public func category(forMerchant merchant: String) -> ResolvedCategory? {
        let known = keywords.category(forMerchant: merchant)
        // One query, one scratch: a recommendation is not a hot path.
        let decision = categorizer.categorize(CategoryInput(merchant: merchant, direction: .debit, kind: .purchase),
                                              scratch: MatchScratch())
        guard !decision.isDefault, let category = decision.category, category != "Uncategorized" else { return known }
        return ResolvedCategory(category: category, subcategory: decision.subcategory, mcc: known?.mcc,
                                merchant: known?.merchant ?? merchant)
    }

    public func category(forWords words: String) -> ResolvedCategory? {
        keywords.category(forWords: words)
    }

    public func merchant(in text: String) -> ResolvedCategory? {
        keywords.merchant(in: text)
    }
}
