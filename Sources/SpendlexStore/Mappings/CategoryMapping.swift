import Foundation

/// A user's own merchant-to-category mapping: transactions whose merchant contains `merchant`
/// as whole words (any case, punctuation aside) get this category, before the rules' tables.
public struct CategoryMapping: Sendable, Equatable {
    /// The row id in `category_mappings`.
    public var id: Int64
    /// The merchant as the user wrote it ("Corner Cafe").
    public var merchant: String
    /// The category, one of the declared ones.
    public var category: String
    /// The subcategory, if any.
    public var subcategory: String?

    /// A mapping.
    public init(id: Int64, merchant: String, category: String, subcategory: String?) {
        self.id = id
        self.merchant = merchant
        self.category = category
        self.subcategory = subcategory
    }

    /// The id of the mapping as a categorization row, in mapping statistics and exported rows.
    public var rowID: String { "user-mapping.\(id)" }

    /// A merchant folded for comparing: lowercase letters and digits, words one space apart.
    public static func key(_ merchant: String) -> String {
        merchant.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).joined(separator: " ")
    }

    /// Whether `merchant` contains this mapping's merchant as whole words.
    public func matches(_ merchant: String) -> Bool {
        let key = Self.key(self.merchant)
        return !key.isEmpty && " \(Self.key(merchant)) ".contains(" \(key) ")
    }
}

extension Array where Element == CategoryMapping {
    /// The mapping for a merchant: the one with the longest merchant among those that match.
    public func mapping(for merchant: String?) -> CategoryMapping? {
        guard let merchant else { return nil }
        return filter { $0.matches(merchant) }.max { CategoryMapping.key($0.merchant).count < CategoryMapping.key($1.merchant).count }
    }
}
