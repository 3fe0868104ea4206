import Foundation
import Testing
import SpendlexMeaning
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// `spendlex ask`: questions in English and Spanish, each with the figure it must give and the
/// transactions it must cite, on a ledger of known transactions; today is 2026-04-15.
@Suite("Questions answered from the ledger")
struct AskTests {
    static let today = LocalDate(iso: "2026-04-15")!

    static func ledgerOfKnownTransactions() throws -> Ledger {
        func t(_ id: String, _ date: String, _ amount: String, _ merchant: String, _ category: String?, _ subcategory: String?,
               direction: Direction = .debit, kind: TransactionKind = .purchase, currency: String = "INR") -> Transaction {
            categorized(id, amount: amount, currency: currency, direction: direction, kind: kind, date: date, merchant: merchant,
                        category: category, subcategory: subcategory, last4: "1234")
        }
        return try ledger(with: [
            t("g1", "2026-03-03", "1200.00", "BigBasket", "Food & Dining", "Groceries"),
            t("g2", "2026-03-18", "800.50", "DMart", "Food & Dining", "Groceries"),
            t("g3", "2026-02-10", "450.00", "BigBasket", "Food & Dining", "Groceries"),
            t("r1", "2026-03-20", "2500.00", "Toit Brewpub", "Food & Dining", "Restaurants"),
            t("n0", "2025-12-05", "499.00", "Netflix", "Entertainment", "Streaming"),
            t("n1", "2026-01-05", "649.00", "Netflix", "Entertainment", "Streaming"),
            t("n2", "2026-02-05", "649.00", "NETFLIX.COM", "Entertainment", "Streaming"),
            t("n3", "2026-03-05", "649.00", "Netflix", "Entertainment", "Streaming"),
            t("s0", "2025-03-31", "80000.00", "ACME Corp", "Income", "Salary", direction: .credit, kind: .salary),
            t("s2", "2026-02-28", "85000.00", "ACME Corp", "Income", "Salary", direction: .credit, kind: .salary),
            t("s1", "2026-03-31", "85000.00", "ACME Corp", "Income", "Salary", direction: .credit, kind: .salary),
            t("a1", "2026-03-25", "15999.00", "Amazon", "Shopping", "Online"),
            t("a2", "2026-03-27", "999.00", "Amazon", "Shopping", "Online", direction: .credit, kind: .refund),
            t("u1", "2026-03-10", "45.00", "Uber", "Transport", "Taxi & Rideshare", currency: "USD"),
            t("t1", "2026-04-02", "320.00", "Uber", "Transport", "Taxi & Rideshare"),
            t("c1", "2026-04-10", "20000.00", "HDFC Card Bill", "Transfers", "Own Accounts", kind: .cardPayment),
            t("d1", "2026-04-12", "5000.00", "Croma", "Shopping", "Electronics", kind: .declined),
            t("g4", "2026-04-14", "300.00", "DMart", "Food & Dining", "Groceries"),
        ])
    }

    /// Question; the figures ("2000.50 INR", several joined by " + "), or the count as "N"; the
    /// message ids cited (in order for the biggest purchases, else as a set).
    static let table: [(String, String, [String])] = [
        ("how much did I spend on groceries in March?", "2000.5 INR", ["g1", "g2"]),
        ("How much did I spend on Groceries in March 2026", "2000.5 INR", ["g1", "g2"]),
        ("how much did I spend on groceries last month", "2000.5 INR", ["g1", "g2"]),
        ("¿Cuánto gasté en supermercado en marzo?", "2000.5 INR", ["g1", "g2"]),
        ("¿cuánto gasté en comida el mes pasado?", "4500.5 INR", ["g1", "g2", "r1"]),
        ("how much did I spend on food in February", "450 INR", ["g3"]),
        ("what did I pay Netflix this year", "1947 INR", ["n1", "n2", "n3"]),
        ("how much did I pay to Netflix last year", "499 INR", ["n0"]),
        ("¿cuánto pagué a Netflix este año?", "1947 INR", ["n1", "n2", "n3"]),
        ("how much did I spend at Amazon in March", "15000 INR", ["a1", "a2"]),
        ("how much did I spend in March", "20149.5 INR + 45 USD", ["g1", "g2", "r1", "n3", "a1", "a2", "u1"]),
        ("total spending this month", "620 INR", ["t1", "g4"]),
        ("¿cuánto he gastado este mes?", "620 INR", ["t1", "g4"]),
        ("how much did I spend yesterday", "300 INR", ["g4"]),
        ("how much did I spend on taxis in March", "45 USD", ["u1"]),
        ("how much did I spend on Taxi & Rideshare this year", "320 INR + 45 USD", ["u1", "t1"]),
        ("how much did I earn in March", "85000 INR", ["s1"]),
        ("how much did I receive this year", "170000 INR", ["s1", "s2"]),
        ("¿cuánto recibí el año pasado?", "80000 INR", ["s0"]),
        ("how much income did I get in 2025", "80000 INR", ["s0"]),
        ("how much did I spend on coffee in March", "", []),
        ("what did I spend at Uber in March?", "45 USD", ["u1"]),
        ("how much did I spend in the last 30 days", "18920.5 INR", ["g2", "r1", "a1", "a2", "t1", "g4"]),
        ("how much did I spend since February", "21868.5 INR + 45 USD",
         ["g3", "n2", "g1", "g2", "r1", "n3", "a1", "a2", "u1", "t1", "g4"]),
        ("biggest purchases last month", "", ["a1", "r1", "g1", "g2", "n3", "u1"]),
        ("top 3 purchases this year", "", ["a1", "r1", "g1", "u1"]),
        ("mayores compras del mes pasado", "", ["a1", "r1", "g1", "g2", "n3", "u1"]),
        ("largest expenses in February", "", ["n2", "g3"]),
        ("how many transactions at Amazon in March", "2", ["a1", "a2"]),
        ("how many transactions this month", "3", ["t1", "c1", "g4"]),
        ("¿cuántas compras hice en Netflix este año?", "3", ["n1", "n2", "n3"]),
    ]

    @Test("each phrasing gives its figure and cites the transactions it counted", arguments: table)
    func answers(_ text: String, _ figure: String, _ cited: [String]) throws {
        let ledger = try Self.ledgerOfKnownTransactions()
        let ids = Dictionary(uniqueKeysWithValues: try ledger.transactions(TransactionQuery(includeDuplicates: true)).map { ($0.id, $0.messageID) })
        let question = try QuestionReader.read(text, today: Self.today, categories: .standard).get()
        let answer = try ledger.answer(question)
        let citedIDs = answer.citations.map { ids[$0] ?? "?" }
        if question.intent == .biggest {
            #expect(citedIDs == cited, "\(text): \(answer.text)")
        } else {
            #expect(Set(citedIDs) == Set(cited), "\(text): \(answer.text)")
        }
        if question.intent == .count {
            #expect(answer.count.map(String.init) == figure, "\(text): \(answer.text)")
        } else if question.intent != .biggest {
            #expect(answer.figures.map { "\($0.amount) \($0.currency)" }.joined(separator: " + ") == figure, "\(text): \(answer.text)")
        }
        #expect(!answer.query.isEmpty)
    }

    @Test("income against spending by month, per currency, transfers and declines left out")
    func incomeVsSpending() throws {
        let ledger = try Self.ledgerOfKnownTransactions()
        for text in ["income vs spending by month", "ingresos vs gastos por mes"] {
            let answer = try ledger.answer(try QuestionReader.read(text, today: Self.today, categories: .standard).get())
            let rows = answer.rows.map { "\($0.label) \($0.currency) " + $0.values.map { "\($0)" }.joined(separator: " ") }
            #expect(rows == [
                "2025-03 INR 80000 0 80000", "2025-12 INR 0 499 -499", "2026-01 INR 0 649 -649", "2026-02 INR 85000 1099 83901",
                "2026-03 INR 85000 20149.5 64850.5", "2026-03 USD 0 45 -45", "2026-04 INR 0 620 -620",
            ], "\(text)")
            #expect(answer.citations.count == 16)
        }
        let thisYear = try ledger.answer(try QuestionReader.read("ingresos vs gastos por mes este año", today: Self.today,
                                                                 categories: .standard).get())
        #expect(thisYear.rows.map(\.label) == ["2026-01", "2026-02", "2026-03", "2026-03", "2026-04"])
    }

    @Test("what cannot be read gets 'I can't answer that' with examples", arguments: [
        "what's the weather", "tell me a joke", "", "¿qué hora es?", "show me my cards",
    ])
    func refusals(_ text: String) {
        guard case .failure(let refusal) = QuestionReader.read(text, today: Self.today, categories: .standard) else {
            Issue.record("\(text) was read")
            return
        }
        #expect(refusal.description.hasPrefix("I can't answer that"))
        #expect(refusal.description.contains("how much did I spend on groceries in March?"))
    }
}

/// A stand-in embedder that knows a few synonyms: each word is replaced by its concept, then the
/// words are hashed into 4,096 dimensions (texts sharing concepts are close, others orthogonal:
/// no two words of these tests share a dimension).
struct SynonymEmbedder: TextEmbedder {
    let dimension = 4096
    let identity = "synonyms/1"
    let concepts: [String: String]

    func embed(_ texts: [String], as role: EmbeddingRole) throws -> [[Float]] {
        texts.map { text in
            var vector = [Float](repeating: 0, count: dimension)
            for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
                let concept = concepts[String(word)] ?? String(word)
                vector[Int(concept.unicodeScalars.reduce(UInt32(7)) { ($0 &* 31) &+ $1.value } % UInt32(dimension))] += 1
            }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? vector.map { $0 / norm } : vector
        }
    }
}

/// `ask` with a phrase no merchant's name holds: read by meaning, through the category the nearest
/// merchants share or those merchants, only among money moving the way the question asks; a
/// capitalized name never; without a model, a notice.
@Suite("Questions read by meaning")
struct AskByMeaningTests {
    static let embedder = SynonymEmbedder(concepts: ["rides": "taxi", "cab": "taxi", "gym": "fit", "fitness": "fit"])

    static func ledger() throws -> (Ledger, [Int64: String]) {
        func t(_ id: String, _ amount: String, _ merchant: String, _ category: String?, _ subcategory: String?,
               direction: Direction = .debit, kind: TransactionKind = .purchase) -> Transaction {
            categorized(id, amount: amount, direction: direction, kind: kind, date: "2026-03-10", merchant: merchant,
                        category: category, subcategory: subcategory)
        }
        let ledger = try SpendlexStoreTests.ledger(with: [
            t("s1", "250.00", "SWIGGY", "Food & Dining", "Food Delivery"),
            t("z1", "410.00", "ZOMATO", "Food & Dining", "Food Delivery"),
            t("u1", "180.00", "UBER", "Transport", "Taxi & Rideshare"),
            t("u2", "220.00", "OLA", "Transport", "Taxi & Rideshare"),
            // Uncategorized: found by meaning as a merchant, not a category.
            t("f1", "1500.00", "FITNESS FIRST CLUB PUNE", nil, nil),
            // A refund from a fitness club: nearer to "gym" than the club's own debit, but money in.
            t("r1", "300.00", "FIT", nil, nil, direction: .credit, kind: .refund),
        ])
        let ids = Dictionary(uniqueKeysWithValues: try ledger.transactions(TransactionQuery(includeDuplicates: true)).map { ($0.id, $0.messageID) })
        return (ledger, ids)
    }

    func ask(_ text: String, _ ledger: Ledger, embedder: TextEmbedder? = AskByMeaningTests.embedder) throws -> Answer {
        try ledger.answer(try QuestionReader.read(text, today: AskTests.today, categories: .standard).get(), embedder: embedder)
    }

    @Test("a phrase whose nearest merchants share a category is that category; the merchants counted are listed")
    func category() throws {
        let (ledger, ids) = try Self.ledger()
        let answer = try ask("how much did I spend on cab rides in March", ledger)
        #expect(answer.reading?.category == "Taxi & Rideshare")
        #expect(answer.reading?.nearest.first?.merchant == "UBER" || answer.reading?.nearest.first?.merchant == "OLA")
        #expect(Set(answer.citations.map { ids[$0] }) == ["u1", "u2"])
        #expect(answer.figures.map { "\($0.amount) \($0.currency)" } == ["400 INR"])
        #expect(answer.merchants.map(\.name) == ["OLA", "UBER"])
        #expect(answer.query.contains("category or subcategory Taxi & Rideshare (read by meaning from \"cab rides\")"))
        #expect(answer.json.contains("\"read_by_meaning\":{\"category\":\"Taxi & Rideshare\""))
    }

    @Test("uncategorized nearest merchants are taken by themselves; spending never takes money that came in, income does")
    func merchants() throws {
        let (ledger, ids) = try Self.ledger()
        let spent = try ask("how much did I spend on gym", ledger)
        #expect(spent.reading?.category == nil)
        #expect(spent.reading?.merchants == ["FITNESS FIRST CLUB PUNE"])
        #expect(spent.citations.map { ids[$0] } == ["f1"])
        #expect(spent.text.hasPrefix("You spent 1,500.00 INR at FITNESS FIRST CLUB PUNE"))
        let received = try ask("how much did I receive from gym", ledger)
        #expect(received.reading?.merchants == ["FIT"])
    }

    @Test("a merchant's name is found by its letters first; a capitalized name is never read by meaning; without a model, a notice")
    func names() throws {
        let (ledger, ids) = try Self.ledger()
        let named = try ask("how much did I spend at swiggy", ledger)
        #expect(named.reading == nil && named.notice == nil)
        #expect(named.citations.map { ids[$0] } == ["s1"])
        let ravi = try ask("what did I pay Ravi this year", ledger)
        #expect(ravi.reading == nil && ravi.citations.isEmpty)
        #expect(ravi.notice?.contains("written as a name") == true)
        let without = try ask("how much did I spend on gym", ledger, embedder: nil)
        #expect(without.reading == nil && without.citations.isEmpty)
        #expect(without.notice?.contains("embedding model") == true)
        #expect(try QuestionReader.read("How much did I spend on Gym", today: AskTests.today, categories: .standard).get().merchantIsAName)
        #expect(try !QuestionReader.read("How much did I spend on gym", today: AskTests.today, categories: .standard).get().merchantIsAName)
    }
}
