import Foundation
import Testing
import SpendlexTestSupport

/// An executable on PATH, or nil.
func executableOnPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
}

/// Runs a tool other than spendlex; its exit status and its stdout and stderr together.
func runTool(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

extension EndToEnd {
    @Suite("spendlex export and report, end to end", .serialized)
    struct ExportEndToEndTests {
        /// A fresh ledger filled by the real binary from the realistic sample: ten transactions
        /// from six banks in three currencies, one of them reported twice (SMS and push).
        func parsedLedger() throws -> (folder: URL, ledger: String) {
            let folder = TestScratch.root.appendingPathComponent("spendlex-export-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ledger = folder.appendingPathComponent("ledger.sqlite").path
            let result = try spendlex(["parse", "Tests/Fixtures/inputs/ledger-alerts.jsonl", "--store", ledger])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("10 transactions stored, 1 linked as duplicates"), "\(result.stderr)")
            return (folder, ledger)
        }

        /// A checker the tests need is not installed.
        struct MissingTool: Error, CustomStringConvertible {
            let description: String
        }

        /// The checker `name`; when it is missing, the test fails saying how to install it (never a silent skip).
        func requireTool(_ name: String, install: String) throws -> URL {
            guard let tool = executableOnPath(name) else {
                throw MissingTool(description: "'\(name)' is not on PATH; install it with: \(install) (.ci/run does this)")
            }
            return tool
        }

        @Test func beancountExportPassesBeanCheck() throws {
            let beanCheck = try requireTool("bean-check", install: "pip install beancount")
            let (folder, ledger) = try parsedLedger()
            let journal = folder.appendingPathComponent("ledger.beancount").path
            let result = try spendlex(["export", "--store", ledger, "--format", "beancount", "--output", journal])
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.contains("open Liabilities:CreditCard:Hdfc:0000\n"))
            #expect(text.contains("open Assets:Bank:Icici:000\n"))
            // The dinner reported by SMS and by push is one transaction.
            #expect(text.components(separatedBy: "\"EAZYDINE0000000\"").count - 1 == 1)
            let lines = text.split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("2026-") && $0.contains(" open ") }.count == 14)
            #expect(lines.filter { $0.hasPrefix("2026-") && ($0.contains(" * \"") || $0.contains(" ! \"")) }.count == 9)
            let check = try runTool(beanCheck, [journal])
            #expect(check.status == 0, "bean-check \(journal):\n\(check.output)")
        }

        @Test func ledgerExportBalancesInLedgerCLI() throws {
            let ledgerCLI = try requireTool("ledger", install: "apt-get update && apt-get install -y ledger")
            let (folder, store) = try parsedLedger()
            let journal = folder.appendingPathComponent("ledger.journal").path
            let result = try spendlex(["export", "--store", store, "--format", "ledger", "-o", journal])
            #expect(result.status == 0, "\(result.stderr)")
            let balance = try runTool(ledgerCLI, ["-f", journal, "balance"])
            #expect(balance.status == 0, "ledger -f \(journal) balance:\n\(balance.output)")
            // Every account and commodity declared: --pedantic accepts it too.
            let pedantic = try runTool(ledgerCLI, ["--pedantic", "-f", journal, "balance"])
            #expect(pedantic.status == 0, "ledger --pedantic -f \(journal) balance:\n\(pedantic.output)")
            // Each currency balances on its own: the grand total is zero.
            #expect(balance.output.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "0",
                    "\(balance.output)")
            #expect(balance.output.contains("-10290.00 INR    Hdfc:0000"), "\(balance.output)")
        }

        @Test func csvAndJSONLinesExportsAndDuplicates() throws {
            let (_, ledger) = try parsedLedger()
            let csv = try spendlex(["export", "--store", ledger, "--format", "csv"])
            #expect(csv.status == 0)
            let rows = csv.stdout.split(separator: "\n")
            #expect(rows.first == "Ledger,Category,Subcategory,Currency,Price,Account,Recorder,Date,Time,Note,Transaction")
            #expect(rows.count == 1 + 9)
            #expect(rows.contains("hdfc,Uncategorized,,INR,-10290,hdfc card 0000,SMS,2026-05-02,22:26:01,EAZYDINE0000000,Expense"))
            let may = try spendlex(["export", "--store", ledger, "--format", "jsonl", "--include-duplicates",
                                    "--from", "2026-05-02", "--to", "2026-05-02"])
            let lines = may.stdout.split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.filter { $0.contains("\"duplicate_of\":null,\"ledger_id\":") }.count == 2)
            #expect(lines.contains { $0.contains("\"id\":\"push-101\"") && $0.contains("\"duplicate_of\":1,") })
        }

        @Test func reportsInEveryFormat() throws {
            let (folder, ledger) = try parsedLedger()
            let text = try spendlex(["report", "--store", ledger, "--period", "quarter"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("== 2026-Q2 (2026-04-01 to 2026-06-30)"))
            #expect(text.stdout.contains("INR  income ₹0.00  expenses ₹10,427.45  net -₹10,427.45  transactions 4  transfers ₹12,345.00"),
                    "\(text.stdout)")
            let json = try spendlex(["report", "--store", ledger, "--format", "json"])
            #expect(json.status == 0)
            #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
            let page = folder.appendingPathComponent("report.html").path
            let html = try spendlex(["report", "--store", ledger, "--format", "html", "--output", page])
            #expect(html.status == 0)
            #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<svg "))
        }

        @Test func badUsageAndMissingLedgers() throws {
            let (_, ledger) = try parsedLedger()
            #expect(try spendlex(["export", "--store", ledger, "--format", "xml"]).status == 64)
            #expect(try spendlex(["export", "--store", ledger, "--format", "ledger", "--include-duplicates"]).status == 64)
            #expect(try spendlex(["report", "--store", ledger, "--from", "2026-02-30"]).status == 64)
            #expect(try spendlex(["report", "--store", ledger, "--from", "2026-06-01", "--to", "2026-05-01"]).status == 64)
            let missing = try spendlex(["report", "--store", "/nonexistent/ledger.sqlite"])
            #expect(missing.status == 65)
            #expect(missing.stderr.contains("no ledger at /nonexistent/ledger.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: "/nonexistent/ledger.sqlite"))
        }
    }
}
