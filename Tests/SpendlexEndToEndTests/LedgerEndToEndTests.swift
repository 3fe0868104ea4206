import Foundation
import GRDB
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// The ledger through the real binary: incremental runs, and a run killed with SIGKILL in the
    /// middle of writing, then run again, ending with the same ledger as one clean run.
    @Suite("spendlex parse --store, end to end", .serialized)
    struct LedgerEndToEndTests {
        /// A JSON Lines inbox of `count` real-shaped messages from several banks, ignored and
        /// unmatched ones included, and SMS/email pairs about the same purchases.
        static func inbox(count: Int) -> String {
            var lines: [String] = []
            for i in 0..<count {
                let minute = String(format: "%02d", i % 60)
                let amount = 100 + i % 900
                switch i % 5 {
                case 0:
                    lines.append(#"{"id": "m\#(i)", "sender": "VM-HDFCBK", "received_at": "2026-05-02T16:\#(minute):30Z", "text": "Spent Rs.\#(amount) On HDFC Bank Card 0000 At MERCHANT\#(i % 50) On 2026-05-02:22:\#(minute):01.Not You?"}"#)
                case 1:
                    lines.append(#"{"id": "m\#(i)", "sender": "JD-ICICIT", "text": "ICICI Bank Acct XX000 debited for Rs \#(amount).00 on 09-May-26; Pune Metro credited. UPI:\#(600000000000 + i). Call 18002662 for dispute."}"#)
                case 2:
                    lines.append(#"{"id": "m\#(i)", "sender": "AD-HDFCBK", "text": "Your OTP for txn of Rs.499 at AMAZON on HDFC Bank Card 0000 is 123456. Do not share it with anyone."}"#)
                case 3:
                    lines.append(#"{"id": "m\#(i)", "sender": "+15550001", "text": "See you at 7, bring the book!"}"#)
                default:
                    // The e-mail about the purchase of message i - 4, four minutes after its SMS.
                    let sms = i - 4
                    let smsMinute = String(format: "%02d", sms % 60)
                    lines.append(#"{"id": "m\#(i)", "channel": "email", "sender": "alerts@hdfcbank.net", "subject": "Alert : Update on your HDFC Bank Credit Card", "received_at": "2026-05-02T16:\#(smsMinute):59Z", "text": "Spent Rs.\#(100 + sms % 900) On HDFC Bank Card 0000 At MERCHANT\#(sms % 50) On 2026-05-02:22:\#(smsMinute):01.Not You?"}"#)
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// Every message and transaction of a ledger, without ids or times that differ between runs.
        static func dump(_ path: String) throws -> [String] {
            let queue = try DatabaseQueue(path: path)
            return try queue.read { db in
                let messages = try Row.fetchAll(db, sql: "SELECT id, status, rule, reason FROM messages ORDER BY id")
                    .map { "message \($0["id"] as String) \($0["status"] as String) \($0["rule"] as String? ?? "-")" }
                let transactions = try Row.fetchAll(db, sql: """
                    SELECT t.message_id, t.amount, t.merchant, t.status, p.message_id AS primary_message, t.duplicate_reason
                    FROM transactions t LEFT JOIN transactions p ON p.id = t.duplicate_of ORDER BY t.message_id
                    """).map {
                        "transaction \($0["message_id"] as String) \($0["amount"] as String) \($0["merchant"] as String? ?? "-") "
                            + "\($0["primary_message"] as String? ?? "primary") \($0["duplicate_reason"] as String? ?? "")"
                    }
                return messages + transactions
            }
        }

        static func count(_ path: String) -> Int {
            guard FileManager.default.fileExists(atPath: path), let queue = try? DatabaseQueue(path: path) else { return 0 }
            return (try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0 }) ?? 0
        }

        let folder: URL
        let input: URL

        init() throws {
            folder = TestScratch.root.appendingPathComponent("spendlex-ledger-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            input = folder.appendingPathComponent("inbox.jsonl")
            try Self.inbox(count: 10_000).write(to: input, atomically: true, encoding: .utf8)
        }

        @Test func parsingTheSameInputsTwiceAddsNothing() throws {
            let store = folder.appendingPathComponent("twice.sqlite").path
            let first = try spendlex(["parse", input.path, "--store", store])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("10000 messages: 6000 transactions"))
            let before = try Self.dump(store)
            let second = try spendlex(["parse", input.path, "--store", store])
            #expect(second.status == 0)
            #expect(second.stderr.contains("10000 already in the ledger"), "\(second.stderr)")
            #expect(try Self.dump(store) == before)
            // The e-mail and the SMS about one purchase: one primary, one linked duplicate.
            #expect(before.contains { $0.hasPrefix("transaction m9 ") && $0.contains(" m5 ") || $0.hasPrefix("transaction m5 ") && $0.contains(" m9 ") })
        }

        /// A Message-ID with a run of 13 or more digits reads as a card number and is kept masked:
        /// a second run compared it raw and parsed such mail again (164 of 2,000 reference-corpus
        /// mails, found by `spendlex fetch`'s Dovecot test).
        @Test func mailWhoseMessageIDLooksLikeACardNumberIsKnownTheSecondTime() throws {
            let mbox = folder.appendingPathComponent("digits.mbox")
            func mail(_ id: String, from: String, body: String) -> String {
                "From \(from) Sat May  2 16:56:01 2026\nFrom: <\(from)>\nSubject: Alert : Update on your HDFC Bank Credit Card\n"
                    + "Date: Sat, 02 May 2026 16:56:01 +0000\nMessage-ID: <\(id)>\n\n\(body)\n\n"
            }
            try (mail("3843136120029.1@hdfcbank.net", from: "alerts@hdfcbank.net",
                      body: "Spent Rs.310.00 On HDFC Bank Card 0000 At GREEN LEAF On 2026-05-02:22:10:01.Not You?")
                 + mail("4843136120029.2@github.com", from: "notifications@github.com", body: "A pull request."))
                .write(to: mbox, atomically: true, encoding: .utf8)
            let store = folder.appendingPathComponent("digits.sqlite").path
            let first = try spendlex(["parse", mbox.path, "--store", store])
            #expect(first.stderr.contains("2 messages: 1 transactions"), "\(first.stderr)")
            let second = try spendlex(["parse", mbox.path, "--store", store])
            #expect(second.stderr.contains("2 messages: 0 transactions, 0 ignored, 0 unmatched, 0 errors, 2 already in the ledger"),
                    "\(second.stderr)")
        }

        @Test func aRunThatCannotWriteItsOutputIsClosedAsFailedWithWhy() throws {
            let store = folder.appendingPathComponent("failed.sqlite").path
            let result = try spendlex(["parse", "examples/alert-pair.jsonl", "--store", store, "--output", "/dev/full"])
            #expect(result.status == 70, "\(result.stderr)")
            let runs = try DatabaseQueue(path: store).read { db in
                try Row.fetchAll(db, sql: "SELECT finished_at, failure FROM import_runs")
            }
            #expect(runs.count == 1)
            #expect(runs.first?["finished_at"] as String? != nil)
            #expect(runs.first?["failure"] as String? == "writing /dev/full failed: No space left on device", "\(runs)")
        }

        @Test func anSMSAndTheEmailAboutItAreOnePurchase() throws {
            // Two wordings of one card purchase, four minutes apart (the README's example).
            let store = folder.appendingPathComponent("pair.sqlite").path
            let result = try spendlex(["parse", "examples/alert-pair.jsonl", "--store", store])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("2 transactions stored, 1 linked as duplicates"), "\(result.stderr)")
            let rows = try Self.dump(store).filter { $0.hasPrefix("transaction ") }
            #expect(rows == [
                "transaction <alert-77@hdfcbank.net> 10290.00 EAZYDINE0000000 primary ",
                "transaction sms-1 10290 EAZYDINE0000000 <alert-77@hdfcbank.net> "
                    + "same bank, account, direction, amount, currency, date, time and merchant",
            ])
        }

        @Test func aRunKilledMidwayThenRunAgainEqualsOneCleanRun() throws {
            // More messages than the other tests: the run must still be going when its first
            // batches are in the ledger. With 10,000 it could finish between two looks (CI saw
            // it once rules were JIT-compiled on first match and start-up took half the time).
            let messages = 40_000
            let input = folder.appendingPathComponent("large-inbox.jsonl")
            try Self.inbox(count: messages).write(to: input, atomically: true, encoding: .utf8)
            let clean = folder.appendingPathComponent("clean.sqlite").path
            let result = try spendlex(["parse", input.path, "--store", clean, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")

            let interrupted = folder.appendingPathComponent("killed.sqlite").path
            let process = Process()
            process.executableURL = spendlexBinary
            process.arguments = ["parse", input.path, "--store", interrupted, "--quiet"]
            process.currentDirectoryURL = repositoryRoot
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until some batches are written, then kill it without warning.
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Self.count(interrupted) < 2_000 && Date() < deadline {
                usleep(2_000)
            }
            let killedMidway = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let written = Self.count(interrupted)
            #expect(killedMidway && written < messages, "the run finished before it could be killed (\(written) messages)")

            let rerun = try spendlex(["parse", input.path, "--store", interrupted])
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(rerun.stderr.contains("\(written) already in the ledger"), "\(rerun.stderr)")
            #expect(try Self.dump(interrupted) == Self.dump(clean))
            let integrity = try DatabaseQueue(path: interrupted).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
            #expect(integrity == "ok")
            // The killed run is closed as interrupted by the next one, not left open for ever.
            let runs = try DatabaseQueue(path: interrupted).read { db in
                try Row.fetchAll(db, sql: "SELECT finished_at, failure FROM import_runs ORDER BY id")
            }
            #expect(runs.count == 2)
            #expect((runs.first?["failure"] as String?)?.hasPrefix("interrupted") == true, "\(runs)")
            #expect(runs.allSatisfy { ($0["finished_at"] as String?) != nil })
        }
    }
}
