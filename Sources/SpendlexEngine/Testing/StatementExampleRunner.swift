import SpendlexRules

/// Runs statement profiles' example rows as tests: each row, split at the profile's delimiter
/// and read by its columns, must give a transaction with the expected fields.
enum StatementExampleRunner {
    static func run(_ profiles: [StatementProfile], worker: RuleEngine.Worker, into report: inout RuleTestReport) {
        for profile in profiles where !profile.examples.isEmpty {
            report.statementProfiles += 1
            let id = profile.id.value
            // A profile with a row pattern reads an example as a line of the statement's text.
            let rowPattern = StatementRowPattern(profile)
            let table = rowPattern?.tableProfile(profile) ?? profile
            guard let columns = StatementColumns(profile: table, header: table.header.map(\.value)) else { continue }
            for (index, example) in profile.examples.enumerated() {
                report.examples += 1
                let cells: [String]
                if let rowPattern {
                    guard let matched = rowPattern.cells(example.row.value, scratch: worker.scratch) else {
                        report.record(RuleTestCase(suite: id, name: "\(id) example \(index + 1)", location: example.row.location,
                                                   failures: [.testFailed(id, "the row pattern does not match the example", at: example.row.location)]))
                        continue
                    }
                    cells = matched
                } else {
                    cells = StatementColumns.split(example.row.value, profile.delimiter)
                }
                let failures: [Diagnostic]
                switch columns.row(cells, id: "\(id)#example\(index + 1)", file: nil, line: example.row.location.line,
                                   bank: profile.bank ?? "statement", account: nil, accountType: profile.accountType,
                                   currency: profile.country.flatMap(CurrencyNormalizer.defaultCode(forCountry:))) {
                case .entry(let entry):
                    let outcome = worker.read(entry)
                    if let transaction = outcome.transaction {
                        failures = example.expect.compactMap { field, expected in
                            let actual = RuleTestRunner.value(of: field.value, in: transaction)
                            guard !RuleTestRunner.same(field.value, expected: expected.value, actual: actual) else { return nil }
                            return .testFailed(id, "\(field.value.rawValue): expected \(RuleTestRunner.quoted(expected.value)), "
                                               + "got \(RuleTestRunner.quoted(actual))", at: expected.location)
                        }
                    } else {
                        failures = [.testFailed(id, "the row gave no transaction: \(outcome.reason)", at: example.row.location)]
                    }
                case .skipped(let why):
                    failures = [.testFailed(id, "the row was skipped: \(why)", at: example.row.location)]
                case .blank:
                    failures = [.testFailed(id, "the row is empty", at: example.row.location)]
                }
                report.record(RuleTestCase(suite: id, name: "\(id) example \(index + 1)", location: example.row.location,
                                           failures: failures))
            }
        }
    }
}
