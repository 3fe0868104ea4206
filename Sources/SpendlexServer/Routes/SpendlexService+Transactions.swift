import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexRules
import SpendlexStore

/// A user's edit of a transaction: a field left out is left alone; `"note": null` removes the note.
/// `category`, when given, is a string (null is a 400: a category cannot be removed, only replaced);
/// `subcategory`, even null, comes only with `category`.
struct TransactionEditInput: Decodable {
    var category: String?
    var subcategory: String??
    var note: String??

    enum CodingKeys: String, CodingKey { case category, subcategory, note }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        category = c.contains(.category) ? try c.decode(String.self, forKey: .category) : nil
        subcategory = c.contains(.subcategory) ? .some(try c.decodeIfPresent(String.self, forKey: .subcategory)) : .none
        note = c.contains(.note) ? .some(try c.decodeIfPresent(String.self, forKey: .note)) : .none
    }
}

/// Categories are a declared, closed list: checks a category (and subcategory) against the
/// live rules' declarations; 422 `unknown_category` otherwise.
func checkCategory(_ category: String, _ subcategory: String?, in rules: RuleSet) throws(APIError) {
    let declared = rules.categories
    guard let declaration = declared.first(where: { $0.name.value == category }) else {
        throw APIError(.unprocessableContent, "unknown_category",
                       "unknown category '\(category)'; declared: " + declared.map(\.name.value).joined(separator: ", "))
    }
    if let subcategory, !declaration.subcategories.contains(where: { $0.value == subcategory }) {
        throw APIError(.unprocessableContent, "unknown_category", "'\(category)' has no subcategory '\(subcategory)'")
    }
}

extension SpendlexService {
    /// The most transactions one page holds.
    static let maxPage = 500

    /// The ledger's transactions: list with filters and paging, one by id, edit, delete, CSV export.
    func addTransactionRoutes(to table: RouteTable) {
        let rules = rules
        table.get("/transactions") { request, context in
            let ledger = try context.ledger()
            var query = try Self.transactionQuery(QueryReader(request))
            let reader = QueryReader(request)
            let limit = try reader.int("limit", in: 1...Self.maxPage) ?? 50
            let offset = try reader.int("offset", in: 0...Int(Int32.max)) ?? 0
            query.newestFirst = true
            query.limit = limit
            query.offset = offset
            let selected = query
            let (page, total) = try await offloaded {
                try stored { (try ledger.transactions(selected), try ledger.count(selected)) }
            }
            return try JSONResponse.make(PageBody(itemsKey: "transactions", items: page.map(TransactionBody.init),
                                                  total: total, limit: limit, offset: offset))
        }
        table.get("/transactions/export/csv") { request, context in
            let ledger = try context.ledger()
            let reader = QueryReader(request)
            let base = TransactionQuery(from: try reader.date("from"), to: try reader.date("to"),
                                        includeDuplicates: try reader.bool("include_duplicates") ?? false)
            let exporter = LedgerExporter(format: .csv)
            var headers = HTTPFields()
            headers[.contentType] = "text/csv; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"spendlex.csv\""
            // Written a page at a time: the export never sits whole in memory.
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: exporter.header))
                var query = base
                query.limit = 1000
                while true {
                    let current = query
                    let page = try await offloaded { try ledger.transactions(current) }
                    if page.isEmpty { break }
                    try await writer.write(ByteBuffer(string: exporter.rows(page)))
                    query.offset += page.count
                }
                try await writer.finish(nil)
            })
        }
        table.get("/transactions/{id}") { _, context in
            let ledger = try context.ledger()
            let id = try context.id()
            let found: StoredTransaction?
            do { found = try ledger.transaction(id: id) } catch { throw APIError.storeFailed(error) }
            guard let found else { throw APIError.notFound("no transaction \(id)") }
            return try JSONResponse.make(TransactionBody(found))
        }
        table.put("/transactions/{id}") { request, context in
            let ledger = try context.ledger()
            let id = try context.id()
            let input = try await request.decodeJSON(TransactionEditInput.self, context: context)
            var edit = TransactionEdit(note: input.note)
            if let category = input.category {
                let subcategory = input.subcategory ?? nil
                try checkCategory(category, subcategory, in: rules.current.engine.rules.rules)
                edit.category = (category, subcategory)
            } else if input.subcategory != nil {
                throw APIError.invalidField("a subcategory needs its category")
            }
            let found: StoredTransaction?
            do {
                guard try ledger.edit(transaction: id, edit) else { throw APIError.notFound("no transaction \(id)") }
                found = try ledger.transaction(id: id)
            } catch let error as APIError { throw error } catch { throw APIError.storeFailed(error) }
            guard let found else { throw APIError.notFound("no transaction \(id)") }
            return try JSONResponse.make(TransactionBody(found))
        }
        table.delete("/transactions/{id}") { _, context in
            let ledger = try context.ledger()
            let id = try context.id()
            let deleted: Bool
            do { deleted = try ledger.delete(transaction: id) } catch { throw APIError.storeFailed(error) }
            guard deleted else { throw APIError.notFound("no transaction \(id)") }
            return Response(status: .noContent)
        }
    }

    /// The filters of `GET /transactions`: `from`/`to`, else the last `days` days (60 by
    /// default); `category`, `account` (last digits), `q` (text), `status`, `include_duplicates`.
    static func transactionQuery(_ reader: QueryReader) throws(APIError) -> TransactionQuery {
        var from = try reader.date("from")
        let to = try reader.date("to")
        // Checked even when `from` or `to` make it unused: a wrong value is a 400 either way.
        let days = try reader.int("days", in: 1...36500) ?? 60
        if from == nil && to == nil { from = today().adding(days: -(days - 1)) }
        if let from, let to, to < from { throw .invalidField("to is before from") }
        var query = TransactionQuery(from: from, to: to, includeDuplicates: try reader.bool("include_duplicates") ?? false)
        query.category = reader.string("category")
        query.accountLast4 = reader.string("account")
        query.text = reader.string("q")
        if let status = reader.string("status") {
            guard let value = Transaction.Status(rawValue: status) else { throw .invalidField("status must be ok, review or pending") }
            query.status = value
        }
        return query
    }
}
