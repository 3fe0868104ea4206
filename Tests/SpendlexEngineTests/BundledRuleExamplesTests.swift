import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Every example and counter-example in `rules/` is a test, as SwiftLint's rule examples are.
@Suite("Bundled rule files")
struct BundledRuleExamplesTests {
    static let loaded = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
    static var parserIDs: [String] { loaded.0.banks.flatMap { $0.parsers.map(\.id) } }

    @Test func compileWithoutErrorsOrWarnings() {
        let (compiled, diagnostics) = Self.loaded
        let lint = RuleTestRunner.lint(RuleEngine(rules: compiled))
        #expect((diagnostics + lint).isEmpty, "\(diagnostics + lint)")
    }

    @Test(arguments: parserIDs)
    func examplesPass(parserID: String) throws {
        let (compiled, _) = Self.loaded
        // Run the whole suite restricted to one parser's examples.
        let report = RuleTestRunner.run(RuleEngine(rules: compiled), only: parserID)
        #expect(report.failures.isEmpty, "\(report.failures.map(\.description))")
        #expect(report.passed > 0)
    }
}

/// The rule pack's promises: breadth, and every parser and bank tested both ways.
@Suite("Bundled rule pack")
struct BundledRulePackTests {
    @Test func everyParserHasTwoExamplesAndEveryBankTwoCounterExamples() {
        let (compiled, _) = BundledRuleExamplesTests.loaded
        for bank in compiled.banks {
            for parser in bank.parsers {
                #expect(parser.rule.examples.count >= 2, "\(parser.id) has \(parser.rule.examples.count) example(s)")
            }
            let counters = bank.parsers.reduce(0) { $0 + $1.rule.counterExamples.count }
            #expect(counters >= 2, "\(bank.id) has \(counters) counter-example(s)")
        }
    }

    /// Not a rule example: it names both a debit and a credit word (`spendlex check` would call it
    /// ambiguous), which is the point.
    @Test("an offer at the end of a payment alert is no cashback, and the payment stays a debit")
    func cashbackOfferIsNoKind() throws {
        let (compiled, _) = BundledRuleExamplesTests.loaded
        let text = "You have successfully paid RM 22.40 to SAMPLE MART on 11/09/2026. Ref: TX0012345. Claim your cashback voucher now!"
        let t = try #require(RuleEngine(rules: compiled).makeWorker().parse(Message(id: "m", text: text, channel: .sms)).transaction)
        #expect(t.kind == nil && t.direction == .debit && t.amountText == "22.40")
    }

    /// Not a rule example: it says "incoming payment" and "credited" both (generic.credit.incoming and
    /// generic.credit read it, which `spendlex check` would call ambiguous); its "Due date" (the value
    /// date) is no bill's due date, since the bank says it credited the payment.
    @Test("an incoming payment the bank says it credited is money in, whatever its due date")
    func incomingPaymentWithADueDate() throws {
        let (compiled, _) = BundledRuleExamplesTests.loaded
        let text = "Incoming payment\nAmount: 10,00 CZK\nWe have credited the payment from account 43-9752450267/0100.\nDue date: 06.05.2026"
        let t = try #require(RuleEngine(rules: compiled).makeWorker().parse(Message(id: "m", text: text, channel: .email)).transaction)
        #expect(t.direction == .credit && t.amountText == "10.00" && t.currency == "CZK")
    }

    @Test func atLeastFortyBanksInTenCountries() {
        let (compiled, _) = BundledRuleExamplesTests.loaded
        let banks = compiled.banks.filter { !$0.isFallback }
        let countries = Set(banks.compactMap(\.rules.country))
        #expect(banks.count >= 40 && countries.count >= 10, "\(banks.count) banks in \(countries.count) countries")
        let report = RuleTestRunner.run(RuleEngine(rules: compiled))
        #expect(report.examples >= 200 && report.counterExamples >= 60 && report.failed == 0, "\(report.coverage)")
    }
}
