import PCRE2
import SpendlexEngine
import Testing

/// For a message no parser reads: the parser whose pattern got furthest, where it stopped as
/// written (or the reference it stopped inside), and a catastrophic pattern reported as such.
@Suite("nearest parser")
struct NearestParserTests {
    static let bank = """
        bank: Test Bank
        id: tb
        country: IN
        senders: ["TESTBK"]
        parsers:
          - id: tb.spend
            direction: debit
            pattern: 'Test Bank: %{AMOUNT_INR:amount} spent at (?<merchant>\\w+)\\.'
          - id: tb.refund
            direction: credit
            pattern: 'Test Bank: refund of %{AMOUNT_INR:amount}\\.'
          - id: tb.slow
            direction: debit
            pattern: '^(x+)+$'
        """

    static func engine() -> RuleEngine {
        let (engine, diagnostics) = compile(["common.yaml": commonGrammar, "tb.yaml": bank])
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        return engine
    }

    @Test("the parser that got furthest, stopped after what matched, in the pattern as written")
    func furthest() throws {
        let nearest = try #require(try Self.engine().nearestParser(to: "Test Bank: refund of EUR 5.", bank: "tb"))
        #expect(nearest.parser == "tb.refund")
        #expect(nearest.patternBefore == "Test Bank: refund of ")
        #expect(nearest.fragment == "AMOUNT_INR")
        #expect(nearest.matchedText == "Test Bank: refund of ")
        #expect(nearest.progress > 0 && nearest.progress < 1)
    }

    /// PCRE2 fails a text that lacks a literal the pattern requires before any attempt; the
    /// trace compiles without that shortcut, so it still sees how far matching got.
    @Test("a text without the pattern's last literal still shows where matching stopped")
    func missingRequiredLiteral() throws {
        let nearest = try #require(try Self.engine().nearestParser(to: "Test Bank: refund of Rs 5", bank: "tb"))
        #expect(nearest.parser == "tb.refund")
        #expect(nearest.patternAfter == "\\.")
        #expect(nearest.matchedText == "Test Bank: refund of Rs 5")
    }

    @Test("a catastrophic pattern is an error naming its parser")
    func catastrophic() {
        #expect(throws: NearestParserError.self) {
            _ = try Self.engine().nearestParser(to: String(repeating: "x", count: 40) + "y", bank: "tb")
        }
    }
}
