import Testing
@testable import SpendlexRules

@Suite("Locations inside YAML scalars")
struct SourceLocationTests {
    /// Loads a one-pattern grammar file and maps `offset` of the pattern back to the file.
    func locate(_ yaml: String, offsetOf needle: String) throws -> (Int, Int) {
        let (ruleSet, diagnostics) = loadText(yaml)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let pattern = try #require(ruleSet.fragments.first?.pattern)
        let range = try #require(pattern.value.range(of: needle))
        let offset = pattern.value.utf8.distance(from: pattern.value.startIndex, to: range.lowerBound)
        let location = pattern.location(ofUTF8Offset: offset)
        return (location.line, location.column)
    }

    @Test func plainScalar() throws {
        #expect(try locate("fragments:\n  A: abc(def\n", offsetOf: "(") == (2, 9))
    }

    @Test func singleQuotedWithEscapedQuote() throws {
        #expect(try locate("fragments:\n  A: 'it''s (x'\n", offsetOf: "(") == (2, 13))
    }

    @Test func doubleQuotedAfterMultiByteText() throws {
        #expect(try locate("fragments:\n  A: \"₹ amount (x\"\n", offsetOf: "(") == (2, 16))
    }

    @Test func foldedBlockAcrossLines() throws {
        let yaml = "fragments:\n  A: >-\n    first line\n    second (x\n"
        #expect(try locate(yaml, offsetOf: "(") == (4, 12))
        #expect(try locate(yaml, offsetOf: "second") == (4, 5))
    }

    @Test func literalBlockAcrossLines() throws {
        let yaml = "fragments:\n  A: |-\n    one\n      two (x\n"
        #expect(try locate(yaml, offsetOf: "(") == (4, 11))
    }

    @Test func offsetAtTheEndPointsPastTheLastCharacter() throws {
        let (ruleSet, _) = loadText("fragments:\n  A: 'abc'\n")
        let pattern = try #require(ruleSet.fragments.first?.pattern)
        let location = pattern.location(ofUTF8Offset: 3)
        #expect((location.line, location.column) == (2, 10))
    }

    @Test func formatterQuotesTheLineWithACaret() {
        let source = SourceText(path: "r.yaml", text: "id: x\n  pattern: '(a'\n")
        let diagnostic = Diagnostic(.patternSyntax, .error, at: source.location(line: 2, column: 13), "bad",
                                    notes: [.init("a note")])
        let text = DiagnosticFormatter(sources: ["r.yaml": source]).format(diagnostic)
        #expect(text == """
            r.yaml:2:13: error: bad [pattern.syntax]
                  pattern: '(a'
                            ^
              note: a note
            """)
    }

    @Test(arguments: [("counter_exmples", "counter_examples"), ("paterns", "pattern"), ("zzz", nil)])
    func suggestions(word: String, expected: String?) {
        #expect(closestMatch(to: word, among: ["pattern", "counter_examples", "examples"]) == expected)
    }

    /// The bug: lines were split on "\n" as `Character`s, and CRLF is one character, so a CRLF
    /// file had one line; its diagnostics lost the source line and caret, and locations inside
    /// folded patterns were wrong.
    @Test func crlfFilesSplitIntoLines() {
        let source = SourceText(path: "r.yaml", text: "id: x\r\n  pattern: '(a'\r\n\r\nlast")
        #expect(source.lines == ["id: x", "  pattern: '(a'", "", "last"])
        #expect(SourceText(path: "r.yaml", text: "a\nb\n").lines == ["a", "b", ""])
        #expect(SourceText(path: "r.yaml", text: "").lines == [""])
    }

    @Test func locationsInCRLFFilesMatchLF() throws {
        let lf = "fragments:\n  A: >-\n    abc\n    d(ef\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try locate(crlf, offsetOf: "(") == locate(lf, offsetOf: "("))
    }
}
