import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// The resource limits a user may need to move, through the real binary: each reached limit is
    /// reported with what was skipped, and the run goes on.
    @Suite("spendlex parse limits, end to end", .serialized)
    struct LimitsEndToEndTests {
        static let alert = """
            Dear Customer,

            Rs.143.85 has been debited from your HDFC Bank Credit Card ending 4315 at SAMPLE SHOP on 17-06-2024 20:18:21.

            """

        /// A folder with `name` holding `text`; removed at the end of the test.
        func file(_ name: String, _ text: String) throws -> (path: String, folder: URL) {
            // No digits in the name: the printed path has card-number-like runs masked (see
            // ServiceTestSupport's digitFreeUniqueName, where a UUID's digits once read as one).
            let letters = String(UUID().uuidString.map { $0.wholeNumberValue.map { Character(UnicodeScalar(UInt8(ascii: "g") + UInt8($0))) } ?? $0 })
            let folder = TestScratch.root.appendingPathComponent("spendlex-limits-\(letters)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return (url.path, folder)
        }

        @Test("--max-message-bytes: a larger message is an error naming the limit, the next one is read")
        func largestMessage() throws {
            let big = "From a@hdfcbank.net Mon Jan  5 10:00:00 2026\nFrom: alerts@hdfcbank.net\nSubject: Transaction alert\n\n"
                + String(repeating: "x", count: 600) + "\n\n"
            let small = "From b@hdfcbank.net Mon Jan  5 10:00:00 2026\nFrom: alerts@hdfcbank.net\nSubject: Transaction alert\n\n" + Self.alert + "\n"
            let (path, folder) = try file("limit.mbox", big + small)
            defer { try? FileManager.default.removeItem(at: folder) }

            let limited = try spendlex(["parse", path, "--max-message-bytes", "400", "-j", "1"])
            #expect(limited.stderr.contains("\(path):0: error: message larger than 400 bytes: skipped"), "\(limited.stderr)")
            #expect(limited.stderr.contains("2 messages: 1 transactions, 0 ignored, 0 unmatched, 1 errors"), "\(limited.stderr)")
            #expect(limited.stdout.contains("\"amount\":\"143.85\""))

            let whole = try spendlex(["parse", path, "-j", "1"])
            #expect(whole.stderr.contains("0 errors"), "\(whole.stderr)")
            #expect(try spendlex(["parse", path, "--max-message-bytes", "0"]).status == 64)
        }

        @Test("--max-mime-depth: text nested deeper is skipped, shallower text read")
        func mimeDepth() throws {
            let nested = """
                From c@hdfcbank.net Mon Jan  5 10:00:00 2026
                From: alerts@hdfcbank.net
                Subject: Transaction alert
                Content-Type: multipart/mixed; boundary=a

                --a
                Content-Type: multipart/alternative; boundary=b

                --b
                Content-Type: text/plain

                \(Self.alert)
                --b--
                --a--

                """
            let (path, folder) = try file("nested.mbox", nested)
            defer { try? FileManager.default.removeItem(at: folder) }
            let unmatched = folder.appendingPathComponent("unmatched.jsonl").path

            let shallow = try spendlex(["parse", path, "--max-mime-depth", "1", "-j", "1", "--unmatched", unmatched])
            #expect(shallow.stdout.isEmpty)
            #expect(shallow.stderr.contains("1 messages: 0 transactions, 0 ignored, 1 unmatched, 0 errors"), "\(shallow.stderr)")
            let record = try String(contentsOfFile: unmatched, encoding: .utf8)
            #expect(record.contains("multipart nested deeper than 1 levels in part 1; skipped"), "\(record)")

            let deep = try spendlex(["parse", path, "-j", "1", "--quiet"])
            #expect(deep.stdout.contains("\"amount\":\"143.85\""), "\(deep.stderr)")
        }

        @Test("--match-limit: a pattern that needs more steps is an error naming its rule")
        func matchLimit() throws {
            let text = "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?"
            let limited = try spendlex(["parse", "--match-limit", "1", "--sender", "VM-HDFCBK", "--text", text])
            #expect(limited.stdout.isEmpty)
            #expect(limited.stderr.contains("error: message text: hdfc.card.spend: match limit hit"), "\(limited.stderr)")
            let normal = try spendlex(["parse", "--sender", "VM-HDFCBK", "--text", text])
            #expect(normal.stdout.contains("\"rule\":\"hdfc.card.spend\""))
            #expect(try spendlex(["parse", "--match-limit", "0", "--text", text]).status == 64)
        }
    }
}
