import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

@Suite("Suggesting: drafts change no existing example's result")
struct SuggestExistingExamplesCheckTests {
    private static let bundled: RuleEngine = {
        let (compiled, _) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        return RuleEngine(rules: compiled)
    }()

    @Test(arguments: [("€12.50", "€"), ("Rs. 1,250.00", "Rs."), ("INR 1,250.00", "INR"), ("12,50 €", "€"), ("£3.99", "£")])
    func theCurrencyAsWritten(_ amount: String, _ mark: String) {
        #expect(ExistingExamplesCheck.currencyMark(amount) == mark)
    }

    /// A bank without `detect` is a candidate for every message of an unknown sender: this draft
    /// took the Australian profile's "Westpac: You spent $23.50 at …" and read its `$` as
    /// another currency. It is narrowed with a `detect` on its own currency, not dropped.
    @Test func aDraftThatTakesAnotherBanksExampleIsNarrowedByDetect() throws {
        let suggestion = RuleSuggester(engine: Self.bundled).suggest([
            Message(id: "m1", text: "You spent €12.50 at TESCO on 21/11/2026", sender: "BOI"),
            Message(id: "m2", text: "You spent €3.99 at SPAR on 22/11/2026", sender: "BOI"),
        ])
        let yaml = try #require(suggestion.yaml, "\(suggestion.notes)")
        #expect(yaml.contains("\ndetect: ['€']\n"))
        #expect(suggestion.notes.contains { $0.contains("country.au example 1") && $0.contains("detect €") })
        #expect(suggestion.parsers.first?.covers == 2)
        let check = ExistingExamplesCheck(engine: Self.bundled, baseline: RuleTestRunner.run(Self.bundled))
        #expect(check.firstBroken(yaml) == nil)
    }

    /// The same draft when its messages write the currency two ways: no `detect` fits them
    /// all, so the parser is dropped rather than written to take the Australian example.
    @Test func aDraftThatCannotBeNarrowedIsDropped() throws {
        let suggestion = RuleSuggester(engine: Self.bundled).suggest([
            Message(id: "m1", text: "You spent €12.50 at TESCO on 21/11/2026", sender: "BOI"),
            Message(id: "m2", text: "You spent EUR 3.99 at SPAR on 22/11/2026", sender: "BOI"),
        ])
        #expect(suggestion.yaml == nil)
        #expect(suggestion.notes.contains { $0.contains("dropped: it changes the result of country.au example 1") },
                "\(suggestion.notes)")
    }

    @Test func aDraftWithAnExistingBanksIDDoesNotLoadBesideTheRules() throws {
        let check = ExistingExamplesCheck(engine: Self.bundled, baseline: RuleTestRunner.run(Self.bundled))
        let bank = DraftBank(id: "hdfc", name: "HDFC", currency: "INR", senders: ["*-NEWBNK"])
        let parser = DraftParser(id: "hdfc.new", direction: .debit, kind: nil, channel: nil, accountType: nil,
                                 pattern: "Paid %{MONEY:amount} to (?<merchant>.+?)$", covers: 1, examples: [])
        let broken = try #require(check.firstBroken(DraftWriter.write(bank, parsers: [parser])))
        #expect(broken.hasPrefix("loading beside the rules"))
    }

    @Test func aSenderWhoseIDALoadedBankHasIsDraftedUnderANewID() throws {
        let other = """
            bank: Zen
            id: zenbnk
            currency: INR
            senders: ['*-ZENOLD']
            parsers:
              - id: zenbnk.old
                direction: debit
                pattern: 'Old format %{MONEY:amount}'
            """
        let engine = compile(["grammars/common.yaml": commonGrammar, "zen.yaml": other]).0
        let suggestion = RuleSuggester(engine: engine).suggest([
            Message(id: "m1", text: "INR 349.00 spent at BIG BAZAAR on 13-11-26", sender: "VK-ZENBNK"),
        ])
        #expect(suggestion.bank.id == "zenbnk-new", "\(suggestion.notes)")
        #expect(suggestion.yaml?.contains("\nid: zenbnk-new\n") == true)
    }
}
