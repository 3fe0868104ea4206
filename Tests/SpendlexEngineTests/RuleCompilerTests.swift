import Testing
@testable import SpendlexEngine
import SpendlexRules

@Suite("Rule compiling")
struct RuleCompilerTests {
    @Test func grammarReferencesExpandIntoNamedCaptures() throws {
        let (engine, diagnostics) = compile([
            "g.yaml": "fragments:\n  NUM: '\\d+'\n  MONEY: '\\$%{NUM}'\n",
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: 'paid %{MONEY:amount} to %{NUM}'\n"
                + "    examples: [{text: 'paid $5 to 7', expect: {amount: '5'}}]\n",
        ])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let parser = try #require(engine.rules.banks.first?.parsers.first)
        guard case .single(let pattern, let groups) = parser.matcher else {
            Issue.record("expected a single-pattern matcher")
            return
        }
        #expect(pattern.source == "paid (?<amount>\\$(?:\\d+)) to (?:\\d+)")
        #expect(groups[.amount] == [1])
    }

    /// Banks compiled on several threads give what one thread gives: the banks in their order, and
    /// the same diagnostics in the same order (a broken pattern, an unknown grammar, an unknown
    /// field, in banks that fall in different threads' shares).
    @Test func banksCompiledOnSeveralThreadsComeOutAsOnOne() {
        var ruleSet = RuleSet()
        var loadDiagnostics: [Diagnostic] = []
        RuleLoader.load(text: "fragments:\n  NUM: '\\d+'\n", path: "g.yaml", into: &ruleSet, diagnostics: &loadDiagnostics)
        for number in 0..<40 {
            let pattern = switch number {
            case 3: "'paid [a-'"
            case 17: "'paid %{NUMB:amount}'"
            case 31: "'paid %{NUM:amount} (?<shop>\\w+)'"
            default: "'paid %{NUM:amount} at bank \(number)'"
            }
            RuleLoader.load(text: "id: bank\(number)\nparsers:\n  - id: bank\(number).one\n    pattern: \(pattern)\n",
                            path: "bank\(number).yaml", into: &ruleSet, diagnostics: &loadDiagnostics)
        }
        #expect(loadDiagnostics.isEmpty, "\(loadDiagnostics)")
        let (one, oneDiagnostics) = RuleCompiler.compile(ruleSet, forChecking: false, lanes: 1)
        for lanes in [2, 3, 40] {
            let (several, severalDiagnostics) = RuleCompiler.compile(ruleSet, forChecking: false, lanes: lanes)
            #expect(several.banks.map(\.id) == one.banks.map(\.id))
            #expect(several.banks.map { $0.parsers.map(\.id) } == one.banks.map { $0.parsers.map(\.id) })
            #expect(severalDiagnostics.map { "\($0.id) \($0.location.file):\($0.location.line):\($0.location.column)" }
                    == oneDiagnostics.map { "\($0.id) \($0.location.file):\($0.location.line):\($0.location.column)" })
        }
        #expect(Set(oneDiagnostics.filter { $0.severity == .error }.map(\.location.file))
                == ["bank3.yaml", "bank17.yaml", "bank31.yaml"])
    }

    @Test func unknownGrammarPointsAtTheReference() {
        let (_, diagnostics) = compile([
            "g.yaml": "fragments:\n  AMOUNT_INR: 'Rs\\d+'\n",
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: 'Spent %{AMOUNT_IN:amount}'\n",
        ])
        #expect(places(diagnostics.filter { $0.severity == .error }) == ["grammar.unknown 4:21"])
        #expect(diagnostics.first { $0.id == .grammarUnknown }?.notes.first?.message == "did you mean 'AMOUNT_INR'?")
    }

    @Test func grammarCyclesAndCapturesInFragmentsAreErrors() {
        let (_, diagnostics) = compile([
            "g.yaml": "fragments:\n  A: 'a%{B}'\n  B: 'b%{A}'\n  C: '%{A:amount}'\n  D: '[a-'\n",
        ])
        let ids = Set(diagnostics.map(\.id))
        #expect(ids.contains(.grammarCycle))
        #expect(ids.contains(.grammarCaptureInFragment))
        #expect(diagnostics.contains { $0.id == .patternSyntax && $0.location.line == 5 })
    }

    @Test func unclosedParenthesisPointsAtTheParenthesis() {
        let (_, diagnostics) = compile([
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: >-\n      Refund of (?<amount>\\d+)\n      from (?<merchant>.+? on\n",
        ])
        #expect(places(diagnostics.filter { $0.severity == .error }) == ["pattern.syntax 6:12"])
    }

    @Test func otherRegexErrorsPointInsideThePattern() {
        let (_, diagnostics) = compile([
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: '(?<amount>\\d{2,1})'\n",
        ])
        let error = diagnostics.first { $0.id == .patternSyntax }
        #expect(error?.location.line == 4)
        #expect(error?.location.column == 31)
    }

    @Test func errorsInsideAnExpandedFragmentPointAtTheReference() {
        let (_, diagnostics) = compile([
            "g.yaml": "fragments:\n  BAD: 'a{2,1}'\n",
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: 'x %{BAD} y'\n",
        ])
        let errors = diagnostics.filter { $0.id == .patternSyntax }
        #expect(places(errors) == ["pattern.syntax 4:17", "pattern.syntax 2:14"])
        #expect(errors.contains { $0.location.file == "b.yaml" && $0.notes.first?.message == "in the expansion of grammar 'BAD'" })
    }

    @Test func unknownCaptureNamesAreErrors() {
        let (_, diagnostics) = compile([
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: '(?<amount>\\d+) at (?<shop>\\w+)'\n",
        ])
        #expect(places(diagnostics.filter { $0.severity == .error }) == ["rule.unknownField 4:36"])
    }

    @Test func suspiciousParsersGetWarnings() {
        let (_, diagnostics) = compile([
            "b.yaml": "id: b\nparsers:\n  - id: b.one\n    pattern: 'hello (?<merchant>\\w+)'\n",
        ])
        #expect(Set(diagnostics.map(\.id)) == [.patternNoAmount, .parserNoExamples])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func overlappingParsersAreFoundByLint() {
        let (engine, _) = compile([
            "b.yaml": """
                id: b
                parsers:
                  - id: b.any
                    pattern: '(?<amount>\\d+)'
                    examples: [{text: 'x 5', expect: {amount: '5'}}]
                  - id: b.spent
                    pattern: 'spent (?<amount>\\d+)'
                    examples: [{text: 'spent 7', expect: {amount: '7'}}]
                """,
        ])
        let lint = RuleTestRunner.lint(engine)
        #expect(places(lint) == ["example.shadowed 8:23"])
    }

    @Test("a statement profile's skip and balance patterns compile, a balance's with an amount group; else located errors")
    func statementProfilePatterns() {
        let (_, diagnostics) = compile(["statements/x.yaml": """
            statement: x.pdf
            header: [Date, Amount]
            columns: {date: Date, amount: Amount}
            skip: ['(unclosed', '^Page \\d+']
            opening_balance: 'Opening Balance (?<amount>[\\d,.]+)'
            closing_balance: 'Closing Balance [\\d,.]+'
            """])
        #expect(places(diagnostics) == ["pattern.syntax 4:8", "rule.invalidValue 6:18"], "\(diagnostics.map(\.message))")
        // A row pattern needs a date and an amount; columns are then not needed.
        let (_, rowDiagnostics) = compile(["statements/y.yaml": """
            statement: y.pdf
            header: [Date, Amount]
            row: '^(?<day>\\S+) (?<amount>\\S+)$'
            """])
        #expect(places(rowDiagnostics) == ["rule.invalidValue 3:6"], "\(rowDiagnostics.map(\.message))")
    }
}
