import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// What must hold on every corpus, whatever the accuracy: no transaction without an amount, and
/// no balance taken as the amount. Run over the world conformance corpus (both parts: this
/// checks invariants, it scores nothing) and the fallback fixtures, with the bundled rules.
@Suite("Corpus invariants")
struct CorpusInvariantTests {
    struct Case: Decodable {
        let id: String
        let text: String
        let sender: String?
        let expected: [String: String?]?
    }

    static func cases(_ path: String) -> [Case] {
        let text = (try? String(contentsOfFile: repositoryRoot + "/" + path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    }

    static let corpora = ["Tests/Conformance/world/dev.jsonl", "Tests/Conformance/world/sealed.jsonl",
                          "Tests/Fixtures/fallback/unknown-banks.jsonl"]

    @Test("no transaction without an amount, none with the balance as its amount", arguments: corpora)
    func invariants(_ corpus: String) throws {
        let (compiled, diagnostics) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        #expect(!diagnostics.containsErrors)
        let worker = RuleEngine(rules: compiled).makeWorker()
        let cases = Self.cases(corpus)
        #expect(cases.count >= 25, "\(corpus) holds \(cases.count) cases")
        for item in cases {
            guard let t = worker.parse(Message(id: item.id, text: item.text, sender: item.sender, channel: .sms)).transaction
            else { continue }
            #expect(t.amount != nil, "\(item.id): a transaction without an amount")
            if let balance = item.expected?["balance"].flatMap({ $0 }).flatMap({ Decimal(string: $0) }),
               let amount = item.expected?["amount"].flatMap({ $0 }).flatMap({ Decimal(string: $0) }), balance != amount {
                #expect(t.amount != balance, "\(item.id): the balance \(balance) read as the amount")
            }
        }
    }
}
