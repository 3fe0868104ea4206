import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Messages from 26 banks in 20 countries that the rule pack has no file for
/// (`Tests/Fixtures/fallback/unknown-banks.jsonl`): the bundled fallback must read the amount
/// and currency of most of them, and mark what it reads for review.
@Suite("Fallback on banks without rules")
struct FallbackCoverageTests {
    struct Case: Decodable {
        let id: String
        let sender: String
        let text: String
        let expected: [String: String]
    }

    static let cases: [Case] = {
        let path = repositoryRoot + "/Tests/Fixtures/fallback/unknown-banks.jsonl"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { try! JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    }()

    @Test func theFallbackFindsAmountAndCurrencyForMost() throws {
        let (compiled, diagnostics) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        #expect(!diagnostics.containsErrors)
        let worker = RuleEngine(rules: compiled).makeWorker()
        #expect(Self.cases.count >= 25)
        var found = 0
        var byFallback = 0
        for item in Self.cases {
            let outcome = worker.parse(Message(id: item.id, text: item.text, sender: item.sender, channel: .sms))
            guard let t = outcome.transaction else { continue }
            if t.rule.hasPrefix("generic.") {
                byFallback += 1
                #expect(t.status == .review, "\(item.id): fallback results are for review")
            }
            if t.amount == Decimal(string: item.expected["amount"]!), t.currency == item.expected["currency"] {
                found += 1
            }
        }
        #expect(Double(found) >= 0.9 * Double(Self.cases.count), "amount and currency right for \(found) of \(Self.cases.count)")
        #expect(Double(byFallback) >= 0.8 * Double(Self.cases.count), "read by the fallback: \(byFallback)")
    }
}
