import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// The generic field layer: fields a parser does not capture come from the layer, near where the
/// parser matched, unless the parser switches the finder off.
@Suite("Field layer")
struct FieldLayerTests {
    static let layer = """
        field_layer: test
        finders:
          balance: ['(?i:\\bbal(?:ance)?\\b)[:\\s]*Rs\\.?\\s?(?<balance>[\\d,.]+\\d)']
          reference: ['(?i:\\bref\\b)[:.\\s]*(?<reference>[A-Z0-9]{6,})']
        roles:
          balance: '(?i:\\bbal(?:ance)?\\b)[:\\s]*$'
        channels:
          upi: '\\bUPI\\b'
          card: '(?i)\\bcard\\b'
        """
    static let bank = """
        bank: Test Bank
        id: tb
        country: IN
        senders: [TB]
        parsers:
          - id: tb.upi
            direction: debit
            pattern: 'Rs\\.(?<amount>[\\d,.]+\\d) debited via UPI'
            examples: [{text: "Rs.10 debited via UPI", expect: {amount: "10"}}]
          - id: tb.quiet
            direction: debit
            channel: card
            layer: {reference: false}
            pattern: 'Rs\\.(?<amount>[\\d,.]+\\d) spent'
            examples: [{text: "Rs.10 spent", expect: {amount: "10"}}]
          - id: tb.credit
            direction: credit
            when: '\\bcredited\\b'
            fields:
              amount: 'Rs\\.?\\s?(?<amount>\\d[\\d,.]*\\d)'
            examples: [{text: "Rs 10 credited", expect: {amount: "10"}}]
        """

    static let engine: RuleEngine = {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: layer, path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: bank, path: "banks/in/tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        precondition(!diagnostics.containsErrors, "\(diagnostics)")
        return RuleEngine(rules: RuleCompiler.compile(ruleSet).0)
    }()

    func parse(_ text: String) throws -> Transaction {
        try #require(Self.engine.makeWorker().parse(Message(id: "m", text: text, sender: "TB", channel: .sms)).transaction)
    }

    @Test func fieldsTheParserDoesNotCaptureComeFromTheLayer() throws {
        let t = try parse("Rs.250.00 debited via UPI. Ref 631845220913. Bal: Rs 1,204.50")
        #expect(t.reference == "631845220913" && t.balance == "1204.50" && t.channel == "upi")
    }

    @Test func aParserCanSwitchAFinderOffAndKeepsItsOwnChannel() throws {
        let t = try parse("Rs.250.00 spent with UPI. Ref 631845220913. Bal: Rs 1,204.50")
        #expect(t.reference == nil && t.balance == "1204.50" && t.channel == "card")
    }

    @Test("a money mention after a balance word is never the amount")
    func roles() throws {
        let t = try parse("Bal: Rs 5,000.00 after Rs 250.00 credited")
        #expect(t.amountText == "250.00")
        let none = Self.engine.makeWorker().parse(Message(id: "m", text: "Balance Rs 5,000.00; credited", sender: "TB", channel: .sms))
        #expect(none.transaction == nil)
    }

    @Test("the layer looks near the match, not in a footer far away")
    func reach() throws {
        let footer = String(repeating: "Terms apply. ", count: 40) + "Ref ABC123456"
        let t = try parse("Rs.250.00 debited via UPI. " + footer)
        #expect(t.reference == nil)
    }
}
