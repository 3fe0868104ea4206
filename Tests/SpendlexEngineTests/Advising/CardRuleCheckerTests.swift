import Testing
@testable import SpendlexEngine
@testable import SpendlexRules

@Suite("Card reward tables: static checks")
struct CardRuleCheckerTests {
    static let header = """
        card: Test Card
        id: test-card
        issuer: Test Bank
        network: visa
        currency: USD
        program: cash
        as_of: 2026-11-22
        source: https://example.com

        """

    @Test(arguments: [
        ("no base rate row", """
            rewards:
              - {id: dining, categories: [Restaurants], percent: 3}
            """, ["card.noBaseRate 9:1"]),
        ("the same category in two groups", """
            rewards:
              - {id: dining, categories: [Restaurants], percent: 3}
              - {id: food, categories: [Groceries, Restaurants], percent: 2}
              - {id: base, percent: 1}
            """, ["card.ambiguousGroups 11:40"]),
        ("a category and its subcategory", """
            rewards:
              - {id: food, categories: [Food & Dining], percent: 2}
              - {id: dining, categories: [Restaurants], percent: 3}
              - {id: base, percent: 1}
            """, ["card.ambiguousGroups 11:31"]),
        ("the same merchant in two groups", """
            rewards:
              - {id: a, merchants: [Amazon], percent: 3}
              - {id: b, merchants: [amazon], percent: 5}
              - {id: base, percent: 1}
            """, ["card.ambiguousGroups 11:25"]),
        ("a priority chooses", """
            rewards:
              - {id: dining, categories: [Restaurants], percent: 3}
              - {id: promo, categories: [Restaurants], percent: 5, priority: 1}
              - {id: base, percent: 1}
            """, []),
        ("windows that do not overlap", """
            rewards:
              - {id: h1, categories: [Restaurants], percent: 3, active: {until: 2026-06-30}}
              - {id: h2, categories: [Restaurants], percent: 5, active: {from: 2026-07-01}}
              - {id: base, percent: 1}
            """, []),
        ("excluded overlap", """
            rewards:
              - {id: food, categories: [Food & Dining], exclude: {categories: [Restaurants]}, percent: 2}
              - {id: dining, categories: [Restaurants], percent: 3}
              - {id: base, percent: 1}
            """, []),
        ("two base rows", """
            rewards:
              - {id: base, percent: 1}
              - {id: base2, percent: 2}
            """, ["card.ambiguousGroups 11:10"]),
        ("unknown category", """
            rewards:
              - {id: dining, categories: [Restaurant], percent: 3}
              - {id: base, percent: 1}
            """, ["card.unknownCategory 10:31"]),
        ("rotating quarters against a fixed group", """
            rewards:
              - id: rotating
                percent: 5
                rotating: {quarters: {2026-Q1: {categories: [Restaurants]}}}
              - {id: dining, categories: [Restaurants], percent: 3}
              - {id: base, percent: 1}
            """, ["card.ambiguousGroups 13:31"]),
    ] as [(String, String, [String])])
    func check(_ name: String, _ rewards: String, _ expected: [String]) {
        let (_, diagnostics) = loadCards(["card.yaml": Self.header + rewards + "\n"])
        #expect(places(diagnostics) == expected, "\(name): \(diagnostics)")
    }

    @Test func ambiguousGroupsPointAtBothGroups() {
        let (_, diagnostics) = loadCards(["card.yaml": Self.header + """
            rewards:
              - {id: dining, categories: [Restaurants], percent: 3}
              - {id: food, categories: [Restaurants], percent: 2}
              - {id: base, percent: 1}
            """])
        let diagnostic = diagnostics.first { $0.id == .cardAmbiguousGroups }
        #expect(diagnostic?.notes.first?.location?.line == 10)
        #expect(diagnostic?.message.contains("'dining' and 'food'") == true)
    }

    @Test func cardFileShapeErrorsAreLocated() {
        let (_, diagnostics) = loadCards(["card.yaml": """
            card: Test Card
            id: test-card
            issuer: Test Bank
            network: visaa
            program: cash
            as_of: 2026-13-01
            source: https://example.com
            rewards:
              - {id: a, percent: 3, multiplier: 2}
              - {id: b, categories: [Groceries], cap: {amount: 10, period: fortnight}, percent: 1}
              - {id: base, percnt: 1}
            """])
        // Group 'a' has no usable rate and names nothing, so it is a second catch-all beside 'base'.
        #expect(places(diagnostics) == [
            "rule.invalidValue 4:10", "rule.invalidValue 6:8", "rule.invalidValue 9:22", "rule.invalidValue 10:64",
            "rule.missingKey 11:5", "card.ambiguousGroups 11:10", "rule.unknownKey 11:16",
        ])
    }

    @Test func bundledCardsAreClean() {
        let (ruleSet, diagnostics) = RuleLoader.load(paths: [repositoryRoot + "/rules/cards", repositoryRoot + "/rules/points.yaml"])
        let all = diagnostics + CardRuleChecker.check(ruleSet)
        #expect(all.isEmpty, "\(all)")
        #expect(ruleSet.cards.count >= 15)
        #expect(Set(ruleSet.cards.compactMap(\.country)) == ["US", "IN"])
        for card in ruleSet.cards {
            #expect(card.asOf != nil && !card.sources.isEmpty, "\(card.id.value) needs as_of and source")
            #expect(card.sources.allSatisfy { $0.hasPrefix("https://") })
        }
    }
}

@Suite("Done when: the bundled Amex Gold, Freedom Unlimited and Custom Cash")
struct CardAdvisorDoneWhenTests {
    let advisor: CardAdvisor
    let wallet: Wallet

    init() throws {
        let (ruleSet, _) = RuleLoader.load(paths: [repositoryRoot + "/rules/cards", repositoryRoot + "/rules/points.yaml"])
        advisor = CardAdvisor(table: RewardTable(ruleSet))
        let (wallet, diagnostics) = WalletFileReader.read(text: """
            cards:
              - {card: amex-gold}
              - {card: chase-freedom-unlimited}
              - {card: citi-custom-cash}
            """, path: "wallet.yaml", cards: ruleSet.cards, programs: ruleSet.pointPrograms)
        precondition(diagnostics.isEmpty)
        self.wallet = wallet!
    }

    func advice(_ query: String) throws -> Advice {
        try advisor.advise(advisor.resolve(PurchaseQueryParser.parse(query)), wallet: wallet,
                           on: LocalDate(year: 2026, month: 11, day: 22)!)
    }

    @Test func wholeFoodsGroceriesRecommendAmexGoldFirst() throws {
        let advice = try advice("groceries at Whole Foods for $150")
        #expect(advice.primary?.cardID == "amex-gold")
        #expect(advice.primary?.multiplier == 4)
        #expect(advice.primary?.estimatedValue == 12)
        #expect(advice.secondary?.cardID == "citi-custom-cash")
    }

    @Test func walmartGroceriesDoNotAndSayWhy() throws {
        let advice = try advice("groceries at Walmart for $150")
        #expect(advice.primary?.cardID != "amex-gold")
        #expect(advice.primary?.cardID == "chase-freedom-unlimited")
        #expect(advice.warnings.contains {
            $0.contains("Walmart") && $0.contains("American Express Gold Card") && $0.contains("Superstores") && $0.contains("excludes")
        }, "\(advice.warnings)")
    }
}

@Suite("Bundled Indian cards")
struct IndianCardsTests {
    @Test(arguments: [
        ("dinner on Swiggy for ₹800", "axis-ace", "32"),
        ("Rs.2000 at Amazon", "sbi-cashback", "100"),
        ("shoes at Myntra for Rs 3000", "hdfc-regalia-gold", "200"),
    ])
    func recommends(_ query: String, _ card: String, _ value: String) throws {
        let (ruleSet, _) = RuleLoader.load(paths: [repositoryRoot + "/rules/cards", repositoryRoot + "/rules/points.yaml"])
        let (wallet, diagnostics) = WalletFileReader.read(text: """
            cards:
              - {card: sbi-cashback}
              - {card: hdfc-regalia-gold}
              - {card: axis-ace}
              - {card: amazon-pay-icici}
            """, path: "wallet.yaml", cards: ruleSet.cards, programs: ruleSet.pointPrograms)
        #expect(diagnostics.isEmpty)
        let advisor = CardAdvisor(table: RewardTable(ruleSet))
        let advice = try advisor.advise(advisor.resolve(PurchaseQueryParser.parse(query)), wallet: try #require(wallet),
                                        on: LocalDate(year: 2026, month: 11, day: 22)!)
        #expect(advice.primary?.cardID == card)
        #expect(advice.primary.map { "\($0.estimatedValue)" } == value)
    }
}
