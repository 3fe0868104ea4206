import ArgumentParser
import SpendlexEngine
import SpendlexRules

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run every rule's examples and counter-examples as tests.",
        discussion: "Prints each failure with the example's file:line:column and what differed, then 'N passed, N failed'. Exits 1 on any failure."
    )

    @Argument(help: ArgumentHelp("Rule files or folders.", valueName: "path"))
    var paths: [String] = ["rules", "grammars"]

    func run() throws {
        let engine = try compileOrExit(paths: paths, showWarnings: false)
        let report = RuleTestRunner.run(engine)
        if !report.failures.isEmpty {
            let formatter = DiagnosticFormatter(sources: engine.rules.rules.sources)
            Stderr.write(report.failures.map { formatter.format($0) + "\n" }.joined())
        }
        print(report.coverage)
        print(report.summary)
        if report.failed > 0 { throw ExitStatus.findings }
    }
}
