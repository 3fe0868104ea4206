import Testing
@testable import SpendlexEngine
import SpendlexRules

/// The advisor resolves merchants with the same categorization tables that categorize parsed
/// transactions, and falls back to its keyword table for what the tables do not know.
@Suite("Purchase categories from the decision tables")
struct DecisionTableResolverTests {
    static let compiled = RuleCompiler.load(paths: [repositoryRoot + "/rules/categories.yaml"]).0

    @Test func merchantsComeFromTheCategoriesFile() throws {
        let categorizer = try #require(Self.compiled.categorizer)
        let keywords = KeywordCategoryResolver(categories: CategoryList.of(Self.compiled.rules))
        let resolver = DecisionTableCategoryResolver(categorizer: categorizer, keywords: keywords)
        #expect(keywords.category(forMerchant: "Zepto") == nil, "a merchant only the tables know")
        #expect(resolver.category(forMerchant: "Zepto")?.subcategory == "Groceries")
        let walmart = try #require(resolver.category(forMerchant: "Walmart"))
        #expect(walmart.subcategory == "Superstores" && walmart.mcc == keywords.category(forMerchant: "Walmart")?.mcc)
        #expect(resolver.category(forMerchant: "Nobu") == keywords.category(forMerchant: "Nobu"),
                "unknown to the tables: the keyword table decides")
        #expect(resolver.category(forWords: "groceries")?.subcategory == "Groceries")
    }
}
