import Foundation
import Testing

@Suite("spendlex suggest, end to end", .serialized)
struct SuggestEndToEndTests {
    /// A fresh `rules/banks/<country>` folder in a temporary directory, so the schema comment's
    /// relative path has the usual shape.
    private func bankFolder(country: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("spendlex-suggest-\(UUID().uuidString)/rules/banks/\(country)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aSuggestedBankFilePassesSpendlexTest() throws {
        let result = try spendlex([
            "suggest", "--bank-id", "boi", "--bank-name", "Bank of Ireland", "--country", "IE",
            "--text", "You spent €12.50 at TESCO on 21/11/2026",
            "--text", "You spent €3.99 at O'BRIENS SANDWICH BAR on 22/11/2026",
            "--text", #"€40.00 paid to "Dr. Murphy's" [clinic] on 23/11/2026: ref AB123456. Not you? Call 1800 946 764"#,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("# yaml-language-server: $schema=../../../grammars/spendlex-rules.schema.json\n"))
        #expect(result.stdout.contains("\nid: boi\n"))
        #expect(result.stderr.contains("2 drafts for 3 messages"))

        let file = try bankFolder(country: "ie").appendingPathComponent("boi.yaml")
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        let test = try spendlex(["test", file.path, "grammars"])
        #expect(test.status == 0, "\(test.stderr)\n\(result.stdout)")
        #expect(test.stdout.hasSuffix("\n3 passed, 0 failed\n"))
        let check = try spendlex(["check", file.path, "grammars"])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func draftsFromTheUnmatchedReportOfParse() throws {
        let folder = try bankFolder(country: "in")
        let inbox = folder.appendingPathComponent("inbox.jsonl")
        let unmatched = folder.appendingPathComponent("unmatched.jsonl")
        try """
            {"id": "a", "sender": "VM-HDFCBK", "text": "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?"}
            {"id": "b", "sender": "AX-CANBNK", "text": "Rs.250.00 debited from Canara Bank A/c XX4521 to VPA chai@okicici on 02-11-26. UPI Ref 612345678901. Not you? Call 18602662666"}
            {"id": "c", "sender": "AX-CANBNK", "text": "Rs.1,099.00 debited from Canara Bank A/c XX4521 to VPA shop@ybl on 03-11-26. UPI Ref 612345678902. Not you? Call 18602662666"}

            """.write(to: inbox, atomically: true, encoding: .utf8)
        let parse = try spendlex(["parse", inbox.path, "--unmatched", unmatched.path, "--all", "--quiet"])
        #expect(parse.status == 0, "\(parse.stderr)")

        let result = try spendlex(["suggest", "--unmatched", unmatched.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nid: canbnk\n"))
        #expect(result.stdout.contains("senders: ['*-CANBNK']"))
        #expect(result.stdout.contains("# covers 2 messages"))
        let file = folder.appendingPathComponent("canbnk.yaml")
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        let test = try spendlex(["test", file.path, "grammars"])
        #expect(test.status == 0, "\(test.stderr)")
        #expect(test.stdout.hasSuffix("\n2 passed, 0 failed\n"))
    }

    @Test func alreadyParsedMessagesAreSkippedAndNothingLeftExitsOne() throws {
        let result = try spendlex([
            "suggest", "--sender", "VM-HDFCBK",
            "--text", "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You?",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("note: message text1: already parsed by hdfc.card.spend; skipped"))
    }

    @Test func badUsageExits64() throws {
        #expect(try spendlex(["suggest"]).status == 64)
        #expect(try spendlex(["suggest", "--text", "x", "--bank-id", "Bad Id"]).status == 64)
        #expect(try spendlex(["suggest", "--text", "x", "--country", "IRL"]).status == 64)
    }
}
