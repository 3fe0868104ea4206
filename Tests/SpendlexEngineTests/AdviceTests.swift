import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
import PCRE2

/// The field layer's `advice`: ignore rules read a message with advice to the reader set aside,
/// so an alert whose safety footer names the OTP is no OTP message; parsers still read it whole.
@Suite("Advice set aside by ignore rules")
struct AdviceTests {
    static let layer = """
        field_layer: test
        advice:
          - '(?i)\\b(?:never|do\\s+not)\\s+share\\b(?![^.!?\\n]*\\b\\d{4,8}\\b)[^.!?\\n]*'
        """
    static let bank = """
        bank: Test Bank
        id: tb
        country: IN
        senders: [TB]
        ignore:
          - {id: tb.ignore.otp, pattern: '(?i)\\bOTP\\b'}
        parsers:
          - id: tb.spend
            direction: debit
            pattern: 'Rs\\.(?<amount>[\\d,.]+\\d) spent at (?<merchant>[A-Z ]+[A-Z])'
            examples: [{text: "Rs.10 spent at SAMPLE SHOP", expect: {amount: "10"}}]
        """

    static func engine(layer: String?) -> RuleEngine {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        if let layer { RuleLoader.load(text: layer, path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics) }
        RuleLoader.load(text: bank, path: "banks/in/tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        precondition(!diagnostics.containsErrors, "\(diagnostics)")
        return RuleEngine(rules: RuleCompiler.compile(ruleSet).0)
    }

    static let withAdvice = engine(layer: layer)

    func outcome(_ text: String, engine: RuleEngine = withAdvice) -> ParseOutcome {
        engine.makeWorker().parse(Message(id: "m", text: text, sender: "TB", channel: .sms))
    }

    @Test("an alert whose advice names the OTP is read; the advice is set aside only for the ignore rules")
    func alertWithAdviceIsRead() throws {
        let text = "Rs.250.00 spent at SAMPLE SHOP. Never share your card number, CVV, PIN or OTP with anyone."
        let t = try #require(outcome(text).transaction)
        #expect(t.amount == Decimal(string: "250.00") && t.merchant == "SAMPLE SHOP")
        // Without advice in the layer, the footer's OTP ignores it, as it did before.
        guard case .ignored(let rule, _) = outcome(text, engine: Self.engine(layer: nil)) else {
            Issue.record("read without the layer's advice")
            return
        }
        #expect(rule == "tb.ignore.otp")
    }

    @Test("an OTP message stays ignored: its code is no advice, nor is what the advice leaves")
    func otpMessagesStayIgnored() {
        for text in [
            "Do not share this OTP 482913 with anyone. Rs.500.00 spent at SAMPLE SHOP needs it.",
            "482913 is your OTP for Rs.500.00 spent at SAMPLE SHOP. Never share it with anyone.",
            "Never share your OTP. 482913 is the OTP for Rs.500.00 spent at SAMPLE SHOP.",
        ] {
            guard case .ignored(let rule, _) = outcome(text) else {
                Issue.record("not ignored: \(text)")
                continue
            }
            #expect(rule == "tb.ignore.otp")
        }
    }

    @Test("advice is blanked byte for byte, so the rest keeps its offsets; no advice, no copy")
    func blankedInPlace() throws {
        let compiled = RuleCompiler.compile({
            var ruleSet = RuleSet()
            var diagnostics: [Diagnostic] = []
            RuleLoader.load(text: Self.layer, path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics)
            return ruleSet
        }()).0
        let layer = try #require(compiled.fieldLayer)
        let scratch = MatchScratch()
        let text = "Débit Rs.5 à CAFÉ. Do not share your PIN. Merci"
        let blanked = try #require(layer.withoutAdvice(text, scratch: scratch))
        #expect(blanked.utf8.count == text.utf8.count)
        #expect(blanked == "Débit Rs.5 à CAFÉ. " + String(repeating: " ", count: "Do not share your PIN".utf8.count) + ". Merci")
        #expect(layer.withoutAdvice("Rs.5 spent at CAFE", scratch: scratch) == nil)
    }
}
