import Foundation
import SpendlexRules

/// A person's settings: `spendlex.yaml` beside their ledger (see `PersonConfig`).
enum PersonSettings {
    static func path(ledger: String) -> String {
        URL(fileURLWithPath: ledger).deletingLastPathComponent().appendingPathComponent("spendlex.yaml").path
    }

    /// The settings beside `ledger`; nil without the file. A file with errors prints them and is
    /// bad input (exit 65).
    static func load(ledger: String) throws -> PersonConfig? {
        let file = path(ledger: ledger)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let (config, diagnostics, source) = PersonConfigReader.load(path: file)
        if !diagnostics.isEmpty {
            Stderr.write(DiagnosticFormatter(sources: source.map { [file: $0] } ?? [:]).format(diagnostics.sortedByLocation()))
        }
        guard let config, !diagnostics.containsErrors else { throw ExitStatus.badInput }
        return config
    }
}
