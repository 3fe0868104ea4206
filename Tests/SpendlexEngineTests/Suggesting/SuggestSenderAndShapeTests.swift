import Foundation
import Testing
@testable import SpendlexEngine

@Suite("Suggesting: grouping by sender and by shape")
struct SuggestSenderAndShapeTests {
    @Test func sendersAreKeyedByDomainOrIDWithoutOperatorPrefix() {
        #expect(SenderGroups.key(forSender: "alerts@mybank.co.uk") == "mybank")
        #expect(SenderGroups.key(forSender: "noreply@mail.mybank.co.uk") == "mybank")
        #expect(SenderGroups.key(forSender: "AD-KOTAKB") == "kotakb")
        #expect(SenderGroups.key(forSender: "VM-KOTAKB") == "kotakb")
        #expect(SenderGroups.key(forSender: "+447700900123") == "+447700900123")
        #expect(SenderGroups.key(forSender: "com.phonepe.app") == "phonepe")
        #expect(SenderGroups.key(forSender: "in.amazon.mShop.android.shopping") == "amazon")
        #expect(SenderGroups.key(forSender: "  ") == nil)
        let groups = SenderGroups([
            Message(id: "1", text: "a", sender: "AD-KOTAKB"), Message(id: "2", text: "b", sender: "alerts@mybank.co.uk"),
            Message(id: "3", text: "c", sender: "VM-KOTAKB"), Message(id: "4", text: "d"),
        ]).groups
        #expect(groups.map(\.key) == ["kotakb", "mybank", nil])
        #expect(groups.map { $0.messages.map(\.id) } == [["1", "3"], ["2"], ["4"]])
    }

    private func shape(_ text: String) throws -> MessageShape {
        let generalizer = PatternGeneralizer(fragments: compile(["grammars/common.yaml": commonGrammar]).0.rules.rules.fragments,
                                             country: "GB")
        return MessageShape(try #require(generalizer.generalize(text)))
    }

    @Test func aChangedNameCostsLittleAndAChangedVerbMuch() throws {
        let spent = try shape("JOHN SMITH has paid £12.50 into your account on 21/11/2026.")
        let otherName = try shape("MARY ANN JONES has paid £3.10 into your account on 22/11/2026.")
        let otherVerb = try shape("JOHN SMITH has received £12.50 into your account on 21/11/2026.")
        #expect(spent.isSameShape(as: otherName))
        #expect(!spent.isSameShape(as: otherVerb))
        #expect(spent.normalizedDistance(to: otherName) < spent.normalizedDistance(to: otherVerb))
        let types = spent.tokens.map(\.kind)
        #expect(types.contains(.amount) && types.contains(.date) && types.contains(.name) && types.contains(.word))
    }

    @Test func theVaryingNameBecomesTheMerchant() throws {
        let text = "JOHN SMITH has paid £12.50 into your account on 21/11/2026."
        let a = try shape(text)
        let b = try shape("MARY ANN JONES has paid £3.10 into your account on 22/11/2026.")
        let runs = a.varyingRuns(against: b)
        #expect(runs.count == 1)
        #expect(runs.first?.isName == true)
        let range = try #require(runs.first?.range)
        #expect(String(decoding: Array(text.utf8)[range], as: UTF8.self) == "JOHN SMITH")
    }

    @Test func oneDraftPerSenderNamedForItWithTheVaryingNameAsMerchant() throws {
        let engine = compile(["grammars/common.yaml": commonGrammar]).0
        let bank = "alerts@thamesmutual.co.uk"
        let drafts = RuleSuggester(engine: engine).suggestBanks([
            Message(id: "a1", text: "You spent £12.50 at TESCO on 21/11/2026 with card ending 4421.", sender: bank),
            Message(id: "b1", text: "JOHN SMITH has paid £12.50 into your account on 21/11/2026.", sender: "VM-ZENBNK"),
            Message(id: "a2", text: "You spent £3.99 at SPAR on 22/11/2026 with card ending 4421.", sender: bank),
            Message(id: "b2", text: "MARY ANN JONES has paid £3.10 into your account on 22/11/2026.", sender: "AD-ZENBNK"),
            Message(id: "p", text: "Hey, can you send me £20 for the pizza tonight?", sender: "+447700900123"),
        ])
        let written = drafts.filter { $0.yaml != nil }
        #expect(written.map(\.bank.id) == ["thamesmutual", "zenbnk"], "\(drafts.flatMap(\.notes))")
        #expect(drafts.flatMap(\.notes).contains { $0.hasPrefix("message p: refused") })
        let zen = try #require(written.last)
        #expect(zen.parsers.count == 1, "\(zen.notes)")
        #expect(zen.parsers.first?.covers == 2)
        #expect(zen.parsers.first?.pattern.hasPrefix("(?<merchant>") == true, "\(zen.parsers.first?.pattern ?? "")")
        #expect(zen.extractions.map { $0.fields.first { $0.field == .merchant }?.value } == ["JOHN SMITH", "MARY ANN JONES"])
        #expect(written.allSatisfy { $0.testReport?.failed == 0 })
    }
}
