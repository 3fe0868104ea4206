import Foundation
import Testing
import SpendlexEngine
import SpendlexRules
@testable import SpendlexMail

/// A message posted as JSON to the service, read without the service.
@Suite("Posted messages")
struct PostedMessageTests {
    static let rules = """
        id: tb
        country: IN
        senders: ["*-TBANK", "alerts@tbank.example"]
        parsers:
          - id: tb.spend
            direction: debit
            pattern: 'spent Rs\\.(?<amount>\\d+) on (?<date>\\S+)'
        """

    func worker() -> RuleEngine.Worker {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: Self.rules, path: "tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        return RuleEngine(rules: RuleCompiler.compile(ruleSet).0).makeWorker()
    }

    func input(_ json: String) throws -> MessageInput {
        try JSONDecoder().decode(MessageInput.self, from: Data(json.utf8))
    }

    @Test func anSMSIsParsedWithADerivedID() throws {
        let (message, outcome) = try PostedMessage.read(try input(#"{"sender": "VM-TBANK", "text": "spent Rs.5 on 02-05-2026"}"#),
                                                        worker: worker())
        #expect(message.id.hasPrefix("sms:") && message.channel == .sms)
        #expect(outcome.transaction?.amountText == "5")
    }

    @Test func aRawEmailIsReadThroughItsHeaders() throws {
        let email = #"{"email": "From: alerts@tbank.example\nSubject: x\nMessage-ID: <m1@tbank.example>\n\nspent Rs.7 on 03-05-2026\n"}"#
        let (message, outcome) = try PostedMessage.read(try input(email), worker: worker())
        #expect(message.id == "m1@tbank.example" && message.channel == .email && message.sender == "alerts@tbank.example")
        #expect(outcome.transaction?.amountText == "7")
    }

    @Test("refusals say why", arguments: [
        (#"{"text": "a", "email": "From: a@b.c\n\nx"}"#, PostedMessage.Problem.invalidMessage("give text or email, not both")),
        (#"{}"#, .invalidMessage("give text (an SMS or notification) or email (a raw email)")),
        (#"{"text": "x", "channel": "fax"}"#, .invalidMessage("channel must be sms, push or email")),
        (#"{"email": "hello world"}"#,
         .invalidEmail("not an email: it must start with a header field (Name: value), after an optional mbox From line")),
    ])
    func refusals(json: String, problem: PostedMessage.Problem) throws {
        #expect(throws: problem) { try PostedMessage.read(try input(json), worker: worker()) }
    }

    @Test func aNullIsNotALeftOutField() {
        #expect(throws: DecodingError.self) { try input(#"{"text": null}"#) }
    }
}
