import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexMail
import SpendlexRules
import SpendlexStore

extension SpendlexService {
    /// The wallet over HTTP, the advisor's preferences, and `POST /recommendations`.
    func addWalletRoutes(to table: RouteTable) {
        let rules = rules
        table.get("/wallet/cards") { _, context in
            let ledger = try context.ledger()
            return try JSONResponse.make(["cards": try stored { try ledger.walletCards() }.map(WalletCardBody.init)])
        }
        table.post("/wallet/cards") { request, context in
            let ledger = try context.ledger()
            let input = try await request.decodeJSON(WalletCardInput.self, context: context)
            let fields = try input.fields(rules: rules.current.engine.rules.rules)
            return try JSONResponse.make(WalletCardBody(record: try stored { try ledger.addWalletCard(fields) }), status: .created)
        }
        table.get("/wallet/cards/{id}") { _, context in
            let ledger = try context.ledger()
            return try JSONResponse.make(WalletCardBody(record: try card(try context.id(), in: ledger)))
        }
        table.put("/wallet/cards/{id}") { request, context in
            let ledger = try context.ledger()
            let id = try context.id()
            let input = try await request.decodeJSON(WalletCardInput.self, context: context)
            let fields = try input.fields(rules: rules.current.engine.rules.rules)
            guard try stored({ try ledger.updateWalletCard(id: id, fields) }) else { throw APIError.notFound("no wallet card \(id)") }
            return try JSONResponse.make(WalletCardBody(record: try card(id, in: ledger)))
        }
        table.delete("/wallet/cards/{id}") { _, context in
            let ledger = try context.ledger()
            let id = try context.id()
            guard try stored({ try ledger.deleteWalletCard(id: id) }) else { throw APIError.notFound("no wallet card \(id)") }
            return Response(status: .noContent)
        }
        table.put("/wallet/cards/{id}/spending") { request, context in
            let ledger = try context.ledger()
            let id = try context.id()
            struct Input: Decodable {
                let spent: [String: String]
                let as_of: String?

                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    spent = try c.decode([String: String].self, forKey: .spent)
                    as_of = try c.decodeUnlessLeftOut(String.self, forKey: .as_of)
                }
                enum CodingKeys: String, CodingKey { case spent, as_of }
            }
            let input = try await request.decodeJSON(Input.self, context: context)
            let text = input.as_of ?? today().description
            guard LocalDate(iso: text) != nil, let asOf = LocalDay(iso: text) else {
                throw APIError(.unprocessableContent, "invalid_spending", "as_of must be a day such as 2026-05-02")
            }
            let record = try card(id, in: ledger)
            let groups = Set(rules.current.engine.rules.rules.cards.first { $0.id.value == record.fields.card }?
                .rewards.map(\.id.value) ?? [])
            var spent: [String: SpendingCorrection] = [:]
            for (group, text) in input.spent {
                guard groups.contains(group) else {
                    throw APIError(.unprocessableContent, "invalid_spending",
                                   "'\(record.fields.card)' has no reward group '\(group)'; it has: \(groups.sorted().joined(separator: ", "))")
                }
                guard let amount = unsignedDecimal(text) else {
                    throw APIError(.unprocessableContent, "invalid_spending", "spent.\(group) must be a decimal string such as \"450.00\"")
                }
                spent[group] = SpendingCorrection(amount: amount, asOf: asOf)
            }
            guard try stored({ try ledger.setWalletSpending(card: id, spent) }) else { throw APIError.notFound("no wallet card \(id)") }
            return try JSONResponse.make(WalletCardBody(record: try card(id, in: ledger)))
        }
        table.get("/preferences") { _, context in
            let ledger = try context.ledger()
            return try JSONResponse.make(PreferencesBody(stored: try stored { try ledger.preferences() }))
        }
        table.put("/preferences") { request, context in
            let ledger = try context.ledger()
            let input = try await request.decodeJSON(PreferencesInput.self, context: context)
            var changes: [String: String?] = [:]
            if let program = input.preferredProgram {
                if let program, !rules.current.engine.rules.rules.pointPrograms.contains(where: { $0.id.value == program }) {
                    throw APIError(.unprocessableContent, "invalid_preferences", "unknown reward program '\(program)'")
                }
                changes[PreferencesBody.preferredProgramKey] = program
            }
            if let text = input.alertThreshold {
                guard let threshold = unsignedDecimal(text), threshold <= 1 else {
                    throw APIError(.unprocessableContent, "invalid_preferences", "alert_threshold must be a decimal string from 0 to 1")
                }
                changes[PreferencesBody.alertThresholdKey] = "\(threshold)"
            }
            try stored { try ledger.setPreferences(changes) }
            return try JSONResponse.make(PreferencesBody(stored: try stored { try ledger.preferences() }))
        }
        table.post("/recommendations", access: .person(.read)) { request, context in
            let ledger = try context.ledger()
            struct Input: Decodable {
                let query: String?
                let merchant: String?
                let category: String?
                let mcc: String?
                let amount: String?
                let currency: String?
                let online: Bool?
                let date: String?

                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    query = try c.decodeUnlessLeftOut(String.self, forKey: .query)
                    merchant = try c.decodeUnlessLeftOut(String.self, forKey: .merchant)
                    category = try c.decodeUnlessLeftOut(String.self, forKey: .category)
                    mcc = try c.decodeUnlessLeftOut(String.self, forKey: .mcc)
                    amount = try c.decodeUnlessLeftOut(String.self, forKey: .amount)
                    currency = try c.decodeUnlessLeftOut(String.self, forKey: .currency)
                    online = try c.decodeUnlessLeftOut(Bool.self, forKey: .online)
                    date = try c.decodeUnlessLeftOut(String.self, forKey: .date)
                }
                enum CodingKeys: String, CodingKey { case query, merchant, category, mcc, amount, currency, online, date }
            }
            let input = try await request.decodeJSON(Input.self, context: context)
            func invalid(_ message: String) -> APIError { APIError(.unprocessableContent, "invalid_purchase", message) }
            if input.query == nil, input.merchant == nil, input.category == nil, input.mcc == nil {
                throw invalid("say what you are buying: query, or merchant, category or mcc")
            }
            if let amount = input.amount, PurchaseQueryParser.money(amount) == nil { throw invalid("amount is not an amount") }
            if let mcc = input.mcc, mcc.utf8.count != 4 || !mcc.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                throw invalid("mcc must be four digits")
            }
            let day: LocalDate
            if let date = input.date {
                guard let parsed = LocalDate(iso: date) else { throw invalid("date must be a day such as 2026-05-02") }
                day = parsed
            } else {
                day = today()
            }
            let compiled = rules.current.engine.rules
            let categories = CategoryList.of(compiled.rules)
            if let category = input.category, categories.resolve(category) == nil {
                throw invalid("unknown category '\(category)'; known: \(categories.allNames.joined(separator: ", "))")
            }
            let wallet = advisorWallet(cards: try stored { try ledger.walletCards() },
                                       preferences: try stored { try ledger.preferences() })
            let advisor = CardAdvisor(rules: compiled)
            let purchase = advisor.resolve(PurchaseRequest(
                query: input.query, merchant: input.merchant, category: input.category, mcc: input.mcc, amount: input.amount,
                currency: input.currency, online: input.online ?? false))
            let advice: Advice
            do {
                advice = try advisor.advise(purchase, wallet: wallet, on: day, spending: ledger)
            } catch let error as AdvisorError {
                throw APIError(.unprocessableContent, "empty_wallet", "\(error): add cards with POST /wallet/cards")
            } catch {
                throw APIError.storeFailed(error)
            }
            // The advisor's own JSON, as `spendlex recommend --format json` writes it.
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: AdviceWriter.json(advice))))
        }
    }
}

/// A ledger call; its failure is a 500 `store_failed` (the detail is not sent).
func stored<T>(_ body: () throws -> T) throws(APIError) -> T {
    do { return try body() } catch { throw APIError.storeFailed(error) }
}

/// A wallet card by id; 404 when there is none.
private func card(_ id: Int64, in ledger: Ledger) throws(APIError) -> WalletCardRecord {
    guard let found = try stored({ try ledger.walletCards() }).first(where: { $0.id == id }) else {
        throw APIError.notFound("no wallet card \(id)")
    }
    return found
}
