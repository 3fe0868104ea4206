import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

@Suite("Rule engine")
struct RuleEngineTests {
    static let bank = """
        bank: Test Bank
        id: tb
        country: IN
        currency: INR
        timezone: Asia/Kolkata
        senders: ["alerts@tb.example", "tb.example", "*-TBANK"]
        subjects: ['(?i)transaction alert']
        detect: ['(?i)\\btest bank\\b']
        ignore:
          - id: tb.ignore.otp
            pattern: '(?i)\\bOTP\\b'
          - id: tb.ignore.declined
            pattern: '(?i)\\bdeclined\\b'
            unless: '(?i)\\bfee\\b'
        parsers:
          - id: tb.spend
            direction: debit
            kind: purchase
            channel: card
            pattern: 'Test Bank: %{AMOUNT_INR:amount} spent on card %{ACCOUNT_MASK:last4} at (?<merchant>.+?)(?: on %{DATE:date})?\\.'
          - id: tb.move
            kind: transfer
            account_type: account
            pattern: 'Test Bank: A/c %{ACCOUNT_MASK:account} (?<direction>debited|credited) %{AMOUNT_INR:amount}'
          - id: tb.fields
            direction: credit
            when: '(?i)\\bsalary\\b'
            unless: '(?i)\\breversed\\b'
            fields:
              amount: '%{AMOUNT_INR:amount}'
              merchant: 'from (\\w+)'
              currency: {value: INR}
        """
    static let other = """
        id: ob
        country: US
        senders: ["*@other.example"]
        parsers:
          - id: ob.spend
            direction: debit
            pattern: 'spent \\$(?<amount>[\\d.]+)'
        """

    let engine: RuleEngine

    init() {
        let (engine, diagnostics) = compile(["common.yaml": commonGrammar, "tb.yaml": Self.bank, "ob.yaml": Self.other])
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        self.engine = engine
    }

    func parse(_ text: String, sender: String? = nil, subject: String? = nil, at time: String? = nil) -> ParseOutcome {
        engine.makeWorker().parse(Message(id: "m", text: text, sender: sender, subject: subject,
                                          receivedAt: time.flatMap(parseTimestamp)))
    }

    @Test func parsesAndNormalizesEveryField() throws {
        let outcome = parse("Test Bank: Rs.1,24,560.50 spent on card XX1234 at  AMAZON   IN  on 02-May-26.",
                            sender: "VM-TBANK")
        let t = try #require(outcome.transaction)
        #expect(t.rule == "tb.spend" && t.bank == "tb")
        #expect(t.amountText == "124560.50")
        #expect(t.amount == Decimal(string: "124560.5"))
        #expect(t.currency == "INR")
        #expect(t.account == .init(type: "card", last4: "1234"))
        #expect(t.merchant == "AMAZON IN")
        #expect(t.merchantRaw == " AMAZON   IN ")
        #expect(t.date?.description == "2026-05-02")
        #expect(t.direction == .debit && t.kind == .purchase && t.channel == "card")
        #expect(t.status == .ok && t.confidence == 1.0)
    }

    @Test func dateFallsBackToArrivalTimeInTheBanksZone() throws {
        let t = try #require(parse("Test Bank: Rs.5 spent on card 1234 at SHOP.", sender: "AD-TBANK",
                                   at: "2026-05-02T20:00:00Z").transaction)
        #expect(t.date?.description == "2026-05-03")
        #expect(t.time?.description == "01:30:00")
        #expect(t.confidence < 1.0)
    }

    @Test func directionCanComeFromACapturedWord() throws {
        let debit = try #require(parse("Test Bank: A/c XX9999 debited Rs 10", sender: "tb-TBANK").transaction)
        let credit = try #require(parse("Test Bank: A/c XX9999 credited Rs 10", sender: "tb-TBANK").transaction)
        #expect(debit.direction == .debit && credit.direction == .credit)
        #expect(debit.account?.type == "account")
    }

    @Test func negativeBalancesKeepTheirSignAndCapturedChannelsAreNamed() throws {
        let bank = """
            id: sk
            country: DE
            decimal: ","
            parsers:
              - id: sk.debit
                direction: debit
                pattern: '(?<channel>Direct Debit|Standing order): %{AMOUNT:amount} EUR\\. Saldo: (?<balance>-?%{AMOUNT}) EUR'
            """
        let (engine, diagnostics) = compile(["common.yaml": commonGrammar, "sk.yaml": bank])
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        let t = try #require(engine.makeWorker().parse(Message(id: "m", text: "Direct Debit: 12,00 EUR. Saldo: -312,40 EUR"),
                                                       asBank: "sk").transaction)
        #expect(t.balance == "-312.40" && t.channel == "direct_debit")
    }

    @Test func alternativesMayCaptureTheSameField() throws {
        let bank = """
            id: alt
            country: US
            parsers:
              - id: alt.spend
                direction: debit
                pattern: '(?:You spent %{MONEY:amount} at (?<merchant>\\w+)|A %{MONEY:amount} charge at (?<merchant>\\w+))'
            """
        let (engine, diagnostics) = compile(["common.yaml": commonGrammar, "alt.yaml": bank])
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        let worker = engine.makeWorker()
        for text in ["You spent $5.00 at CAFE", "A $5.00 charge at CAFE"] {
            let t = try #require(worker.parse(Message(id: "m", text: text), asBank: "alt").transaction)
            #expect(t.amountText == "5.00" && t.merchant == "CAFE")
        }
    }

    @Test("a per-field parser's field captured in several alternatives takes the one that matched")
    func perFieldAlternativesMayCaptureTheSameField() throws {
        let bank = """
            id: pf
            country: US
            parsers:
              - id: pf.debit
                direction: debit
                when: 'paid'
                fields:
                  amount: '(?:%{MONEY:amount}|Amount: (?<amount>\\d+))'
                examples:
                  - text: "paid. Amount: 42"
                    expect: {amount: "42"}
            """
        let (engine, diagnostics) = compile(["common.yaml": commonGrammar, "pf.yaml": bank])
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        let worker = engine.makeWorker()
        let labelled = try #require(worker.parse(Message(id: "m", text: "paid. Amount: 42"), asBank: "pf").transaction)
        #expect(labelled.amountText == "42")
        let money = try #require(worker.parse(Message(id: "m", text: "paid $5.00"), asBank: "pf").transaction)
        #expect(money.amountText == "5.00")
    }

    @Test func perFieldParsersSearchEachFieldOnItsOwn() throws {
        let t = try #require(parse("Salary of Rs 50,000.00 credited from ACME", sender: "VM-TBANK").transaction)
        #expect(t.rule == "tb.fields")
        #expect(t.amountText == "50000.00" && t.merchant == "ACME" && t.direction == .credit)
    }

    @Test func ignoreRulesWinAndSayWhich() {
        guard case .ignored(let rule, let bank) = parse("Test Bank: OTP 1234 for Rs.5 spent on card 1234 at X.",
                                                       sender: "VM-TBANK") else {
            Issue.record("expected ignored")
            return
        }
        #expect(rule == "tb.ignore.otp" && bank == "tb")
    }

    @Test("a parser's unless pattern keeps it from reading a message")
    func parserUnless() throws {
        #expect(try #require(parse("Salary of Rs 50,000.00 credited from ACME", sender: "VM-TBANK").transaction).rule == "tb.fields")
        #expect(parse("Salary of Rs 50,000.00 credited from ACME reversed", sender: "VM-TBANK").transaction == nil)
    }

    @Test("an ignore rule's unless pattern keeps a message it would ignore")
    func ignoreUnless() throws {
        let declined = parse("Test Bank: Rs.5 spent on card 1234 at X. Payment declined.", sender: "VM-TBANK")
        #expect(declined.transaction == nil && declined.reason.contains("tb.ignore.declined"), "\(declined.reason)")
        let fee = try #require(parse("Test Bank: Rs.5 spent on card 1234 at X. Declined payment fee.", sender: "VM-TBANK").transaction)
        #expect(fee.amountText == "5")
    }

    @Test func emailSubjectsFilterBankMail() throws {
        let text = "Test Bank: Rs.5 spent on card 1234 at SHOP."
        #expect(parse(text, sender: "alerts@tb.example", subject: "Transaction alert").transaction != nil)
        guard case .ignored(let rule, _) = parse(text, sender: "news@mail.tb.example", subject: "Our newsletter") else {
            Issue.record("expected the subject filter to ignore it")
            return
        }
        #expect(rule == "tb.subjects")
    }

    @Test func unknownSendersAreRoutedByText() throws {
        let t = try #require(parse("Test Bank: Rs.5 spent on card 1234 at SHOP.", sender: "+15550100").transaction)
        #expect(t.bank == "tb")
        #expect(t.confidence < 1.0, "routing by text costs confidence")
        // The other bank has no detect patterns, so it is tried too.
        #expect(parse("spent $4.20").transaction?.bank == "ob")
    }

    @Test func routedMessagesThatMatchNothingAreUnmatched() {
        guard case .unmatched(let banks, let bySender, _) = parse("hello", sender: "VM-TBANK") else {
            Issue.record("expected unmatched")
            return
        }
        #expect(banks == ["tb"] && bySender)
    }

    @Test func aDateThatDoesNotExistIsAnError() {
        guard case .failed(let rule, let field, let error) = parse("Test Bank: Rs.5 spent on card 1234 at X on 31-02-2026.",
                                                                  sender: "VM-TBANK") else {
            Issue.record("expected a field error")
            return
        }
        #expect(rule == "tb.spend" && field == .date && error.id == "date.nonexistent")
    }

    @Test func fullCardNumbersNeverReachTheOutput() throws {
        let t = try #require(parse("Test Bank: Rs.5 spent on card 1234 at PAY 4111 1111 1111 1111 STORE.",
                                   sender: "VM-TBANK").transaction)
        #expect(t.merchant?.contains("4111 1111") == false, "\(t.merchant ?? "")")
        #expect(t.merchant?.hasSuffix("1111 STORE") == true, "\(t.merchant ?? "")")
    }

    @Test func resultsAreDeterministic() throws {
        let text = "Test Bank: Rs.5 spent on card 1234 at SHOP on 02-05-2026."
        let first = try #require(parse(text, sender: "VM-TBANK").transaction)
        let second = try #require(parse(text, sender: "VM-TBANK").transaction)
        #expect(first == second)
        #expect(first.idempotencyKey.count == 16)
    }

    @Test func workersOnManyThreadsAgree() async {
        let engine = self.engine
        let texts = (1...200).map { "Test Bank: Rs.\($0) spent on card 1234 at SHOP\($0)." }
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let worker = engine.makeWorker()
                    return texts.map { worker.parse(Message(id: $0, text: $0, sender: "VM-TBANK")).transaction?.amountText ?? "-" }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results).count == 1)
        #expect(results.first?.last == "200")
    }

    @Test func explainShowsEveryParserAndCapture() {
        let explanation = engine.makeWorker().explain(Message(id: "m", text: "Test Bank: Rs.5 spent on card 1234 at SHOP.",
                                                              sender: "VM-TBANK"))
        let text = explanation.render()
        #expect(text.contains("routed to tb"))
        #expect(text.contains("tb.spend: matched"))
        #expect(text.contains("amount = \"Rs.5\""))
        #expect(text.contains("tb.move: no match"))
        #expect(text.contains("tb.fields: 'when' pattern did not match"))
        #expect(text.contains("result: transaction by tb.spend"))
    }

    @Test(arguments: [
        ("alerts@tb.example", ["tb"]), ("Test Bank <ALERTS@TB.EXAMPLE>", ["tb"]), ("x@mail.tb.example", ["tb"]),
        ("VM-TBANK", ["tb"]), ("someone@other.example", ["ob"]), ("VM-TBANKX", []), ("evil-tb.example", []),
        // A push notification's sender is the app's package name, written like a domain.
        ("tb.example", ["tb"]), ("app.tb.example", []),
    ])
    func sendersRoute(sender: String, banks: [String]) {
        let indices = engine.rules.router.banks(forSender: sender)
        #expect(indices.map { engine.rules.banks[$0].id } == banks)
    }
}
