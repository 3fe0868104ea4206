import Foundation
import Testing
@testable import SpendlexRules

/// Loads one YAML text as a rule file.
func loadText(_ text: String, path: String = "test.yaml") -> (RuleSet, [Diagnostic]) {
    var ruleSet = RuleSet()
    var diagnostics: [Diagnostic] = []
    RuleLoader.load(text: text, path: path, into: &ruleSet, diagnostics: &diagnostics)
    diagnostics += RuleLoader.validate(ruleSet)
    return (ruleSet, diagnostics)
}

/// `(id, line, column)` of each diagnostic, for compact assertions.
func places(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.sortedByLocation().map { "\($0.id) \($0.location.line):\($0.location.column)" }
}

@Suite("Rule loading")
struct RuleLoaderTests {
    let fixture = Bundle.module.path(forResource: "minimal-bank", ofType: "yaml", inDirectory: "Fixtures")!

    @Test func loadsEveryKeyOfABankFile() throws {
        let (ruleSet, diagnostics) = RuleLoader.load(paths: [fixture])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let bank = try #require(ruleSet.banks.first)
        #expect(bank.id.value == "example")
        #expect(bank.name == "Example Bank")
        #expect(bank.country == "US" && bank.currency == "USD")
        #expect(bank.timeZone?.value == "America/New_York")
        #expect(bank.senders.map(\.value) == ["alerts@example.com", "*-EXMPL"])
        #expect(bank.ignore.map(\.id) == ["example.ignore.1", "example.ignore.promo"])
        #expect(bank.parsers.count == 2)

        let spend = bank.parsers[0]
        #expect(spend.id.value == "example.spend")
        #expect(spend.id.location.line == 12 && spend.id.location.column == 9)
        #expect(spend.direction?.value == .debit && spend.kind?.value == .purchase)
        #expect(spend.pattern?.value == "You spent %{MONEY:amount} at (?<merchant>.+?)\\.")
        #expect(spend.field(.date)?.format?.value == "MM/dd/yyyy")
        #expect(spend.examples.count == 1)
        let example = spend.examples[0]
        #expect(example.receivedAt?.value == "2026-05-02T16:56:01Z")
        #expect(example.expect.map(\.field.value) == [.amount, .merchant, .date])
        #expect(example.expect[2].value.value == nil, "null expects the field to be absent")
        #expect(spend.counterExamples.map(\.text.value) == ["Your OTP is 1234", "A great offer"])
        #expect(spend.counterExamples[1].sender == "alerts@example.com")

        let disabled = bank.parsers[1]
        #expect(disabled.enabled == false)
        #expect(disabled.when?.value == "credited")
        #expect(disabled.field(.amount)?.pattern?.value == "\\d+")
        #expect(disabled.field(.merchant)?.pattern?.value == "from (\\w+)")
        #expect(disabled.field(.currency)?.value?.value == "USD")
    }

    @Test func personalSendersBelongToFallbackFiles() {
        let bank = "id: b\npersonal_senders: ['^\\+\\d+$']\nparsers: []\n"
        let (ruleSet, diagnostics) = loadText(bank)
        #expect(places(diagnostics) == ["rule.invalidValue 2:1"])
        #expect(ruleSet.banks.first?.personalSenders.map(\.value) == ["^\\+\\d+$"])
        let (_, fallbackDiagnostics) = loadText("fallback: true\n" + bank)
        #expect(fallbackDiagnostics.isEmpty, "\(fallbackDiagnostics)")
    }

    @Test func unknownKeyIsAnErrorWithASuggestion() throws {
        let (_, diagnostics) = loadText("""
            id: b
            parsers:
              - id: b.one
                pattern: 'x'
                counter_exmples: ["y"]
            """)
        #expect(places(diagnostics) == ["rule.unknownKey 5:5"])
        #expect(diagnostics[0].notes.first?.message == "did you mean 'counter_examples'?")
    }

    @Test func wrongShapesAreReportedTogether() {
        let (_, diagnostics) = loadText("""
            bank: Shapes
            id: Shapes Bank
            currency: rupees
            date_order: dym
            parsers:
              - id: shapes.one
                direction: sideways
                pattern: '(?<amount>\\d+)'
                enabled: maybe
                examples:
                  - text: "1"
                    expect: {amount: "1", colour: blue}
              - direction: debit
                pattern: 'x'
              - id: shapes.one
                pattern: 'y'
            """)
        #expect(places(diagnostics) == [
            "rule.invalidValue 2:5", "rule.invalidValue 3:11", "rule.invalidValue 4:13",
            "rule.invalidValue 7:16", "rule.wrongType 9:14", "rule.unknownKey 12:31",
            "rule.missingKey 13:5", "rule.duplicateID 15:9",
        ])
    }

    @Test func duplicateKeysAreErrors() {
        let (_, diagnostics) = loadText("""
            id: b
            id: c
            parsers: []
            """)
        #expect(places(diagnostics) == ["yaml.duplicateKey 2:1"])
        #expect(diagnostics[0].notes.first?.location?.line == 1)
    }

    @Test func yamlSyntaxErrorHasItsPlace() {
        let (_, diagnostics) = loadText("""
            id: b
            parsers:
              - id: b.one
                pattern: "unterminated
              - id: b.two
            """)
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].id == .yamlSyntax)
        #expect(diagnostics[0].location.line >= 4)
    }

    @Test func aFileThatIsNeitherBankNorGrammarIsReported() {
        let (_, diagnostics) = loadText("name: something\n")
        #expect(places(diagnostics) == ["rule.unknownFileKind 1:1"])
    }

    @Test func grammarFilesLoadFragmentsAndCheckNames() {
        let (ruleSet, diagnostics) = loadText("""
            fragments:
              AMOUNT: '\\d+'
              MONEY: {pattern: '\\$%{AMOUNT}', description: dollars}
              lower: 'x'
            """)
        #expect(ruleSet.fragments.map(\.name.value) == ["AMOUNT", "MONEY"])
        #expect(ruleSet.fragments[1].summary == "dollars")
        #expect(places(diagnostics) == ["grammar.invalidName 4:3"])
    }

    @Test func duplicateIdsAcrossFilesAreReported() {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        let bank = "id: b\nparsers:\n  - id: b.one\n    pattern: 'x'\n"
        RuleLoader.load(text: bank, path: "one.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: bank, path: "two.yaml", into: &ruleSet, diagnostics: &diagnostics)
        let found = RuleLoader.validate(ruleSet)
        #expect(found.map(\.id) == [.ruleDuplicateID, .ruleDuplicateID])
        #expect(found.allSatisfy { $0.location.file == "two.yaml" })
    }

    @Test func missingPathIsADiagnostic() {
        let (_, diagnostics) = RuleLoader.load(paths: ["/no/such/rules"])
        #expect(diagnostics.map(\.id) == [.fileUnreadable])
    }

    @Test(arguments: [
        ("2026-05-02T16:56:01Z", 1_777_740_961),
        ("2026-05-02T22:26:01+05:30", 1_777_740_961),
        ("2026-05-02T16:56:01.250Z", 1_777_740_961),
    ])
    func timestampsParse(text: String, epoch: Int) throws {
        let date = try #require(parseTimestamp(text))
        #expect(Int(date.timeIntervalSince1970) == epoch)
    }

    @Test func invalidTimestampIsNil() {
        #expect(parseTimestamp("yesterday") == nil)
        #expect(parseTimestamp("2026-02-30T10:00:00Z") == nil)
    }
}
