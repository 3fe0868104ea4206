import SpendlexEngine
import SpendlexMail

extension FuzzTarget {
    /// The engine statement entries are read with: no rule files (categories need none).
    nonisolated(unsafe) static let statementWorker = RuleEngine(rules: RuleCompiler.compile(.init()).0).makeWorker()

    /// Any bytes as a statement file, in each date order a country gives; what is read must
    /// account for every entry (a transaction or an error), and the balance check must not trap.
    /// The bytes are also read as a PDF's laid-out text (what pdftotext gives); bytes that start
    /// as a PDF are read that way only (pdftotext, a process per input, is not fuzzed here).
    static func statements(_ bytes: [UInt8]) {
        let isPDF = bytes.starts(with: Array("%PDF".utf8))
        let layout = String(decoding: bytes, as: UTF8.self)
        for country in [nil, "US", "IN"] {
            let options = StatementOptions(country: country)
            var statements: [Statement] = []
            if !isPDF, let statement = try? StatementReader.read(bytes: bytes, path: "fuzz", options: options) {
                statements.append(statement)
            }
            if let statement = try? StatementReader.read(pdfLayout: layout, path: "fuzz", options: options) {
                statements.append(statement)
            }
            for statement in statements {
                var result = StatementImportResult()
                StatementImport.add(statement, path: "fuzz", account: nil, worker: statementWorker, to: &result)
                FuzzCheck.expect(result.records.count == statement.entries.count, "an entry was not accounted for")
            }
        }
    }
}
