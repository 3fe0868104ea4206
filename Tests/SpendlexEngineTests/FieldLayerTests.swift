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
        kinds:
          reversal: '(?i)\\breversed\\b'
          refund: '(?i)\\brefund\\b'
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

    @Test("a parser that names no kind takes the first the text names, in the layer's order; one that names one keeps it")
    func kinds() throws {
        #expect(try parse("Rs 10 credited: refund reversed").kind == .reversal)
        #expect(try parse("Rs 10 credited as a refund").kind == .refund)
        #expect(try parse("Rs 10 credited").kind == nil)
        let bankWithKind = try parse("Rs 10 credited as a refund")
        #expect(bankWithKind.direction == .credit)
    }

    @Test("a kind the rule language does not know is reported where it is written")
    func unknownKind() {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: "field_layer: test\nkinds:\n  refnd: '(?i)refund'\n", path: "grammars/fields.yaml",
                        into: &ruleSet, diagnostics: &diagnostics)
        #expect(diagnostics.contains { $0.severity == .error && $0.message.contains("refnd") && $0.location.line == 3 })
    }

    @Test("a money mention after a balance word is never the amount")
    func roles() throws {
        let t = try parse("Bal: Rs 5,000.00 after Rs 250.00 credited")
        #expect(t.amountText == "250.00")
        let none = Self.engine.makeWorker().parse(Message(id: "m", text: "Balance Rs 5,000.00; credited", sender: "TB", channel: .sms))
        #expect(none.transaction == nil)
    }

    /// A bank of no country whose parser reads a bare figure, standing aside where other money could
    /// be the amount (`unless_amount`); the layer's balance role and finder know "Balance".
    static let figureEngine: RuleEngine = {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: """
            field_layer: test
            finders:
              balance: ['(?i:\\bbalance\\b)[:\\s]*(?<balance>(?:USD|EUR|\\$)\\s?[\\d,.]+\\d)']
            roles:
              balance: '(?i:\\bbalance\\b)[:\\s]*$'
            """, path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: """
            bank: Figure Bank
            id: fb
            senders: [FB]
            parsers:
              - id: fb.figure
                direction: credit
                when: '\\breceived\\b'
                unless_amount: '(?:USD|EUR|\\$)\\s?\\d'
                fields:
                  amount: 'received (?<amount>\\d[\\d,]*\\.\\d\\d)'
            """, path: "banks/xx/fb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        precondition(!diagnostics.containsErrors, "\(diagnostics)")
        return RuleEngine(rules: RuleCompiler.compile(ruleSet).0)
    }()

    @Test("unless_amount: money that could be the amount keeps the parser aside, a balance's does not")
    func unlessAmount() throws {
        func parse(_ text: String) -> ParseOutcome {
            Self.figureEngine.makeWorker().parse(Message(id: "m", text: text, sender: "FB", channel: .sms))
        }
        let t = try #require(parse("You received 12.50. Balance: USD 100.00").transaction)
        #expect(t.amountText == "12.50" && t.balance == "100.00")
        // The figure is in the account's currency, which its balance names.
        #expect(t.currency == "USD" && !t.confidenceParts.contains(.noCurrency))
        #expect(parse("You received 12.50 of EUR 12.50. Balance: USD 100.00").transaction == nil)
        // A symbol several currencies share, and no country: the balance's, doubted.
        let dollars = try #require(parse("You received 12.50. Balance: $100.00").transaction)
        #expect(dollars.currency == "USD" && dollars.confidenceParts.contains(.ambiguousCurrency))
    }

    @Test("a balance or a reference is looked for after a one-pattern parser's match, within reach")
    func afterTheMatch() throws {
        let near = try parse("Rs.250.00 debited via UPI. Thank you for banking with us. Ref ABC123456")
        #expect(near.reference == "ABC123456")
        // Another script's digits are digits: the window is searched.
        let devanagari = try parse("Rs.250.00 debited via UPI. Bal: Rs १,२०४.५०")
        #expect(devanagari.balance == "1204.50")
    }

    static let scopedLayer = """
        field_layer: test
        finders:
          reference:
            - '(?i:\\bref\\b)[:.\\s]*(?<reference>[A-Z0-9]{6,})'
            - {pattern: '(?i:\\bhash(?:\\s+id)?\\b)[:#\\s]*(?<reference>[0-9a-f]{8})', countries: [KH]}
        """
    static func scopedBank(_ country: String) -> String {
        """
        bank: Bank \(country)
        id: b\(country.lowercased())
        country: \(country)
        senders: [B\(country)]
        parsers:
          - id: b\(country.lowercased()).paid
            direction: debit
            pattern: 'paid (?<amount>\\d+(?:\\.\\d+)?) USD'
            examples: [{text: "paid 10 USD", expect: {amount: "10"}}]
        """
    }

    @Test("a finder for some countries reads their banks' messages only")
    func countryScopedFinder() throws {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: Self.scopedLayer, path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: Self.scopedBank("KH"), path: "banks/kh/b.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: Self.scopedBank("US"), path: "banks/us/b.yaml", into: &ruleSet, diagnostics: &diagnostics)
        try #require(!diagnostics.containsErrors, "\(diagnostics)")
        let worker = RuleEngine(rules: RuleCompiler.compile(ruleSet).0).makeWorker()
        let text = "paid 12.50 USD to SHOP with Hash ID #a1e837e7"
        let cambodian = try #require(worker.parse(Message(id: "m", text: text, sender: "BKH", channel: .sms)).transaction)
        #expect(cambodian.reference == "a1e837e7")
        let american = try #require(worker.parse(Message(id: "m", text: text, sender: "BUS", channel: .sms)).transaction)
        #expect(american.reference == nil)
    }

    @Test("a finder's countries are ISO codes: anything else is reported where it is written")
    func badFinderCountry() {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        let text = """
            field_layer: test
            finders:
              reference:
                - {pattern: 'Ref (?<reference>\\d+)', countries: [khm]}
                - {countries: [KH]}
            """
        RuleLoader.load(text: text, path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2)
        #expect(errors.contains { $0.message.contains("khm") && $0.location.line == 4 })
        #expect(errors.contains { $0.message.contains("pattern") && $0.location.line == 5 })
    }

    @Test("the layer looks near the match, not in a footer far away")
    func reach() throws {
        let footer = String(repeating: "Terms apply. ", count: 40) + "Ref ABC123456"
        let t = try parse("Rs.250.00 debited via UPI. " + footer)
        #expect(t.reference == nil)
    }

    @Test("after a one-pattern parser's match: its paragraph and the next one, not the paragraphs after them")
    func paragraphs() throws {
        let sameParagraph = try parse("Rs.250.00 debited via UPI on 02-05-26. Avl Bal Rs.1,204.50\n\nRegards")
        #expect(sameParagraph.balance == "1204.50")
        let nextParagraph = try parse("Rs.250.00 debited via UPI on 02-05-26.\n\nAvailable balance Rs.1,204.50\n\nRegards")
        #expect(nextParagraph.balance == "1204.50")
        let blanksBetween = try parse("Rs.250.00 debited via UPI.\n \r\n\t\nBal: Rs.99.00")
        #expect(blanksBetween.balance == "99.00")
        let footer = try parse("Rs.250.00 debited via UPI.\n\nCall us on 1800 000.\n\nRef ABC123456 is our licence.")
        #expect(footer.reference == nil)
    }

    @Test("where the paragraph after an offset ends", arguments: [
        ("one line", 0, 8),
        ("a. b\n\nc\n\nd", 0, 7),
        ("a\n \n\n c\r\n\r\nd", 0, 8),
        ("a\nb\nc", 0, 5),
        ("a\n\nb", 0, 4),
    ])
    func endOfNextParagraph(text: String, from: Int, end: Int) {
        #expect(RuleEngine.Worker.endOfNextParagraph(in: text, from: from, upTo: text.utf8.count) == end)
    }
}
