import Foundation
import SpendlexRules

/// `spendlex test`'s report in the forms CI systems read: JUnit XML (GitHub Actions test
/// reporters, GitLab, Jenkins), TAP version 13, and JSON. Each example and counter-example is
/// one test case, with its file and line; a failure carries the diagnostic as `spendlex test`
/// prints it (`file:line:column: error: message [id]`, the line and a caret).
extension RuleTestReport {
    /// JUnit XML: a `testsuite` per bank, country profile or decision table (in the order run),
    /// a `testcase` per example with `file` and `line`, a `failure` per failed one.
    public func junit(formatter: DiagnosticFormatter) -> String {
        var suites: [(name: String, cases: [RuleTestCase])] = []
        var index: [String: Int] = [:]
        for test in cases {
            if let at = index[test.suite] {
                suites[at].cases.append(test)
            } else {
                index[test.suite] = suites.count
                suites.append((test.suite, [test]))
            }
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"spendlex test\" tests=\"\(cases.count)\" failures=\"\(failedCases)\" errors=\"0\">\n"
        for suite in suites {
            let failed = suite.cases.filter { !$0.passed }.count
            let file = suite.cases.first.map { Self.xml($0.location.file) } ?? ""
            out += "  <testsuite name=\"\(Self.xml(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(failed)\""
                + " errors=\"0\" skipped=\"0\" file=\"\(file)\">\n"
            for test in suite.cases {
                out += "    <testcase name=\"\(Self.xml(test.name))\" classname=\"\(Self.xml(test.suite))\""
                    + " file=\"\(Self.xml(test.location.file))\" line=\"\(test.location.line)\""
                if test.passed {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                for failure in test.failures {
                    out += "      <failure message=\"\(Self.xml(failure.message))\" type=\"\(failure.id)\">"
                        + Self.xml(formatter.format(failure)) + "</failure>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// TAP version 13: `ok N - name` or `not ok N - name` with a YAML block (`message`, `at`,
    /// `id` of each failure).
    public func tap() -> String {
        var out = "TAP version 13\n1..\(cases.count)\n"
        for (number, test) in cases.enumerated() {
            out += "\(test.passed ? "ok" : "not ok") \(number + 1) - \(Self.tapName(test.name)) (\(test.location))\n"
            guard !test.passed else { continue }
            out += "  ---\n  failures:\n"
            for failure in test.failures {
                out += "    - message: \(YAMLScalar.doubleQuoted(failure.message))\n"
                out += "      at: \(YAMLScalar.doubleQuoted(failure.location.description))\n"
                out += "      id: \(YAMLScalar.doubleQuoted(failure.id.description))\n"
            }
            out += "  ...\n"
        }
        return out
    }

    /// JSON: the counts and every case with its place, status and failures; keys sorted.
    public func json() -> String {
        struct Place: Encodable {
            let file: String
            let line: Int
            let column: Int
        }
        struct Failure: Encodable {
            let id: String
            let message: String
            let at: Place
        }
        struct Case: Encodable {
            let suite: String
            let name: String
            let at: Place
            let status: String
            let failures: [Failure]
        }
        struct Document: Encodable {
            let passed: Int
            let failed: Int
            let cases: [Case]
        }
        func place(_ location: SourceLocation) -> Place {
            Place(file: location.file, line: location.line, column: location.column)
        }
        let document = Document(passed: passed, failed: failed, cases: cases.map { test in
            Case(suite: test.suite, name: test.name, at: place(test.location), status: test.passed ? "passed" : "failed",
                 failures: test.failures.map { Failure(id: $0.id.description, message: $0.message, at: place($0.location)) })
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Test cases that failed (an example with three wrong fields is one failed case).
    var failedCases: Int { cases.filter { !$0.passed }.count }

    /// `text` as XML character data or an attribute value: the five special characters escaped,
    /// and characters XML 1.0 does not allow (C0 controls but tab, newline and carriage return)
    /// written as U+FFFD.
    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A test name as TAP reads it: "#" starts a directive, so it is written "\#"; no newlines.
    static func tapName(_ name: String) -> String {
        name.replacingOccurrences(of: "#", with: "\\#").replacingOccurrences(of: "\n", with: " ")
    }
}
