import Foundation
import Testing
@testable import SpendlexEngine
@testable import SpendlexRules

/// Cards written for the scenarios: round numbers, cash back, so values are easy to check.
let scenarioCards = [
    "cards/bonus.yaml": """
        card: Bonus Grocer
        id: bonus
        issuer: Test Bank
        network: amex
        currency: USD
        program: cash
        foreign_transaction_fee: 3
        as_of: 2026-11-22
        source: https://example.com/bonus
        rewards:
          - id: groceries
            description: supermarkets
            categories: [Groceries]
            exclude: {categories: [Superstores, Warehouse Clubs], merchants: [Walmart]}
            percent: 5
            cap: {amount: 1000, period: year, after: 1}
          - id: base
            percent: 1
        """,
    "cards/rotator.yaml": """
        card: Rotator
        id: rotator
        issuer: Test Bank
        network: discover
        currency: USD
        program: cash
        as_of: 2026-11-22
        source: https://example.com/rotator
        rewards:
          - id: rotating
            percent: 5
            cap: {amount: 1500, period: quarter, after: 1}
            rotating:
              activation: true
              quarters:
                2026-Q4: {categories: [Restaurants]}
          - id: base
            percent: 1
        """,
    "cards/flat2.yaml": """
        card: Flat Two
        id: flat2
        issuer: Test Bank
        network: visa
        currency: USD
        program: cash
        foreign_transaction_fee: 0
        as_of: 2026-11-22
        source: https://example.com/flat2
        rewards:
          - {id: base, percent: 2}
        """,
    "cards/points-a.yaml": """
        card: Points A
        id: points-a
        issuer: Test Bank
        network: visa
        currency: USD
        program: prog-a
        as_of: 2026-11-22
        source: https://example.com/a
        rewards:
          - {id: base, multiplier: 2}
        """,
    "cards/points-b.yaml": """
        card: Points B
        id: points-b
        issuer: Test Bank
        network: mastercard
        currency: USD
        program: prog-b
        as_of: 2026-11-22
        source: https://example.com/b
        rewards:
          - {id: base, multiplier: 2}
        """,
    "points.yaml": """
        programs:
          cash: {name: cash back, cents_per_point: 1}
          prog-a: {name: A points, cents_per_point: 1}
          prog-b: {name: B points, cents_per_point: 1}
        """,
]

/// Loads YAML card and points files from memory.
func loadCards(_ files: [String: String]) -> (RuleSet, [Diagnostic]) {
    var ruleSet = RuleSet()
    var diagnostics: [Diagnostic] = []
    for (path, text) in files.sorted(by: { $0.key < $1.key }) {
        RuleLoader.load(text: text, path: path, into: &ruleSet, diagnostics: &diagnostics)
    }
    return (ruleSet, diagnostics + CardRuleChecker.check(ruleSet))
}

/// A scenario: a wallet, a purchase, a day, and what the advice must say.
struct AdvisorScenario: CustomTestStringConvertible, Sendable {
    let name: String
    let wallet: String
    let request: PurchaseRequest
    var date = "2026-11-22"
    let primary: String
    let value: String
    var secondary: String?
    var secondaryValue: String?
    var warning: String?
    var limitReached: Bool?

    var testDescription: String { name }
}

@Suite("Card advisor scenarios")
struct CardAdvisorTests {
    let ruleSet: RuleSet

    init() {
        let (ruleSet, diagnostics) = loadCards(scenarioCards)
        precondition(diagnostics.isEmpty, "\(diagnostics)")
        self.ruleSet = ruleSet
    }

    func advise(wallet text: String, _ request: PurchaseRequest, on date: String = "2026-11-22") throws -> Advice {
        let (wallet, diagnostics) = WalletFileReader.read(text: text, path: "wallet.yaml", cards: ruleSet.cards,
                                                          programs: ruleSet.pointPrograms)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let advisor = CardAdvisor(table: RewardTable(ruleSet))
        return try advisor.advise(advisor.resolve(request), wallet: try #require(wallet), on: try #require(LocalDate(iso: date)))
    }

    static let scenarios: [AdvisorScenario] = [
        AdvisorScenario(
            name: "cap partly used: $100 of room, $150 = $100 at 5% + $50 at 1%",
            wallet: "cards:\n  - {card: bonus, spent: {groceries: 900}}\n",
            request: PurchaseRequest(merchant: "Whole Foods", amount: 150),
            primary: "bonus", value: "5.5", warning: "cap"),
        AdvisorScenario(
            name: "cap exhausted: the whole purchase at the rate after the cap",
            wallet: "cards:\n  - {card: bonus, spent: {groceries: 1000}}\n  - {card: flat2}\n",
            request: PurchaseRequest(merchant: "Whole Foods", amount: 150),
            primary: "flat2", value: "3", secondary: "bonus", secondaryValue: "1.5", warning: "is reached",
            limitReached: false),
        AdvisorScenario(
            name: "rotating quarter not activated: base rate and a warning",
            wallet: "cards:\n  - {card: rotator}\n  - {card: flat2}\n",
            request: PurchaseRequest(words: "dinner", amount: 100),
            primary: "flat2", value: "2", secondary: "rotator", secondaryValue: "1", warning: "not activated"),
        AdvisorScenario(
            name: "rotating quarter activated: 5%",
            wallet: "cards:\n  - {card: rotator, activated: [2026-Q4]}\n  - {card: flat2}\n",
            request: PurchaseRequest(words: "dinner", amount: 100),
            primary: "rotator", value: "5", secondary: "flat2", secondaryValue: "2"),
        AdvisorScenario(
            name: "rotating quarter of another quarter does not apply",
            wallet: "cards:\n  - {card: rotator, activated: [2026-Q4]}\n",
            request: PurchaseRequest(words: "dinner", amount: 100), date: "2027-01-05",
            primary: "rotator", value: "1"),
        AdvisorScenario(
            name: "excluded merchant: groceries said explicitly, Walmart excluded",
            wallet: "cards:\n  - {card: bonus}\n",
            request: PurchaseRequest(merchant: "Walmart Supercenter", category: "Groceries", amount: 100),
            primary: "bonus", value: "1", warning: "excludes merchant Walmart"),
        AdvisorScenario(
            name: "merchant codes outside the stated category",
            wallet: "cards:\n  - {card: bonus}\n  - {card: flat2}\n",
            request: PurchaseRequest(merchant: "Walmart", words: "groceries", amount: 100),
            primary: "flat2", value: "2", secondary: "bonus", secondaryValue: "1", warning: "usually codes as Superstores"),
        AdvisorScenario(
            name: "equal values: the preferred program wins",
            wallet: "cards:\n  - {card: points-a}\n  - {card: points-b}\npreferences: {preferred_program: prog-b}\n",
            request: PurchaseRequest(words: "gas", amount: 50),
            primary: "points-b", value: "1", secondary: "points-a", secondaryValue: "1"),
        AdvisorScenario(
            name: "equal values without a preference: wallet order",
            wallet: "cards:\n  - {card: points-a}\n  - {card: points-b}\n",
            request: PurchaseRequest(words: "gas", amount: 50),
            primary: "points-a", value: "1", secondary: "points-b", secondaryValue: "1"),
        AdvisorScenario(
            name: "foreign currency: the fee is subtracted",
            wallet: "cards:\n  - {card: bonus}\n  - {card: flat2}\n",
            request: PurchaseRequest(words: "dinner", amount: 100, currency: "EUR"),
            primary: "flat2", value: "2", secondary: "bonus", secondaryValue: "-2"),
        AdvisorScenario(
            name: "user's valuation overrides the points file",
            wallet: "cards:\n  - {card: points-a}\n  - {card: points-b}\npreferences: {points: {prog-a: 1.5}}\n",
            request: PurchaseRequest(words: "gas", amount: 100),
            primary: "points-a", value: "3", secondary: "points-b", secondaryValue: "2"),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: AdvisorScenario) throws {
        let advice = try advise(wallet: scenario.wallet, scenario.request, on: scenario.date)
        let primary = try #require(advice.primary)
        #expect(primary.cardID == scenario.primary)
        #expect("\(primary.estimatedValue)" == scenario.value)
        #expect(primary.rank == 1)
        if let secondary = scenario.secondary {
            #expect(advice.secondary?.cardID == secondary)
            #expect(advice.secondary.map { "\($0.estimatedValue)" } == scenario.secondaryValue)
            #expect(advice.secondary?.rank == 2)
        }
        if let warning = scenario.warning {
            #expect(advice.warnings.contains { $0.contains(warning) }, "\(advice.warnings)")
        }
        if let limitReached = scenario.limitReached {
            #expect(primary.isLimitReached == limitReached)
        }
    }

    @Test func capSplitIsReportedWithSpendingAndLimit() throws {
        let advice = try advise(wallet: "cards:\n  - {card: bonus, spent: {groceries: 900}}\n",
                                PurchaseRequest(merchant: "Whole Foods", amount: 150))
        let primary = try #require(advice.primary)
        #expect(primary.currentSpending == 900)
        #expect(primary.limit == 1000)
        #expect(primary.isLimitReached == false)
        #expect(primary.reasoning.contains("$100.00 fits the cap's remaining $100.00, the other $50.00 earns 1%"))
    }

    @Test func exhaustedCapIsLimitReached() throws {
        let advice = try advise(wallet: "cards:\n  - {card: bonus, spent: {groceries: 1000}}\n",
                                PurchaseRequest(merchant: "Whole Foods", amount: 150))
        let primary = try #require(advice.primary)
        #expect(primary.isLimitReached)
        #expect(primary.estimatedValue == Decimal(string: "1.5"))
    }

    @Test func emptyWalletIsAnError() throws {
        let (wallet, diagnostics) = WalletFileReader.read(text: "cards: []\n", path: "w.yaml", cards: ruleSet.cards,
                                                          programs: ruleSet.pointPrograms)
        #expect(diagnostics.map(\.id) == [.walletEmpty])
        let advisor = CardAdvisor(table: RewardTable(ruleSet))
        #expect(throws: AdvisorError.emptyWallet) {
            try advisor.advise(Purchase(amount: 10), wallet: try #require(wallet), on: LocalDate(year: 2026, month: 1, day: 1)!)
        }
    }

    @Test func walletDiagnosticsAreLocated() {
        let text = """
            cards:
              - card: bonsu
                last4: 12345
                spent: {grocery: 10}
              - card: bonus
                spent: {grocery: 10}
            preferences:
              preferred_program: prog-c
              alert_treshold: 0.9
            """
        let (_, diagnostics) = WalletFileReader.read(text: text, path: "w.yaml", cards: ruleSet.cards,
                                                     programs: ruleSet.pointPrograms)
        #expect(places(diagnostics) == [
            "wallet.unknownCard 2:11", "rule.invalidValue 3:12", "wallet.unknownGroup 6:13",
            "wallet.unknownProgram 8:22", "rule.unknownKey 9:3",
        ])
        #expect(diagnostics.first?.notes.first?.message == "did you mean 'bonus'?")
    }
}

@Suite("Spending so far from a source, per cap period")
struct CardSpendingTests {
    struct FixedSpending: CardSpendingSource {
        let totals: [SpendingTotal]
        func spending(last4: String, from start: LocalDate, through end: LocalDate) throws -> [SpendingTotal] {
            last4 == "1234" ? totals : []
        }
    }

    @Test func ledgerTotalsCoveredByTheGroupCountTowardsItsCap() throws {
        let (ruleSet, _) = loadCards(scenarioCards)
        let (wallet, _) = WalletFileReader.read(text: "cards:\n  - {card: bonus, last4: \"1234\", spent: {groceries: 5}}\n",
                                                path: "w.yaml", cards: ruleSet.cards, programs: ruleSet.pointPrograms)
        let source = FixedSpending(totals: [
            SpendingTotal(category: "Food & Dining", subcategory: "Groceries", merchant: "Kroger", amount: 600),
            SpendingTotal(category: "Food & Dining", subcategory: "Groceries", merchant: "Walmart", amount: 300),
            SpendingTotal(category: "Food & Dining", subcategory: "Groceries", merchant: "Aldi", amount: 300),
            SpendingTotal(category: nil, subcategory: nil, merchant: "Whole Foods", amount: 50),
            SpendingTotal(category: "Transport", subcategory: "Fuel", merchant: "Shell", amount: 80),
        ])
        let advisor = CardAdvisor(table: RewardTable(ruleSet))
        let advice = try advisor.advise(advisor.resolve(PurchaseRequest(merchant: "Whole Foods", amount: 150)),
                                        wallet: try #require(wallet), on: LocalDate(year: 2026, month: 11, day: 22)!,
                                        spending: source)
        // 600 + 300 groceries count (Walmart is excluded; uncategorized and fuel do not count); the ledger wins over the wallet.
        #expect(advice.primary?.currentSpending == 900)
        #expect(advice.primary?.estimatedValue == Decimal(string: "5.5"))
    }

    @Test(arguments: [
        ("month", "2026-11-22", nil, nil, "2026-11-01", "2026-11-30"),
        ("quarter", "2026-11-22", nil, nil, "2026-10-01", "2026-12-31"),
        ("year", "2026-11-22", nil, nil, "2026-01-01", "2026-12-31"),
        ("statement", "2026-11-22", 12, nil, "2026-11-13", "2026-12-12"),
        ("statement", "2026-11-05", 12, nil, "2026-10-13", "2026-11-12"),
        ("statement", "2026-02-28", 31, nil, "2026-02-01", "2026-02-28"),
        ("anniversary", "2026-11-22", nil, "2025-03-14", "2026-03-14", "2027-03-13"),
        ("anniversary", "2026-02-01", nil, "2025-03-14", "2025-03-14", "2026-03-13"),
    ] as [(String, String, Int?, String?, String, String)])
    func capPeriods(_ period: String, _ date: String, _ statementDay: Int?, _ anniversary: String?, _ start: String, _ end: String) {
        let window = CapPeriodWindow(CapPeriod(rawValue: period)!, containing: LocalDate(iso: date)!,
                                     statementDay: statementDay, anniversary: anniversary.flatMap(LocalDay.init(iso:)))
        #expect(window.start.description == start)
        #expect(window.end.description == end)
    }
}

@Suite("Purchase queries in English and Spanish")
struct PurchaseQueryParserTests {
    @Test(arguments: [
        ("groceries at Whole Foods for $150", "Whole Foods", "groceries", "150", "USD"),
        ("cena en Nobu 200 dólares", "Nobu", "cena", "200", "USD"),
        ("gas", nil, "gas", nil, nil),
        ("Netflix subscription", nil, "Netflix subscription", nil, nil),
        ("dinner at Nobu for 1,250.50 EUR", "Nobu", "dinner", "1250.5", "EUR"),
        ("supermercado en Costco por 80 pesos", "Costco", "supermercado", "80", "MXN"),
        ("Rs.500 at BigBasket", "BigBasket", "", "500", "INR"),
    ] as [(String, String?, String, String?, String?)])
    func parses(_ query: String, _ merchant: String?, _ words: String, _ amount: String?, _ currency: String?) {
        let request = PurchaseQueryParser.parse(query)
        #expect(request.merchant == merchant)
        #expect(request.words == words)
        #expect(request.amount.map { "\($0)" } == amount)
        #expect(request.currency == currency)
    }

    @Test(arguments: [
        ("groceries at Whole Foods for $150", "Groceries", "Whole Foods", "5411"),
        ("cena en Nobu 200 dólares", "Restaurants", "Nobu", "5812"),
        ("gas", "Fuel", nil, "5541"),
        ("Netflix subscription", "Streaming", "Netflix", "4899"),
        ("groceries at Walmart for $150", "Superstores", "Walmart", "5310"),
    ] as [(String, String, String?, String)])
    func resolves(_ query: String, _ subcategory: String, _ merchant: String?, _ mcc: String) {
        let advisor = CardAdvisor(table: RewardTable(cards: [], programs: []))
        let purchase = advisor.resolve(PurchaseQueryParser.parse(query))
        #expect(purchase.subcategory == subcategory)
        #expect(purchase.merchant == merchant)
        #expect(purchase.mcc == mcc)
    }

    @Test func explicitCategoryWinsOverTheMerchant() {
        let advisor = CardAdvisor(table: RewardTable(cards: [], programs: []))
        let purchase = advisor.resolve(PurchaseRequest(merchant: "Walmart", category: "groceries"))
        #expect(purchase.subcategory == "Groceries")
        #expect(purchase.category == "Food & Dining")
    }
}
