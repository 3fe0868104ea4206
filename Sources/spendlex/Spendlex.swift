import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexRules

@main
struct Spendlex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spendlex",
        abstract: "Turn bank alerts and statements into clean transactions, with rules written in YAML.",
        version: "0.1.0",
        subcommands: [Parse.self, Import.self, Fetch.self, Check.self, Test.self, Explain.self, Suggest.self, Categorize.self,
                      Transactions.self, Show.self, Edit.self, Search.self, Reindex.self, Balances.self, Recurring.self, Budget.self, Ask.self, Export.self, Report.self,
                      CheckBalances.self, Recommend.self, Serve.self, Keys.self, People.self, Playground.self]
    )

    static func main() async {
        HeapTuning.apply()
        await main(nil)
    }
}

/// Exit codes shared by every command (sysexits, as STYLE.md asks).
enum ExitStatus {
    /// Findings or failures: a failing rule test, a rule file error.
    static let findings = ExitCode(1)
    /// An input could not be read at all.
    static let badInput = ExitCode(65)
    /// An internal failure: the ledger could not be written.
    static let internalError = ExitCode(70)
}

/// `--rules PATH` for commands that parse messages.
struct RuleOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Rule files or folders (bank files and grammars); default: $SPENDLEX_RULES, ./rules and ./grammars, or those installed.",
        valueName: "path"))
    var rules: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Confidence (0 to 1) from which a transaction's status is ok; below it, review.", valueName: "score"))
    var okThreshold: Double = ConfidencePolicy().okThreshold

    @Option(name: .customLong("match-limit"), help: ArgumentHelp(
        "PCRE2's backtracking steps for one pattern on one message; a message that needs more is an error naming the rule, and the run goes on. Default 1000000.",
        valueName: "steps"))
    var matchLimit: UInt32 = RuleEngine.defaultMatchLimit

    func validate() throws {
        guard (0...1).contains(okThreshold) else { throw ValidationError("--ok-threshold must be between 0 and 1") }
        guard matchLimit >= 1 else { throw ValidationError("--match-limit must be at least 1") }
    }

    /// Loads and compiles the rules, printing diagnostics on stderr; exits 1 on any error.
    /// `ledger`: the ledger the rules categorize for; the person's remembered rows beside it
    /// (`RememberedCategories`) come first.
    func engine(ledger: String? = nil) throws -> RuleEngine {
        let paths = RememberedCategories.paths(try BundledRules.paths(given: rules), ledger: ledger)
        let engine = try compileOrExit(paths: paths, showWarnings: false)
        return RuleEngine(rules: engine.rules, policy: ConfidencePolicy(okThreshold: okThreshold), matchLimit: matchLimit)
    }
}

/// Loads and compiles rule files; prints errors (and warnings if asked) on stderr.
func compileOrExit(paths: [String], showWarnings: Bool) throws -> RuleEngine {
    let (compiled, diagnostics) = RuleCompiler.load(paths: paths, findingGrammars: true)
    let shown = (showWarnings ? diagnostics : diagnostics.filter { $0.severity == .error }).sortedByLocation()
    if !shown.isEmpty {
        Stderr.write(DiagnosticFormatter(sources: compiled.rules.sources).format(shown))
    }
    if diagnostics.containsErrors { throw ExitStatus.findings }
    return RuleEngine(rules: compiled)
}

/// Unbuffered writes to stderr: diagnostics and progress.
enum Stderr {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
