import SpendlexRules

/// Runs statement profiles' example rows as tests: each row, split at the profile's delimiter
/// and read by its columns, must give a transaction with the expected fields.
enum StatementExampleRunner {
    static func run(_ profiles: [StatementProfile], worker: RuleEngine.Worker, into report: inout RuleTestReport) {
        for profile in profiles where !profile.examples.isEmpty {
            report.statementProfiles += 1
            let id = profile.id.value
            guard let columns = StatementColumns(profile: profile, header: profile.header.map(\.value)) else { continue }
            for (index, example) in profile.examples.enumerated() {
                report.examples += 1
                let cells = StatementColumns.split(example.row.value, profile.delimiter)
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
