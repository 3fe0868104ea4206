import Foundation
import Testing
@testable import SpendlexRules

/// The JSON Schema editors use must accept exactly the keys the loader accepts.
@Suite("JSON Schema in step with the loader")
struct SchemaTests {
    let schema: [String: Any]

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("grammars/spendlex-rules.schema.json"))
        schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func properties(of definition: String) -> [String] {
        let definitions = schema["definitions"] as? [String: Any]
        let properties = (definitions?[definition] as? [String: Any])?["properties"] as? [String: Any]
        return properties.map { Array($0.keys).sorted() } ?? []
    }

    @Test func keysMatch() {
        #expect(properties(of: "bankFile") == BankFileReader.bankKeys.sorted())
        #expect(properties(of: "parser") == BankFileReader.parserKeys.sorted())
        #expect(properties(of: "fieldOptions") == BankFileReader.fieldKeys.sorted())
        #expect(properties(of: "example") == BankFileReader.exampleKeys.sorted())
        #expect(properties(of: "expectation") == ExpectedField.allCases.map(\.rawValue).sorted())
        #expect(properties(of: "grammarFile") == ["description", "fragments", "grammar"])
        #expect(properties(of: "cardFile") == CardFileReader.cardKeys.sorted())
        #expect(properties(of: "rewardGroup") == CardFileReader.groupKeys.sorted())
        #expect(properties(of: "rewardCap") == CardFileReader.capKeys.sorted())
        #expect(properties(of: "pointsFile") == CardFileReader.pointsKeys.sorted())
        #expect(properties(of: "program") == CardFileReader.programKeys.sorted())
        #expect(properties(of: "countryProfile") == CountryFileReader.keys.sorted())
        #expect(properties(of: "fieldLayer") == FieldLayerFileReader.keys.sorted())
        #expect(properties(of: "statementProfile") == StatementProfileFileReader.keys.sorted())
        let columns = ((schema["definitions"] as? [String: Any])?["statementProfile"] as? [String: Any])
            .flatMap { $0["properties"] as? [String: Any] }.flatMap { $0["columns"] as? [String: Any] }?["properties"]
            as? [String: Any]
        #expect(columns.map { Array($0.keys).sorted() } == StatementProfile.Column.allCases.map(\.rawValue).sorted())
    }

    @Test func categoriesFileKeysMatch() {
        #expect(properties(of: "categoriesFile") == CategoryFileReader.fileKeys.sorted())
        #expect(properties(of: "categoryTable") == CategoryFileReader.tableKeys.sorted())
        #expect(properties(of: "categoryRow") == CategoryFileReader.rowKeys.sorted())
        #expect(properties(of: "merchantCondition") == CategoryFileReader.merchantKeys.sorted())
        #expect(properties(of: "amountCondition") == CategoryFileReader.amountKeys.sorted())
        #expect(properties(of: "accountCondition") == CategoryFileReader.accountKeys.sorted())
        let hitPolicies = ((schema["definitions"] as? [String: Any])?["categoryTable"] as? [String: Any])
            .flatMap { $0["properties"] as? [String: Any] }.flatMap { $0["hit_policy"] as? [String: Any] }?["enum"] as? [String]
        #expect(hitPolicies == HitPolicy.allCases.map(\.rawValue))
        let example = ((schema["definitions"] as? [String: Any])?["categoryExample"] as? [String: Any])?["oneOf"]
            as? [[String: Any]]
        #expect((example?.last?["properties"] as? [String: Any]).map { Array($0.keys).sorted() }
            == CategoryFileReader.exampleKeys.sorted())
    }
}
