import Foundation
import Testing

extension EndToEnd {
    /// `spendlex parse --accounting`, the pure filter a distributed job runs on each partition: one
    /// record per input message, its transaction and duplicate keys; and the mailbox split upstream
    /// (scripts/spark/spendlex_spark.py's splitter, messages sent whole as `raw`) read exactly as the
    /// mbox is.
    @Suite("spendlex parse --accounting, end to end")
    struct AccountingEndToEndTests {
        static func lines(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        @Test("one record per message, as the summary counts them; a transaction's record holds its duplicate keys")
        func oneRecordPerMessage() throws {
            let (folder, mbox) = try generateReferenceCorpus(count: 400, seed: 3)
            defer { try? FileManager.default.removeItem(at: folder) }

            let accounted = try spendlex(["parse", mbox, "--accounting"])
            #expect(accounted.status == 0, "\(accounted.stderr)")
            let records = try Self.lines(accounted.stdout)
            #expect(records.count == 400)
            var statuses: [String: Int] = [:]
            for record in records {
                let message = try #require(record["message"] as? [String: Any])
                let status = try #require(message["status"] as? String)
                statuses[status, default: 0] += 1
                #expect(message["id"] as? String != "" && message["offset"] is Int)
                if status == "transaction" {
                    let transaction = try #require(record["transaction"] as? [String: Any])
                    let keys = try #require(record["duplicate_keys"] as? [String: Any])
                    let bank = try #require(transaction["bank"] as? String)
                    #expect((keys["content"] as? String)?.hasPrefix(bank + "|") == true)
                    #expect((keys["field_count"] as? Int ?? 0) > 3)
                } else {
                    #expect(record["transaction"] is NSNull && record["duplicate_keys"] is NSNull)
                    #expect(message["reason"] is String)
                }
            }
            // The same counts as the summary of a run without --accounting.
            let summary = try spendlex(["parse", mbox, "-o", "/dev/null"]).stderr
            let expected = "400 messages: \(statuses["transaction"] ?? 0) transactions, \(statuses["ignored"] ?? 0) ignored"
            #expect(summary.contains(expected), "\(summary) vs \(statuses)")
            #expect(summary.contains("\(statuses["unmatched"] ?? 0) unmatched, \(statuses["error"] ?? 0) errors"))

            // The mailbox split by the Spark job's splitter and sent as JSON lines: the same records, byte for byte.
            let jsonl = folder.appendingPathComponent("split.jsonl").path
            let split = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
                import json, sys
                sys.path.insert(0, "scripts/spark")
                import spendlex_spark
                data = open(sys.argv[1], "rb").read()
                with open(sys.argv[2], "w") as out:
                    for offset, raw, why in spendlex_spark.mbox_messages(data):
                        out.write(json.dumps({"raw": spendlex_spark.encode(raw), "file": sys.argv[1], "offset": offset}) + "\\n")
                """, mbox, jsonl], in: repositoryRoot)
            try #require(split.status == 0, "\(split.stderr)")
            let viaLines = try spendlex(["parse", jsonl, "--accounting", "--quiet"])
            #expect(viaLines.status == 0)
            #expect(viaLines.stdout == accounted.stdout)
        }

        @Test("a bad line is an error record with why; --accounting with a ledger or another format is refused")
        func errorsAndRefusals() throws {
            let input = """
                {"raw": "not base64!"}
                not json
                {"id": "s1", "text": "Rs 500 debited from a/c XX1234 at SAMPLE STORE on 01-02-2026", "sender": "VM-HDFCBK", "file": "sms.jsonl", "offset": 99}

                """
            let result = try spendlex(["parse", "-", "--accounting", "--quiet"], stdin: input)
            let records = try Self.lines(result.stdout)
            #expect(records.count == 3)
            let messages = records.compactMap { $0["message"] as? [String: Any] }
            #expect(messages.map { $0["status"] as? String } == ["error", "error", "transaction"])
            #expect(messages[0]["reason"] as? String == "line 1: 'raw' is not a base64 e-mail")
            #expect(messages[2]["file"] as? String == "sms.jsonl" && messages[2]["offset"] as? Int == 99)

            let withStore = try spendlex(["parse", "-", "--accounting", "--store", "/tmp/never.db"], stdin: input)
            #expect(withStore.status == 64 && withStore.stderr.contains("--accounting"))
            let asCSV = try spendlex(["parse", "-", "--accounting", "--format", "csv"], stdin: input)
            #expect(asCSV.status == 64)
        }
    }
}
