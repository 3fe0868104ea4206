import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexRules
import SpendlexStore

/// A user's mapping as JSON.
struct CategoryMappingBody: Encodable {
    let id: Int64
    let merchant: String
    let category: String
    let subcategory: String?
    let row: String

    init(_ mapping: CategoryMapping) {
        id = mapping.id
        merchant = mapping.merchant
        category = mapping.category
        subcategory = mapping.subcategory
        row = mapping.rowID
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(merchant, forKey: .merchant)
        try c.encode(category, forKey: .category)
        try c.encode(subcategory, forKey: .subcategory)
        try c.encode(row, forKey: .row)
    }

    enum CodingKeys: String, CodingKey { case id, merchant, category, subcategory, row }
}

extension SpendlexService {
    /// `GET /categories`, the user's mappings (`POST`/`GET /categories/mappings`,
    /// `DELETE /categories/mappings/{id}`) and `GET /reports/summary`.
    func addCategoryRoutes(to table: RouteTable) {
        let rules = rules
        table.get("/categories", access: .shared(.read)) { _, _ in
            struct Category: Encodable {
                let name: String
                let subcategories: [String]
            }
            let declared = rules.current.engine.rules.rules.categories.map {
                Category(name: $0.name.value, subcategories: $0.subcategories.map(\.value))
            }
            return try JSONResponse.make(["categories": declared])
        }
        table.get("/categories/mappings") { request, context in
            let mappings = try context.tenant().mappings
            let all: [CategoryMapping]
            do { all = try mappings.mappings() } catch { throw APIError.storeFailed(error) }
            switch QueryReader(request).string("format") ?? "json" {
            case "json":
                return try JSONResponse.make(["mappings": all.map(CategoryMappingBody.init)])
            case "yaml":
                var headers = HTTPFields()
                headers[.contentType] = "application/yaml; charset=utf-8"
                return Response(status: .ok, headers: headers,
                                body: .init(byteBuffer: ByteBuffer(string: CategoryMappingYAML.document(all))))
            default:
                throw APIError.invalidField("format must be json or yaml")
            }
        }
        table.post("/categories/mappings") { request, context in
            let ledger = try context.ledger()
            let mappings = try context.tenant().mappings
            struct Input: Decodable {
                let merchant: String
                let category: String
                let subcategory: String?
            }
            let input = try await request.decodeJSON(Input.self, context: context)
            guard !CategoryMapping.key(input.merchant).isEmpty else {
                throw APIError.invalidField("merchant must have letters or digits")
            }
            try checkCategory(input.category, input.subcategory, in: rules.current.engine.rules.rules)
            let mapping: CategoryMapping
            do {
                mapping = try ledger.addCategoryMapping(merchant: input.merchant, category: input.category,
                                                        subcategory: input.subcategory)
            } catch { throw APIError.storeFailed(error) }
            mappings.invalidate()
            return try JSONResponse.make(CategoryMappingBody(mapping), status: .created)
        }
        table.delete("/categories/mappings/{id}") { _, context in
            let ledger = try context.ledger()
            let mappings = try context.tenant().mappings
            let id = try context.id()
            guard try stored({ try ledger.deleteCategoryMapping(id: id) }) else {
                throw APIError.notFound("no category mapping \(id)")
            }
            mappings.invalidate()
            return Response(status: .noContent)
        }
        table.get("/reports/summary") { request, context in
            let ledger = try context.ledger()
            let reader = QueryReader(request)
            let periodName = reader.string("period") ?? "month"
            guard let period = ReportPeriod(rawValue: periodName) else {
                throw APIError.invalidField("period must be one of \(ReportPeriod.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let top = try reader.int("top", in: 1...100) ?? 10
            let (from, to) = try reader.dateRange()
            let transactions: [StoredTransaction]
            do { transactions = try ledger.transactions(TransactionQuery(from: from, to: to)) } catch {
                throw APIError.storeFailed(error)
            }
            // The report's own JSON, as `spendlex report --format json` writes it.
            let report = LedgerReport(transactions: transactions, period: period, from: from, to: to, topMerchants: top)
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: ReportFormat.json.render(report))))
        }
        // `GET /recurring`: the payments that repeat (`spendlex recurring --format json`), over the
        // whole ledger or the days `from` and `to` bound.
        table.get("/recurring") { request, context in
            let ledger = try context.ledger()
            let (from, to) = try QueryReader(request).dateRange()
            let transactions: [StoredTransaction]
            do { transactions = try ledger.transactions(TransactionQuery(from: from, to: to)) } catch {
                throw APIError.storeFailed(error)
            }
            return try JSONResponse.make(RecurringPayments.Body(RecurringPayments(transactions: transactions)))
        }
        // `GET /budgets?today=`: where each budget stands (`spendlex budget --format json`), from the
        // budgets file read now; none is a 404 `no_budgets`, one with errors a 422 `invalid_budgets`.
        table.get("/budgets") { request, context in
            let ledger = try context.ledger()
            let budgetsPath = try context.tenant().budgetsPath
            let day = try QueryReader(request).date("today") ?? today()
            guard FileManager.default.fileExists(atPath: budgetsPath) else {
                throw APIError(.notFound, "no_budgets", "no budgets file at \(budgetsPath)")
            }
            let categories = CategoryList.of(rules.current.engine.rules.rules)
            let (budgets, diagnostics, source) = BudgetFileReader.load(path: budgetsPath, categories: categories)
            guard let budgets, !diagnostics.containsErrors else {
                let sources = source.map { [budgetsPath: $0] } ?? [:]
                throw APIError(.unprocessableContent, "invalid_budgets",
                               DiagnosticFormatter(sources: sources).format(diagnostics.sortedByLocation()))
            }
            let transactions: [StoredTransaction]
            do { transactions = try ledger.transactions() } catch { throw APIError.storeFailed(error) }
            return try JSONResponse.make(BudgetStatus.Body(BudgetStatus(budgets: budgets, transactions: transactions, day: day)))
        }
    }
}
