import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex test --format junit|tap|json`: every example a test case a CI system shows, with its
    /// file and line; the same failures as the text report, the same exit status.
    @Suite("spendlex test for CI systems, end to end", .serialized)
    struct CIReportsEndToEndTests {
        static let failing = ["test", "Tests/Fixtures/failing-rules", "grammars"]

        /// Test cases and failed ones in a JUnit document, read by an XML parser.
        final class JUnitCounter: NSObject, XMLParserDelegate {
            var cases = 0
            var failed = 0
            var failures = 0
            var files: Set<String> = []
            private var caseFailed = false

            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                if name == "testcase" {
                    cases += 1
                    caseFailed = false
                    if let file = attributes["file"], attributes["line"] != nil { files.insert(file) }
                } else if name == "failure" {
                    failures += 1
                    if !caseFailed { failed += 1 }
                    caseFailed = true
                }
            }
        }

        func readJUnit(_ text: String) throws -> JUnitCounter {
            let parser = XMLParser(data: Data(text.utf8))
            let counter = JUnitCounter()
            parser.delegate = counter
            #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
            return counter
        }

        @Test func junitHasACasePerExampleAndAFailurePerDifference() throws {
            let result = try spendlex(Self.failing + ["--format", "junit"])
            #expect(result.status == 1)
            #expect(result.stderr == "4 examples and 2 counter-examples from 1 bank in 1 country\n2 passed, 4 failed\n")
            let junit = try readJUnit(result.stdout)
            #expect(junit.cases == 6 && junit.failed == 4)
            #expect(junit.files == ["Tests/Fixtures/failing-rules/failing.yaml"])
            try expectGolden(result.stdout, "test-failing.junit.xml")
        }

        @Test func tapNumbersEveryCaseAndDescribesFailures() throws {
            let result = try spendlex(Self.failing + ["--format", "tap"])
            #expect(result.status == 1)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.prefix(2) == ["TAP version 13", "1..6"])
            #expect(lines.filter { $0.hasPrefix("ok ") }.count == 2 && lines.filter { $0.hasPrefix("not ok ") }.count == 4)
            try expectGolden(result.stdout, "test-failing.tap")
        }

        @Test func jsonGivesCountsAndCases() throws {
            let result = try spendlex(Self.failing + ["--format", "json"])
            #expect(result.status == 1)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(document["passed"] as? Int == 2 && document["failed"] as? Int == 4)
            let cases = try #require(document["cases"] as? [[String: Any]])
            #expect(cases.count == 6)
            #expect(cases.filter { $0["status"] as? String == "failed" }.count == 4)
            let failure = try #require((cases.first { $0["status"] as? String == "failed" }?["failures"] as? [[String: Any]])?.first)
            #expect((failure["at"] as? [String: Any])?["file"] as? String == "Tests/Fixtures/failing-rules/failing.yaml")
        }

        @Test func theBundledRulesPassAsJUnit() throws {
            let result = try spendlex(["test", "rules", "grammars", "--format", "junit"])
            #expect(result.status == 0, "\(result.stderr)")
            let junit = try readJUnit(result.stdout)
            #expect(junit.cases > 1000 && junit.failed == 0)
            #expect(result.stderr.hasSuffix(" passed, 0 failed\n"))
        }
    }
}

extension EndToEnd {
    /// The CI examples a repository of rule files copies: the pre-commit hook run in a real Git
    /// repository, and the GitHub Actions workflow's test step, which is the command tested above.
    @Suite("the CI examples in examples/ci, end to end", .serialized)
    struct CIExamplesEndToEndTests {
        /// Runs `command` (found on PATH) with `arguments` in `folder`, with `environment` added.
        func run(_ command: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> RunResult {
            try SpendlexEndToEndTests.run(URL(fileURLWithPath: "/usr/bin/env"), [command] + arguments, in: folder,
                                          environment: environment)
        }

        @Test("the pre-commit hook stops a commit whose staged rules fail, with file:line:column, and lets a good one through")
        func preCommitHook() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-hook-\(UUID().uuidString)")
            let manager = FileManager.default
            try manager.createDirectory(at: folder.appendingPathComponent("rules"), withIntermediateDirectories: true)
            defer { try? manager.removeItem(at: folder) }
            try manager.copyItem(at: repositoryRoot.appendingPathComponent("grammars"), to: folder.appendingPathComponent("grammars"))
            let bank = folder.appendingPathComponent("rules/bank.yaml")
            try manager.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/failing-rules/failing.yaml"), to: bank)
            let git = { (arguments: [String]) throws -> RunResult in
                try self.run("git", ["-c", "user.name=t", "-c", "user.email=t@example.org"] + arguments, in: folder)
            }
            #expect(try git(["init", "-q"]).status == 0)
            #expect(try git(["add", "-A"]).status == 0)
            let hook = repositoryRoot.appendingPathComponent("examples/ci/pre-commit").path
            let environment = ["SPENDLEX": spendlexBinary.path]

            let stopped = try run("sh", [hook], in: folder, environment: environment)
            #expect(stopped.status == 1)
            #expect(stopped.stderr.contains("rules/bank.yaml:15:26: error: example of 'failing.spend' failed"), "\(stopped.stderr)")

            // A good file staged: the hook passes, whatever the working tree holds.
            try manager.removeItem(at: bank)
            try manager.copyItem(at: repositoryRoot.appendingPathComponent("rules/banks/in/hdfc.yaml"), to: bank)
            #expect(try git(["add", "-A"]).status == 0)
            try Data("not: [valid".utf8).write(to: bank)
            let passed = try run("sh", [hook], in: folder, environment: environment)
            #expect(passed.status == 0, "\(passed.stderr)")
            #expect(passed.stdout.contains(" passed, 0 failed"), "\(passed.stdout)")
        }

        @Test("the workflow's test step is `spendlex test --format junit rules grammars`, which passes on the bundled rules")
        func workflowRunsTheTestedCommand() throws {
            let workflow = try String(contentsOf: repositoryRoot.appendingPathComponent("examples/ci/github-actions.yml"), encoding: .utf8)
            #expect(workflow.contains("run: spendlex test --format junit rules grammars > spendlex-junit.xml"))
            #expect(workflow.contains("run: spendlex check rules grammars"))
            let result = try spendlex(["test", "--format", "junit", "rules", "grammars"])
            #expect(result.status == 0 && result.stdout.hasPrefix("<?xml"))
        }
    }
}
