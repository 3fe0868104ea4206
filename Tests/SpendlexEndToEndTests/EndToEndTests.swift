import Foundation
import Testing
import SpendlexTestSupport

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The built `spendlex` binary: next to the test bundle in SwiftPM's products folder.
let spendlexBinary: URL = {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("spendlex")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder.deleteLastPathComponent()
    }
    return repositoryRoot.appendingPathComponent(".build/debug/spendlex")
}()

struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the real binary from the repository's root, so relative rule paths work.
func spendlex(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> RunResult {
    try run(spendlexBinary, arguments, in: repositoryRoot, environment: environment, stdin: stdin)
}

/// Runs `executable` in `folder` with `environment` added, feeding it `stdin`; waits for its end.
func run(_ executable: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:],
         stdin: String? = nil) throws -> RunResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Read both pipes at once before waiting: a child that fills one pipe (a megabyte of error
    // lines on stderr) while the other is being read would block, and so would this.
    let errors = PipeReader(err.fileHandleForReading)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.wait()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self))
}

/// Reads a pipe to its end on another thread.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Waits for the end of the pipe; the semaphore orders the reader's write before this read.
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Compares with a golden file; `SPENDLEX_UPDATE_GOLDEN=1 swift test` rewrites them.
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/golden/\(name)")
    if ProcessInfo.processInfo.environment["SPENDLEX_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == golden, "differs from golden file \(name)", sourceLocation: sourceLocation)
}

extension EndToEnd {
    @Suite("spendlex, end to end", .serialized)
    struct EndToEndTests {
        @Test func bundledRulesCheckClean() throws {
            let result = try spendlex(["check", "rules", "grammars"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("ok: "))
        }

        @Test func bundledRuleExamplesPass() throws {
            let result = try spendlex(["test", "rules", "grammars"])
            #expect(result.status == 0, "\(result.stderr)")
            let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.hasSuffix(" passed, 0 failed"))
            #expect(!last.hasPrefix("0 passed"))
        }

        @Test(arguments: ["three-faults", "grammar-faults", "shape-faults", "not-yaml", "category-faults"])
        func brokenRulesGiveGoldenDiagnostics(name: String) throws {
            let result = try spendlex(["check", "Tests/Fixtures/broken-rules/\(name).yaml", "grammars"])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            try expectGolden(result.stderr, "check-\(name).txt")
        }

        /// A rule file saved with Windows line endings gets the same diagnostics, lines and carets
        /// as the golden file of its LF original.
        @Test func crlfRuleFileGivesTheSameDiagnostics() throws {
            let original = "Tests/Fixtures/broken-rules/three-faults.yaml"
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(original), encoding: .utf8)
            let folder = TestScratch.root.appendingPathComponent("spendlex-crlf-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let copy = folder.appendingPathComponent("three-faults.yaml")
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(to: copy, atomically: true, encoding: .utf8)

            let result = try spendlex(["check", copy.path, "grammars"])

            #expect(result.status == 1)
            let golden = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/golden/check-three-faults.txt"),
                                    encoding: .utf8)
            #expect(result.stderr == golden.replacingOccurrences(of: original, with: copy.path))
        }

        @Test func threeFaultsAreThreeLocatedErrors() throws {
            let result = try spendlex(["check", "Tests/Fixtures/broken-rules/three-faults.yaml", "grammars"])
            let headlines = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
            #expect(headlines.map { String($0.prefix { $0 != " " }) } == [
                "Tests/Fixtures/broken-rules/three-faults.yaml:8:21:",
                "Tests/Fixtures/broken-rules/three-faults.yaml:12:5:",
                "Tests/Fixtures/broken-rules/three-faults.yaml:18:12:",
            ])
        }

        @Test func failingExamplesAreReportedWithPlacesAndCounted() throws {
            let result = try spendlex(["test", "Tests/Fixtures/failing-rules", "grammars"])
            #expect(result.status == 1)
            #expect(result.stdout == "4 examples and 2 counter-examples from 1 bank in 1 country\n2 passed, 4 failed\n")
            try expectGolden(result.stderr, "test-failing.txt")
        }

        @Test func categoryFaultsAreLocatedWithTheirIDs() throws {
            let result = try spendlex(["check", "Tests/Fixtures/broken-rules/category-faults.yaml"])
            #expect(result.status == 1)
            let headlines = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }
            #expect(headlines.map { line in
                let place = line.prefix { $0 != " " }.split(separator: ":").dropFirst().prefix(2).joined(separator: ":")
                let id = line.split(separator: "[").last?.dropLast() ?? ""
                return "\(id) \(place)"
            } == [
                "table.noCatchAll 7:9", "category.unknown 10:64", "category.unknown 14:22", "table.masked 15:13",
                "table.masked 21:13", "table.overlap 29:14",
            ])
        }

        @Test func categoriesAreShownByExplainAndCountedByTest() throws {
            let explained = try spendlex(["explain", "--text", "Spent Rs.349 On HDFC Bank Card 0000 At SWIGGY BANGALORE On 2026-05-02:22:26:01.Not You?",
                                          "--sender", "VM-HDFCBK"])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout.contains(#""category":"Food & Dining","subcategory":"Food Delivery""#))
            #expect(explained.stdout.contains("category Food & Dining > Food Delivery by table merchants, row food.delivery\n"
                + #"  food.delivery: merchant keyword 'Swiggy' matched "SWIGGY""#))
            let tested = try spendlex(["test", "rules/categories.yaml"])
            #expect(tested.status == 0, "\(tested.stderr)")
            #expect(tested.stdout.contains(" category examples from 3 decision tables\n"))
        }

        @Test func parsesTheHDFCExampleFromTheCommandLine() throws {
            let result = try spendlex([
                "parse", "--text",
                "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?",
                "--sender", "VM-HDFCBK", "--format", "jsonl",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 1)
            let record = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(record["amount"] as? String == "10290")
            #expect(record["currency"] as? String == "INR")
            #expect((record["account"] as? [String: Any])?["last4"] as? String == "0000")
            #expect(record["merchant"] as? String == "EAZYDINE0000000")
            #expect(record["date"] as? String == "2026-05-02")
            #expect(record["time"] as? String == "22:26:01")
            #expect(record["direction"] as? String == "debit")
            #expect((record["source"] as? [String: Any])?["id"] as? String == "text")
        }

        @Test func parsesTheSampleIntoTheGoldenCSVAndAccountsForEveryMessage() throws {
            let result = try spendlex(["parse", "examples/messages.jsonl", "--format", "csv"])
            #expect(result.status == 0)
            try expectGolden(result.stdout, "parse-sample.csv")
            #expect(result.stderr.contains("10 messages: 6 transactions, 1 ignored, 1 unmatched, 2 errors"))
            #expect(result.stderr.contains("examples/messages.jsonl:9: error: message sms-009"))
            #expect(result.stderr.contains("examples/messages.jsonl:10: error: line 10: not valid JSON"))
        }

        @Test func readsStdinAndWritesAFile() throws {
            let output = TestScratch.root.appendingPathComponent("spendlex-\(UUID().uuidString).jsonl")
            let input = #"{"id": "x1", "sender": "VK-AXISBK", "text": "Payment of INR 15000 has been received towards your Axis Bank Credit Card XX0000 on 02-05-26 - Axis Bank"}"#
            let result = try spendlex(["parse", "-", "--output", output.path, "--quiet"], stdin: input + "\n")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty && result.stderr.isEmpty)
            let written = try String(contentsOf: output, encoding: .utf8)
            #expect(written.contains(#""rule":"axis.card.payment""#))
            #expect(written.contains(#""source":{"id":"x1""#))
        }

        @Test func explainShowsTheWay() throws {
            let result = try spendlex(["explain", "--text", "Rs.569 spent on HDFC Bank Card x0000 at RAZ*SampleFood on 2026-07-12:17:00:56.",
                                       "--sender", "AD-HDFCBK-S"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("routed to hdfc"))
            #expect(result.stdout.contains("hdfc.card.spend: no match"))
            #expect(result.stdout.contains("hdfc.card.spend.amount-first: matched"))
            #expect(result.stdout.contains("merchant = \"RAZ*SampleFood\""))
            #expect(result.stdout.contains("result: transaction by hdfc.card.spend.amount-first"))
        }

        @Test func parsesAMailboxAndAccountsForEveryMessage() throws {
            let unmatched = TestScratch.root.appendingPathComponent("spendlex-\(UUID().uuidString).jsonl")
            let result = try spendlex(["parse", "Tests/Fixtures/inputs/mixed.mbox", "--format", "csv",
                                       "--unmatched", unmatched.path])
            #expect(result.status == 0, "\(result.stderr)")
            try expectGolden(result.stdout, "parse-mixed-mbox.csv")
            #expect(result.stderr.contains(
                "7 messages: 3 transactions, 2 ignored (1 not from a bank sender), 1 unmatched, 1 errors"))
            #expect(result.stderr.contains("Tests/Fixtures/inputs/mixed.mbox:1973: error: message m6@hdfcbank.net"))
            let records = try String(contentsOf: unmatched, encoding: .utf8).split(separator: "\n")
            #expect(records.count == 1)
            #expect(records.first?.contains(#""offset":2270"#) == true)
        }

        @Test func jobsDoNotChangeTheOutput() throws {
            let one = try spendlex(["parse", "Tests/Fixtures/inputs/mixed.mbox", "examples/messages.jsonl", "--jobs", "1", "--quiet"])
            let four = try spendlex(["parse", "Tests/Fixtures/inputs/mixed.mbox", "examples/messages.jsonl", "--jobs", "4", "--quiet"])
            #expect(one.stdout == four.stdout)
            #expect(one.stdout.split(separator: "\n").count == 9)
        }

        /// A mailbox of 16 MiB or more is read by the workers in byte ranges: the same rows, problems
        /// and counts as one reading thread.
        @Test func aLargeMailboxReadInRangesGivesTheSameOutput() throws {
            let copy = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/inputs/mixed.mbox"),
                                  encoding: .utf8)
            let copies = (17 << 20) / copy.utf8.count + 1
            let path = TestScratch.root.appendingPathComponent("spendlex-large-\(UUID().uuidString).mbox")
            try String(repeating: copy + "\n", count: copies).write(to: path, atomically: false, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: path) }

            let one = try spendlex(["parse", path.path, "--format", "csv", "--jobs", "1"])
            let two = try spendlex(["parse", path.path, "--format", "csv", "--jobs", "2"])

            #expect(one.status == 0 && two.status == 0)
            #expect(two.stdout == one.stdout)
            #expect(one.stdout.split(separator: "\n").count == 1 + 3 * copies)
            let summary = { (stderr: String) in stderr.split(separator: "\n").first { $0.contains(" messages: ") } }
            #expect(summary(two.stderr) == summary(one.stderr))
            #expect(summary(one.stderr)?.hasPrefix("\(7 * copies) messages: \(3 * copies) transactions") == true)
            let problems = { (stderr: String) in stderr.split(separator: "\n").filter { $0.contains(": error: ") } }
            #expect(problems(two.stderr) == problems(one.stderr) && problems(one.stderr).count == copies)
        }

        @Test func unreadableInputsAreClearErrorsAndTheRestIsParsed() throws {
            let result = try spendlex(["parse", "Tests/Fixtures/inputs/binary.bin", "Tests/Fixtures/inputs/empty.mbox",
                                       "examples/messages.jsonl", "--format", "csv"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("Tests/Fixtures/inputs/binary.bin: error: cannot read"))
            #expect(result.stderr.contains("Tests/Fixtures/inputs/empty.mbox: error: cannot read"))
            #expect(result.stderr.contains("empty file"))
            #expect(result.stderr.contains("10 messages: 6 transactions"))
            #expect(result.stdout.split(separator: "\n").count == 7)
        }

        @Test func benchmarkRuleExamplesPass() throws {
            let result = try spendlex(["test", "Benchmarks/rules", "grammars"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix(" passed, 0 failed\n"))
        }

        static let usageCases: [([String], Int32)] = [
            (["parse"], 64),
            (["parse", "--text", "x", "in.jsonl"], 64),
            (["parse", "--text", "x", "--received-at", "yesterday"], 64),
            (["parse", "--format", "xml", "-"], 64),
            (["explain"], 64),
            (["parse", "no-such-input.jsonl"], 65),
            (["check", "no-such-folder"], 1),
            (["bogus"], 64),
        ]

        @Test(arguments: usageCases)
        func exitCodes(arguments: [String], status: Int32) throws {
            let result = try spendlex(arguments, stdin: "")
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
    }
}

/// Every end-to-end suite, one test at a time. Their tests block the thread they run on while the
/// real binary (or Dovecot, or Python) works; Swift Testing runs them on the concurrency pool,
/// which has one thread per core, so two of them at once left none to the in-process service
/// tests, whose requests then timed out (`readTimeout`) with nothing wrong. Serialized together,
/// they hold one thread at most.
@Suite("end to end, one test at a time", .serialized)
enum EndToEnd {}
