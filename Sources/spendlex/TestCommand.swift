import ArgumentParser
import SpendlexEngine
import SpendlexRules

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run every rule's examples and counter-examples as tests.",
        discussion: """
            text (the default): each failure with the example's file:line:column and what differed, then \
            'N passed, N failed'. junit, tap, json: one test case per example and counter-example, with its \
            file and line, on stdout for a CI system (the counts then go to stderr). Exits 1 on any failure.
            """
    )

    /// How the results are written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, junit, tap, json
    }

    @Option(name: .long, help: "Output: text, junit (JUnit XML), tap (TAP version 13) or json.")
    var format: Format = .text

    @Argument(help: ArgumentHelp("Rule files or folders (default: $SPENDLEX_RULES, ./rules and ./grammars, or those installed).",
                                 valueName: "path"))
    var paths: [String] = []

    func run() throws {
        let engine = try compileOrExit(paths: try BundledRules.paths(given: paths), showWarnings: false)
        let report = RuleTestRunner.run(engine)
        let formatter = DiagnosticFormatter(sources: engine.rules.rules.sources)
        switch format {
        case .text:
            if !report.failures.isEmpty {
                Stderr.write(report.failures.map { formatter.format($0) + "\n" }.joined())
            }
            print(report.coverage)
            print(report.summary)
        case .junit, .tap, .json:
            let document = switch format {
            case .junit: report.junit(formatter: formatter)
            case .tap: report.tap()
            default: report.json()
            }
            print(document, terminator: "")
            Stderr.write(report.coverage + "\n" + report.summary + "\n")
        }
        if report.failed > 0 { throw ExitStatus.findings }
    }
}
