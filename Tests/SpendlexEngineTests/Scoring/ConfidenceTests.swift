import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

@Suite("Confidence")
struct ConfidenceTests {
    @Test func scoreIsOneMinusTheDoubtsWeights() {
        var confidence = Confidence()
        #expect(confidence.score == 1.0 && confidence.doubts.isEmpty)
        confidence.insert(.noBank)
        confidence.insert(.fallbackParser)
        confidence.insert(.noBank)
        #expect(confidence.doubts == [.fallbackParser, .noBank], "declaration order, each once")
        #expect(confidence.score == 0.55)
        for doubt in Confidence.Doubt.allCases { confidence.insert(doubt) }
        #expect(confidence.score == 0, "clamped at 0")
    }

    @Test(arguments: [(0.7, 0.69, false, Transaction.Status.review), (0.7, 0.7, false, .ok),
                      (0.5, 0.55, false, .ok), (0.9, 1.0, true, .pending)])
    func statusFollowsTheThreshold(threshold: Double, score: Double, missing: Bool, status: Transaction.Status) {
        #expect(ConfidencePolicy(okThreshold: threshold).status(score: score, missingRequired: missing) == status)
    }

    @Test func everyDoubtHasAPartAWeightAndASummary() {
        for doubt in Confidence.Doubt.allCases {
            #expect(doubt.weight > 0 && doubt.weight < 1)
            #expect(!doubt.part.isEmpty && !doubt.summary.isEmpty)
        }
    }
}

/// The bundled fallback file, with a bank that has rules, as a user's rule set would have.
@Suite("Fallback parser")
struct FallbackTests {
    static let bank = """
        id: tb
        bank: Test Bank
        country: IN
        timezone: Asia/Kolkata
        senders: ["alerts@tb.example"]
        detect: ['(?i)\\btest bank\\b']
        parsers:
          - id: tb.spend
            direction: debit
            required: [merchant]
            pattern: 'Test Bank: %{AMOUNT_INR:amount} spent(?: at (?<merchant>\\w+))?(?: on %{DATE:date})?\\.'
        """

    static func engine(threshold: Double = 0.7) -> RuleEngine {
        let read = { (path: String) in try! String(contentsOfFile: repositoryRoot + path, encoding: .utf8) }
        let (engine, diagnostics) = compile([
            "common.yaml": commonGrammar, "generic.yaml": read("/grammars/generic.yaml"),
            "fallback.yaml": read("/rules/fallback/generic.yaml"), "tb.yaml": bank,
        ])
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        return RuleEngine(rules: engine.rules, policy: ConfidencePolicy(okThreshold: threshold))
    }

    func parse(_ text: String, sender: String? = nil, subject: String? = nil, threshold: Double = 0.7,
               at time: String = "2026-11-21T10:00:00Z") -> ParseOutcome {
        Self.engine(threshold: threshold).makeWorker().parse(Message(
            id: "m", text: text, sender: sender, subject: subject, receivedAt: parseTimestamp(time),
            channel: subject == nil ? .sms : .email))
    }

    @Test func unknownBanksAreReadWithLowConfidence() throws {
        let t = try #require(parse("You spent €12.50 at TESCO on 21/11/2026.", sender: "NEWBANK").transaction)
        #expect(t.rule == "generic.debit" && t.bank == "generic")
        #expect(t.amountText == "12.50" && t.currency == "EUR" && t.merchant == "TESCO")
        #expect(t.confidenceParts.doubts == [.fallbackParser, .noBank])
        #expect(t.confidence == 0.55 && t.status == .review)
    }

    @Test func theThresholdIsConfigurable() throws {
        let t = try #require(parse("You spent €12.50 at TESCO on 21/11/2026.", threshold: 0.5).transaction)
        #expect(t.status == .ok)
    }

    @Test func aKnownBanksNewFormatIsReadOnItsBehalf() throws {
        let bySender = try #require(parse("Rs 500.00 debited from A/c XX1234 to VPA shop@upi on 20-11-26.",
                                          sender: "alerts@tb.example").transaction)
        #expect(bySender.rule == "generic.debit" && bySender.bank == "tb" && bySender.currency == "INR")
        #expect(bySender.confidenceParts.doubts == [.fallbackParser])
        let byText = try #require(parse("Test Bank: Rs 500.00 debited from A/c XX1234 on 20-11-26.").transaction)
        #expect(byText.bank == "tb" && byText.confidenceParts.doubts == [.fallbackParser, .bankFromText])
    }

    @Test func bankParsersWinOverTheFallback() throws {
        let t = try #require(parse("Test Bank: Rs 20 spent at CAFE on 20-11-26.", sender: "alerts@tb.example").transaction)
        #expect(t.rule == "tb.spend" && t.status == .ok && t.confidence == 1.0)
    }

    @Test func aMissingRequiredFieldMakesItPending() throws {
        let t = try #require(parse("Test Bank: Rs 20 spent on 20-11-26.", sender: "alerts@tb.example").transaction)
        #expect(t.rule == "tb.spend" && t.merchant == nil && t.status == .pending)
    }

    @Test func aDateInTheFutureIsDoubted() throws {
        let t = try #require(parse("Test Bank: Rs 20 spent at CAFE on 20-12-26.", sender: "alerts@tb.example").transaction)
        #expect(t.confidenceParts.doubts == [.futureDate] && t.status == .review)
    }

    @Test func aDateWithoutYearOrArrivalIsLeftOutNotAnError() throws {
        let bank = """
            id: ny
            country: IN
            parsers:
              - id: ny.spend
                direction: debit
                pattern: 'Rs\\.(?<amount>\\d+) spent On (?<date>\\d{2}-\\d{2})'
            """
        let (engine, _) = compile(["common.yaml": commonGrammar, "ny.yaml": bank])
        let worker = engine.makeWorker()
        let t = try #require(worker.parse(Message(id: "m", text: "Rs.200 spent On 23-05"), asBank: "ny").transaction)
        #expect(t.date == nil && t.confidenceParts.doubts == [.dateWithoutYear])
        let dated = try #require(worker.parse(Message(id: "m", text: "Rs.200 spent On 23-05",
                                                      receivedAt: parseTimestamp("2026-05-24T10:00:00Z")),
                                              asBank: "ny").transaction)
        #expect(dated.date?.description == "2026-05-23" && dated.confidenceParts.doubts.isEmpty)
    }

    @Test func nonTransactionsStayOutOfTheFallback() {
        #expect(parse("Your OTP for the payment of $20.00 is 123456.").isIgnored)
        #expect(parse("Payment of $120.00 is due on 12/01/2026.").isIgnored)
        #expect(parse("See you at 7, bring the book!").transaction == nil)
    }

    /// The bug: on an SMS backup, the fallback read friends' texts such as "I paid Rs.46.67 for
    /// dinner, your share is half" as transactions (756 of 50,000 generated messages).
    @Test(arguments: ["+917700998877", "9876543210", "+1 (415) 555-0123", "+44 7700 900123"])
    func personalSendersAreReadOnlyWhenTheTextNamesABank(sender: String) {
        #expect(parse("I paid Rs.46.67 for dinner, your share is half", sender: sender).transaction == nil)
        // Named by its text, the bank's own parser or the fallback on its behalf reads it.
        let named = parse("Test Bank: Rs.500.00 spent at CAFE on 12/05/2026.", sender: sender).transaction
        #expect(named?.bank == "tb")
        let explanation = Self.engine().makeWorker().explain(
            Message(id: "x", text: "I paid Rs.46.67 for dinner", sender: sender, channel: .sms)).render()
        #expect(explanation.contains("the sender is a person (personal_senders)"))
    }

    @Test(arguments: ["VM-NEWBNK", "24273", "692632", "alerts@newbank.example"])
    func shortCodesAndSenderIDsAreNotPersonal(sender: String) {
        #expect(parse("You spent Rs.46.67 at DINER on 12/05/2026.", sender: sender).transaction?.rule == "generic.debit")
    }

    @Test func fallbackEmailNeedsAnAlertSubject() {
        let text = "You spent $42.10 at SHELL OIL on Nov 20, 2026."
        #expect(parse(text, sender: "news@shop.example", subject: "Our autumn sale").transaction == nil)
        #expect(parse(text, sender: "alerts@newbank.example", subject: "Card transaction alert").transaction != nil)
        let worker = Self.engine().makeWorker()
        #expect(worker.fallbackReadsEmail(subject: "Card transaction alert"))
        #expect(!worker.fallbackReadsEmail(subject: "Our autumn sale") && !worker.fallbackReadsEmail(subject: nil))
    }

    @Test func explainShowsTheConfidencePartByPart() {
        let engine = Self.engine()
        let text = engine.makeWorker().explain(Message(id: "m", text: "You spent €12.50 at TESCO on 21/11/2026.",
                                                       receivedAt: parseTimestamp("2026-11-21T10:00:00Z"))).render()
        #expect(text.contains("fallback generic:"))
        #expect(text.contains("confidence 0.55: status review (below 0.70)"))
        #expect(text.contains("- 0.35  specificity: read by the generic fallback parser"))
        #expect(text.contains("- 0.10  source: no bank recognised"))
    }

    @Test func grammarsAreFoundBesideTheRules() {
        let found = RuleLoader.grammarFolder(near: [repositoryRoot + "/rules/banks/in/hdfc.yaml"])
        #expect(found == repositoryRoot + "/grammars")
        let (ruleSet, _) = RuleLoader.load(paths: [repositoryRoot + "/rules/fallback"], findingGrammars: true)
        #expect(ruleSet.fragments.contains { $0.name.value == "MONEY_ANY" })
    }
}

extension ParseOutcome {
    var isIgnored: Bool {
        if case .ignored = self { return true }
        return false
    }
}
