import Testing
@testable import SpendlexRules

@Suite("Statement profiles")
struct StatementProfileLoaderTests {
    @Test func aProfileIsReadWithItsColumnsAndExamples() throws {
        let (ruleSet, diagnostics) = loadText("""
            statement: acme.card
            bank: acme
            country: US
            card: true
            delimiter: ';'
            header: [Posted, Details, Amount]
            columns: {date: Posted, description: Details, amount: Amount}
            date_format: MM/dd/yyyy
            sign: positive_is_debit
            examples:
              - row: '11/02/2026;COFFEE;5.75'
                expect: {amount: '5.75', direction: debit}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let profile = try #require(ruleSet.statementProfiles.first)
        #expect(profile.id.value == "acme.card" && profile.bank == "acme" && profile.accountType == "card")
        #expect(profile.delimiter == ";" && profile.sign == .positiveIsDebit)
        #expect(profile.columns[.amount]?.value == "Amount")
        #expect(profile.examples.first?.expect.map(\.field.value) == [.amount, .direction])
    }

    @Test("every problem located: a column not in the header, no amount column, a long delimiter, an unknown key and field")
    func problemsAreLocated() {
        let (_, diagnostics) = loadText("""
            statement: broken
            delimiter: ';;'
            header: [Date, Text]
            columns:
              date: Datum
              description: Text
            colour: blue
            examples:
              - row: '01/02/2026;x'
                expect: {amont: '1'}
              - expect: {amount: '1'}
            """)
        #expect(places(diagnostics) == [
            "rule.invalidValue 2:12", "rule.missingKey 4:1", "rule.missingKey 4:1", "rule.invalidValue 5:9", "rule.unknownKey 7:1",
            "rule.unknownField 10:14", "rule.missingKey 11:5",
        ], "\(diagnostics.map(\.message))")
    }

    @Test func twoProfilesWithOneIdAreAnError() {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        for path in ["a.yaml", "b.yaml"] {
            RuleLoader.load(text: "statement: same\nheader: [D, A]\ncolumns: {date: D, amount: A}\n", path: path,
                            into: &ruleSet, diagnostics: &diagnostics)
        }
        #expect(places(RuleLoader.validate(ruleSet)) == ["rule.duplicateID 1:12"])
    }
}
