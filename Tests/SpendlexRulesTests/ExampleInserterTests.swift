import SpendlexRules
import Testing

/// A confirmed message added as an example of a parser, the rest of the file as written.
@Suite("adding an example to a bank file")
struct ExampleInserterTests {
    static let file = """
        # A comment that stays.
        bank: Sample
        id: sample
        parsers:
          - id: sample.debit
            direction: debit
            pattern: 'paid %{MONEY:amount}'
            examples:
              - text: "paid $1.00"
                expect: {amount: "1.00"}
          - id: sample.credit
            direction: credit
            pattern: 'got %{MONEY:amount}'
        """

    @Test("under an existing examples key, first, indented as its items")
    func existing() throws {
        let yaml = try ExampleInserter.adding(to: Self.file, parser: "sample.debit", text: "paid \"$2.50\"\nnow", sender: "SAMPLE",
                                              expect: [("amount", "2.50")])
        #expect(yaml.contains("""
                examples:
                  - text: "paid \\"$2.50\\"\\nnow"
                    sender: "SAMPLE"
                    expect: {amount: "2.50"}
                  - text: "paid $1.00"
            """))
        #expect(yaml.hasPrefix("# A comment that stays.\n"))
    }

    @Test("a parser without examples gets the key, after its id")
    func missing() throws {
        let yaml = try ExampleInserter.adding(to: Self.file, parser: "sample.credit", text: "got $3.00", sender: nil,
                                              expect: [("amount", "3.00")])
        #expect(yaml.contains("""
              - id: sample.credit
                examples:
                  - text: "got $3.00"
                    expect: {amount: "3.00"}
                direction: credit
            """))
    }

    @Test("no such parser, or no bank file: a problem, not a file")
    func problems() {
        #expect(throws: ExampleInserter.Problem.noParser("nope")) {
            try ExampleInserter.adding(to: Self.file, parser: "nope", text: "x", sender: nil, expect: [])
        }
        #expect(throws: ExampleInserter.Problem.self) {
            try ExampleInserter.adding(to: "grammar: x\nfragments: {}", parser: "x", text: "x", sender: nil, expect: [])
        }
    }
}
