import SpendlexEngine
import SpendlexMail

extension FuzzTarget {
    /// The engine statement entries are read with: no rule files (categories need none).
    nonisolated(unsafe) static let statementWorker = RuleEngine(rules: RuleCompiler.compile(.init()).0).makeWorker()

    /// Any bytes as a statement file, in each date order a country gives; what is read must
    /// account for every entry (a transaction or an error), and the balance check must not trap.
    static func statements(_ bytes: [UInt8]) {
        for country in [nil, "US", "IN"] {
            let options = StatementOptions(country: country)
            guard let statement = try? StatementReader.read(bytes: bytes, path: "fuzz", options: options) else { continue }
            var result = StatementImportResult()
            StatementImport.add(statement, path: "fuzz", account: nil, worker: statementWorker, to: &result)
            FuzzCheck.expect(result.records.count == statement.entries.count, "an entry was not accounted for")
        }
    }
}
