import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexRules

extension SpendlexService {
    /// A person's own rule files on a household service: bank files (and grammars) that apply to
    /// their messages alone, beside the shared rules. `GET /rules/mine` lists them; `PUT
    /// /rules/mine/{file}` saves one when the set with it compiles (else 422 with its diagnostics,
    /// and nothing changes); `DELETE` removes one. A service serving one ledger answers 404
    /// `not_hosting`: its rules are the operator's `--rules`.
    func addOwnRuleRoutes(to table: RouteTable) {
        @Sendable func ownTenant(_ context: ServiceRequestContext) throws(APIError) -> Tenant {
            let tenant = try context.tenant()
            guard tenant.ownFolder != nil else {
                throw APIError(.notFound, "not_hosting", "own rule files are a household's (serve --people); this service's rules are its --rules")
            }
            return tenant
        }
        @Sendable func fileName(_ context: ServiceRequestContext) throws(APIError) -> String {
            let name = (try? context.parameters.require("file")) ?? ""
            // A plain file name: no folder, no hidden file, a YAML extension.
            guard name.utf8.count <= 64, name.hasSuffix(".yaml"), let first = name.unicodeScalars.first,
                  CharacterSet.alphanumerics.contains(first),
                  name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0) }),
                  name.unicodeScalars.allSatisfy(\.isASCII) else {
                throw APIError.invalidField("a rule file's name is letters, digits, '.', '_' or '-', ending in .yaml (at most 64 characters)")
            }
            return name
        }

        table.get("/rules/mine") { _, context in
            let tenant = try ownTenant(context)
            struct Body: Encodable {
                let files: [String]
                let banks: [String]
            }
            let files = tenant.ownFiles
            let folder = tenant.ownFolder!.path
            let banks = tenant.rules.current.engine.rules.banks
                .filter { $0.rules.location.file.hasPrefix(folder + "/") }.map(\.id)
            return try JSONResponse.make(Body(files: files, banks: banks))
        }
        table.put("/rules/mine/{file}") { request, context in
            let tenant = try ownTenant(context)
            let name = try fileName(context)
            struct Input: Decodable { let yaml: String }
            let input = try await request.decodeJSON(Input.self, context: context)
            do {
                _ = try await offloaded { try tenant.changeOwnFile(name, to: input.yaml) }
            } catch let error as Tenant.OwnRulesError {
                throw Self.answer(error, tenant: tenant)
            }
            struct Body: Encodable {
                let file: String
                let banks: [String]
                let diagnostics: [DiagnosticBody]
            }
            let folder = tenant.ownFolder!.path
            let snapshot = tenant.rules.current
            let path = folder + "/" + name
            return try JSONResponse.make(Body(
                file: name,
                banks: snapshot.engine.rules.banks.filter { $0.rules.location.file == path }.map(\.id),
                diagnostics: snapshot.diagnostics.filter { $0.location.file == path }
                    .map { DiagnosticBody($0, folder: folder, shownAs: "mine/") }))
        }
        table.delete("/rules/mine/{file}") { _, context in
            let tenant = try ownTenant(context)
            let name = try fileName(context)
            let removed: Bool
            do { removed = try await offloaded { try tenant.changeOwnFile(name, to: nil) } } catch let error as Tenant.OwnRulesError {
                throw Self.answer(error, tenant: tenant)
            }
            guard removed else { throw APIError.notFound("no rule file \(name)") }
            return Response(status: .noContent)
        }
    }

    static func answer(_ error: Tenant.OwnRulesError, tenant: Tenant) -> APIError {
        switch error {
        case .invalid(let load):
            let folder = tenant.ownFolder?.path
            let shown = load.diagnostics.filter { $0.severity == .error }.map { DiagnosticBody($0, folder: folder, shownAs: "mine/") }
            return APIError(.unprocessableContent, "invalid_rules",
                            "the rules with this file have errors; nothing was saved:\n" + shown.map(\.text).joined(separator: "\n"))
        case .io(let reason):
            return APIError.storeFailed(reason)
        }
    }
}
