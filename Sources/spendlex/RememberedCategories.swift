import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexRules

/// The person's own categorization rows: `categories.yaml` beside the ledger, one decision table
/// (`person`, hit policy first) tried before the bundled tables, written by `spendlex edit
/// --remember` and read by every command that categorizes (parse, categorize, serve, edit).
/// Spendlex owns the file: it is rewritten whole from its rows, in a fixed form.
enum RememberedCategories {
    /// A remembered row: a merchant's name as a keyword phrase, and its category.
    struct Row: Equatable {
        var merchant: String
        var category: String
        var subcategory: String?
        /// Who said so: nil, a person; else the language model's name ("asked llama3 on 2026-11-26").
        var askedModel: String? = nil

        /// `person.green-leaf-medicals`, or `model.green-leaf-medicals` for a model's answer.
        var id: String {
            let slug = merchant.lowercased().unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }
                .joined().split(separator: "-").joined(separator: "-")
            return (askedModel == nil ? "person." : "model.") + (slug.isEmpty ? "merchant" : slug)
        }
    }

    /// The file beside `ledger`.
    static func path(ledger: String) -> String {
        URL(fileURLWithPath: ledger).deletingLastPathComponent().appendingPathComponent("categories.yaml").path
    }

    /// The rule paths with the person's file first, when `ledger` has one beside it.
    static func paths(_ bundled: [String], ledger: String?) -> [String] {
        guard let ledger, FileManager.default.fileExists(atPath: path(ledger: ledger)) else { return bundled }
        // A ledger kept among the rules themselves (in rules/) has the bundled categories file beside it.
        let own = URL(fileURLWithPath: path(ledger: ledger)).standardizedFileURL.path
        let isBundled = bundled.contains { rulePath in
            let folder = URL(fileURLWithPath: rulePath).standardizedFileURL.path
            return own == folder || own.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        }
        return isBundled ? bundled : [path(ledger: ledger)] + bundled
    }

    /// The rows of the file at `path` (none when it does not exist).
    static func rows(at path: String) throws -> [Row] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let (ruleSet, diagnostics) = RuleLoader.load(paths: [path])
        guard !diagnostics.containsErrors else {
            Stderr.write(DiagnosticFormatter(sources: ruleSet.sources).format(diagnostics.sortedByLocation()))
            throw ExitStatus.badInput
        }
        return ruleSet.categoryTables.flatMap(\.rows).compactMap { row in
            guard let keyword = row.conditions.merchant?.keywords.first?.value, let category = row.category?.value else { return nil }
            return Row(merchant: keyword, category: category, subcategory: row.subcategory?.value,
                       askedModel: row.id.value.hasPrefix("model.") ? (row.description ?? "asked a language model") : nil)
        }
    }

    /// The file's text for `rows`.
    static func text(_ rows: [Row]) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var out = """
            # Your own categorization rows, written by `spendlex edit ID --category C --remember`: tried
            # before the bundled tables. Spendlex rewrites this file whole; `spendlex test FILE rules grammars`
            # runs its examples.
            tables:
              - id: person
                description: Merchants a person categorized, remembered.
                hit_policy: first
                rows:

            """
        for row in rows {
            out += "      - id: \(row.id)\n"
            if let asked = row.askedModel { out += "        description: \(quoted(asked))\n" }
            out += "        merchant: {keywords: [\(quoted(row.merchant))]}\n"
            out += "        category: \(quoted(row.category))\n"
            if let subcategory = row.subcategory { out += "        subcategory: \(quoted(subcategory))\n" }
            out += "        examples: [{merchant: \(quoted(row.merchant))}]\n"
        }
        return out
    }

    /// Remembers `row` in the file beside `ledger` (replacing the merchant's earlier row), after
    /// checking that no bundled row's example is decided otherwise with it: the examples that
    /// would change are printed and nothing is written (exit 1).
    static func remember(_ row: Row, ledger: String, bundled: [String]) throws -> String {
        let file = path(ledger: ledger)
        var rows = try rows(at: file)
        // A model's answer never replaces a person's row.
        if row.askedModel != nil, rows.contains(where: { $0.askedModel == nil && $0.merchant.caseInsensitiveCompare(row.merchant) == .orderedSame }) {
            return file
        }
        rows.removeAll { $0.merchant.caseInsensitiveCompare(row.merchant) == .orderedSame || $0.id == row.id }
        rows.append(row)
        // The rule set as it is, and with the new file, side by side.
        let draft = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("spendlex-remember-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: draft) }
        let drafted = draft.appendingPathComponent("categories.yaml")
        try text(rows).write(to: drafted, atomically: true, encoding: .utf8)
        let before = try compileOrExit(paths: paths(bundled, ledger: ledger), showWarnings: false).categoryExampleOutcomes()
        let after = try compileOrExit(paths: [drafted.path] + bundled, showWarnings: false)
        let outcomes = after.categoryExampleOutcomes()
        // The merchant's own earlier row is meant to change.
        let changed = before.keys.sorted().filter { !$0.hasPrefix(row.id + " example ") && outcomes[$0] != before[$0] }
        guard changed.isEmpty else {
            Stderr.write("error: remembering \"\(row.merchant)\" as \(row.category) would change how other examples are "
                         + "categorized; nothing was written:\n"
                         + changed.map { "  \($0): \(before[$0] ?? "") → \(outcomes[$0] ?? "")\n" }.joined())
            throw ExitStatus.findings
        }
        // Its own example must come out as remembered.
        let own = outcomes["\(row.id) example 1"]
        guard own == [row.category, row.subcategory].compactMap({ $0 }).joined(separator: " > ") else {
            Stderr.write("error: the remembered row for \"\(row.merchant)\" would not decide its own merchant (\(own ?? "none")); nothing was written\n")
            throw ExitStatus.findings
        }
        try text(rows).write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
