import ArgumentParser
import SpendlexEngine
import SpendlexRules

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load, validate and compile rule files; report every problem with file:line:column.",
        discussion: "Exits 1 when any error is found; warnings alone exit 0."
    )

    @Argument(help: ArgumentHelp("Rule files or folders (default: $SPENDLEX_RULES, ./rules and ./grammars, or those installed).",
                                 valueName: "path"))
    var paths: [String] = []

    @Flag(name: .long, help: "Do not print warnings.")
    var noWarnings = false

    func run() throws {
        let (compiled, diagnostics) = RuleCompiler.load(paths: try BundledRules.paths(given: paths), findingGrammars: true, forChecking: true)
        var all = diagnostics
        if !diagnostics.containsErrors {
            all += RuleTestRunner.lint(RuleEngine(rules: compiled))
        }
        let shown = (noWarnings ? all.filter { $0.severity == .error } : all).sortedByLocation()
        Stderr.write(DiagnosticFormatter(sources: compiled.rules.sources).format(shown))
        if all.containsErrors { throw ExitStatus.findings }
        let banks = compiled.banks.count
        var summary = "ok: \(banks) bank\(banks == 1 ? "" : "s"), \(compiled.parserCount) parsers, "
            + "\(compiled.rules.fragments.count) grammar fragments"
        if let categorizer = compiled.categorizer {
            summary += ", \(categorizer.tables.count) decision table\(categorizer.tables.count == 1 ? "" : "s")"
                + " (\(categorizer.rowCount) rows, \(categorizer.categories.count) categories)"
        }
        if !compiled.rules.cards.isEmpty { summary += ", \(compiled.rules.cards.count) cards" }
        let profiles = compiled.rules.statementProfiles.count
        if profiles > 0 { summary += ", \(profiles) statement profile\(profiles == 1 ? "" : "s")" }
        print(summary)
        // The process ends here: the compiled rules are not taken apart first (freeing 10,000
        // parsers' patterns and rules, one by one, was a tenth of checking them).
        Check.keptUntilExit = compiled
    }

    nonisolated(unsafe) private static var keptUntilExit: CompiledRuleSet?
}
