import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexRules

/// A diagnostic as JSON: where, how bad, which, what; and the one-line `file:line:col` form.
struct DiagnosticBody: Encodable, Sendable {
    let severity: String
    let id: String
    let file: String
    let line: Int
    let column: Int
    let message: String
    let text: String

    init(_ diagnostic: Diagnostic) {
        self.init(diagnostic, folder: nil, shownAs: "")
    }

    /// A diagnostic's body; a path under `folder` is shown as `shownAs` and the rest of the path
    /// (a person's own rule files are `mine/<file>`, not where the server keeps them).
    init(_ diagnostic: Diagnostic, folder: String?, shownAs: String) {
        func shown(_ text: String) -> String {
            guard let folder else { return text }
            return text.replacingOccurrences(of: folder.hasSuffix("/") ? folder : folder + "/", with: shownAs)
        }
        severity = diagnostic.severity.rawValue
        id = diagnostic.id.description
        file = shown(diagnostic.location.file)
        line = diagnostic.location.line
        column = diagnostic.location.column
        // A diagnostic may quote a rule file's example text.
        message = CardNumberMasker.mask(shown(diagnostic.message))
        text = CardNumberMasker.mask(shown(diagnostic.description))
    }
}

/// The rule set serving now, and the last reload refused, if the last one was.
struct RuleSetSummary: Encodable, Sendable {
    struct Rejected: Encodable, Sendable {
        let at: String
        let diagnostics: [DiagnosticBody]
    }

    let paths: [String]
    let loadedAt: String
    let banks: [String]
    let parsers: Int
    let diagnostics: [DiagnosticBody]
    let rejectedReload: Rejected?

    enum CodingKeys: String, CodingKey {
        case paths, banks, parsers, diagnostics
        case loadedAt = "loaded_at", rejectedReload = "rejected_reload"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(paths, forKey: .paths)
        try c.encode(loadedAt, forKey: .loadedAt)
        try c.encode(banks, forKey: .banks)
        try c.encode(parsers, forKey: .parsers)
        try c.encode(diagnostics, forKey: .diagnostics)
        try c.encode(rejectedReload, forKey: .rejectedReload)
    }

    init(_ rules: LiveRules) {
        let snapshot = rules.current
        paths = rules.paths
        loadedAt = TransactionWriter.timestamp(snapshot.loadedAt)
        banks = snapshot.bankIDs
        parsers = snapshot.parserCount
        diagnostics = snapshot.diagnostics.map(DiagnosticBody.init)
        rejectedReload = rules.rejected.map {
            Rejected(at: TransactionWriter.timestamp($0.at), diagnostics: $0.diagnostics.map(DiagnosticBody.init))
        }
    }
}

extension SpendlexService {
    /// `GET /health` (open, for monitors) and `GET /` (the version and the rule set serving).
    func addServiceRoutes(to table: RouteTable) {
        table.get("/health", access: .open) { _, _ in
            try JSONResponse.make(["status": "ok"])
        }
        let version = configuration.version
        table.get("/", access: .shared(.read)) { [rules] _, _ in
            struct Info: Encodable {
                let name: String
                let version: String
                let rules: RuleSetSummary
            }
            return try JSONResponse.make(Info(name: "spendlex", version: version, rules: RuleSetSummary(rules)))
        }
    }
}
