/// The closed list of spending categories and their subcategories that card reward rules,
/// wallets and purchases name. A reference is a category (`Food & Dining`) or a subcategory
/// (`Groceries`); subcategory names are unique across categories.
///
/// `rules/categories.yaml` declares the list (`init(declared:)`); `standard` is the same list
/// written in code, for card files checked without a categories file.
public struct CategoryList: Sendable {
    /// A category and its subcategories, in declared order.
    public struct Entry: Sendable, Hashable {
        /// The category's name (`Food & Dining`).
        public let name: String
        /// Its subcategories (`Groceries`, `Restaurants`, ...), possibly none.
        public let subcategories: [String]

        /// Creates an entry.
        public init(name: String, subcategories: [String] = []) {
            self.name = name
            self.subcategories = subcategories
        }
    }

    /// The categories in declared order.
    public let entries: [Entry]
    private let parents: [String: String]
    private let canonical: [String: String]

    /// The list a categories file declares.
    public init(declared: [CategoryDeclaration]) {
        self.init(declared.map { Entry(name: $0.name.value, subcategories: $0.subcategories.map(\.value)) })
    }

    /// The declared list when a categories file was loaded, else `standard`.
    public static func of(_ ruleSet: RuleSet) -> CategoryList {
        ruleSet.categories.isEmpty ? .standard : CategoryList(declared: ruleSet.categories)
    }

    /// A list from entries.
    public init(_ entries: [Entry]) {
        self.entries = entries
        var parents: [String: String] = [:]
        var canonical: [String: String] = [:]
        for entry in entries {
            canonical[Self.key(entry.name)] = entry.name
            for sub in entry.subcategories {
                parents[sub] = entry.name
                canonical[Self.key(sub)] = sub
            }
        }
        self.parents = parents
        self.canonical = canonical
    }

    /// Every category and subcategory name.
    public var allNames: [String] {
        entries.flatMap { [$0.name] + $0.subcategories }
    }

    /// The declared spelling of a category or subcategory name, compared without case; nil
    /// when the list does not have it.
    public func resolve(_ name: String) -> String? {
        canonical[Self.key(name)]
    }

    /// The category a subcategory belongs to; nil for a top-level category or an unknown name.
    public func parent(of subcategory: String) -> String? {
        parents[subcategory]
    }

    /// Whether a purchase in `category`/`subcategory` is covered by a reference: the reference
    /// names the category itself, or the subcategory.
    public func covers(_ reference: String, category: String, subcategory: String?) -> Bool {
        guard let reference = resolve(reference) else { return false }
        return reference == category || reference == subcategory
    }

    private static func key(_ name: String) -> String { name.lowercased() }

    /// The categories declared by the categorization work (`rules/categories.yaml` on main).
    public static let standard = CategoryList([
        Entry(name: "Food & Dining", subcategories: ["Groceries", "Restaurants", "Coffee", "Food Delivery"]),
        Entry(name: "Transport", subcategories: ["Fuel", "Taxi & Rideshare", "Public Transport", "Parking", "Tolls"]),
        Entry(name: "Shopping", subcategories: ["Online", "Electronics", "Clothing", "Department Stores",
                                                "Warehouse Clubs", "Superstores"]),
        Entry(name: "Bills & Utilities"),
        Entry(name: "Entertainment", subcategories: ["Streaming", "Movies", "Events"]),
        Entry(name: "Travel", subcategories: ["Airlines", "Hotels", "Car Rental"]),
        Entry(name: "Health", subcategories: ["Pharmacy"]),
        Entry(name: "Transfers"),
        Entry(name: "Income"),
        Entry(name: "Fees & Charges"),
        Entry(name: "Cash"),
        Entry(name: "Education"),
        Entry(name: "Investments"),
        Entry(name: "Uncategorized"),
    ])
}
