import Foundation
import Testing

extension EndToEnd {
    @Suite("spendlex recommend and card checks, end to end", .serialized)
    struct RecommendEndToEndTests {
        @Test(arguments: ["card-no-base", "card-ambiguous"])
        func brokenCardFilesGiveGoldenDiagnostics(name: String) throws {
            let result = try spendlex(["check", "Tests/Fixtures/broken-rules/\(name).yaml"])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            try expectGolden(result.stderr, "check-\(name).txt")
        }

        @Test func brokenCardFilesAreRejectedWithTheirLines() throws {
            let noBase = try spendlex(["check", "Tests/Fixtures/broken-rules/card-no-base.yaml"])
            #expect(noBase.stderr.hasPrefix("Tests/Fixtures/broken-rules/card-no-base.yaml:10:1: error: "))
            #expect(noBase.stderr.contains("[card.noBaseRate]"))
            let ambiguous = try spendlex(["check", "Tests/Fixtures/broken-rules/card-ambiguous.yaml"])
            #expect(ambiguous.stderr.hasPrefix("Tests/Fixtures/broken-rules/card-ambiguous.yaml:15:24: error: "))
            #expect(ambiguous.stderr.contains("[card.ambiguousGroups]"))
        }

        @Test func wholeFoodsThenWalmartWithTheExampleWallet() throws {
            let wholeFoods = try spendlex(["recommend", "groceries at Whole Foods for $150", "--wallet", "examples/wallet.yaml",
                                           "--date", "2026-11-22", "--format", "json"])
            #expect(wholeFoods.status == 0, "\(wholeFoods.stderr)")
            let advice = try #require(try JSONSerialization.jsonObject(with: Data(wholeFoods.stdout.utf8)) as? [String: Any])
            let primary = try #require(advice["primaryRecommendation"] as? [String: Any])
            #expect(primary["cardId"] as? String == "amex-gold")
            #expect(primary["rank"] as? Int == 1)
            for key in ["cardId", "cardName", "category", "multiplier", "pointType", "estimatedValue", "currentSpending",
                        "limit", "isLimitReached", "rank", "reasoning"] {
                #expect(primary[key] != nil, "primaryRecommendation lacks \(key)")
            }
            #expect(advice["secondaryRecommendation"] is [String: Any])
            #expect(advice["warnings"] is [Any] && advice["suggestions"] is [Any] && advice["reasoning"] is String)

            let walmart = try spendlex(["recommend", "groceries at Walmart for $150", "--wallet", "examples/wallet.yaml",
                                        "--date", "2026-11-22"])
            #expect(walmart.status == 0, "\(walmart.stderr)")
            #expect(!walmart.stdout.contains("1. American Express Gold Card"))
            #expect(walmart.stdout.contains("warning: Walmart usually codes as Superstores, not Groceries: American Express Gold Card"))
        }

        @Test func explainShowsEveryCardsRows() throws {
            let result = try spendlex(["recommend", "cena en Nobu 200 dólares", "--wallet", "examples/wallet.yaml",
                                       "--date", "2026-11-22", "--explain"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("American Express Gold Card (amex-gold): winner"))
            #expect(result.stdout.contains("Citi Custom Cash Card (citi-custom-cash): rank"))
            #expect(result.stdout.contains("loses by"))
        }

        @Test func emptyWalletIsAClearError() throws {
            let result = try spendlex(["recommend", "gas", "--wallet", "Tests/Fixtures/wallets/empty.yaml"])
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("Tests/Fixtures/wallets/empty.yaml:2:1: error: the wallet has no cards"))
        }

        @Test func usageErrorsExit64() throws {
            #expect(try spendlex(["recommend", "--wallet", "examples/wallet.yaml"]).status == 64)
            #expect(try spendlex(["recommend", "gas", "--category", "Grocries"]).status == 64)
            #expect(try spendlex(["recommend", "gas", "--format", "xml"]).status == 64)
        }

        @Test func missingWalletExits65() throws {
            let result = try spendlex(["recommend", "gas", "--wallet", "no-such-wallet.yaml"])
            #expect(result.status == 65)
        }

        @Test func spendlexExplainShowsTheCardChoiceToo() throws {
            let explained = try spendlex(["explain", "--purchase", "groceries at Walmart for $150",
                                          "--wallet", "examples/wallet.yaml", "--date", "2026-11-22"])
            let recommended = try spendlex(["recommend", "groceries at Walmart for $150", "--explain",
                                            "--wallet", "examples/wallet.yaml", "--date", "2026-11-22"])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout == recommended.stdout && explained.stdout.contains("winner"))
            #expect(try spendlex(["explain"]).status == 64)
        }
    }
}
