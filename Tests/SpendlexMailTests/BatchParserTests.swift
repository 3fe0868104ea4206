import Foundation
import Testing
import SpendlexEngine
import SpendlexRules
@testable import SpendlexMail

@Suite("Batch parsing")
struct BatchParserTests {
    static let rules = """
        id: tb
        country: IN
        senders: ["*-TBANK"]
        ignore: ['(?i)\\bOTP\\b']
        parsers:
          - id: tb.spend
            direction: debit
            pattern: 'spent Rs\\.(?<amount>\\d+) on (?<date>\\S+)'
        """

    func engine() -> RuleEngine {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: Self.rules, path: "tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        return RuleEngine(rules: RuleCompiler.compile(ruleSet).0)
    }

    @Test func everyMessageIsAccountedForOnce() throws {
        let path = try temporaryFile("""
            {"id": "1", "sender": "VM-TBANK", "text": "spent Rs.5 on 02-05-2026"}
            {"id": "2", "sender": "VM-TBANK", "text": "OTP 1234"}
            {"id": "3", "sender": "VM-TBANK", "text": "hello"}
            {"id": "4", "sender": "VM-TBANK", "text": "spent Rs.5 on 31-02-2026"}
            broken
            {"id": "6", "sender": "VM-TBANK", "text": "spent Rs.7 on 03-05-2026"}
            """)
        var rows: [String] = []
        var problems: [String] = []
        let (summary, unreadable) = BatchParser(engine: engine(), writer: TransactionWriter(format: .jsonl))
            .run(inputs: [path], sink: BatchSink(transactions: { rows.append($0) }, problem: { problems.append($0) }))
        #expect(unreadable.isEmpty)
        #expect(summary.messages == 6)
        #expect(summary.transactions == 2 && summary.ignored == 1 && summary.unmatched == 1 && summary.errors == 2)
        #expect(summary.isBalanced)
        #expect(summary.transactionsByBank == ["tb": 2])
        #expect(rows.joined().split(separator: "\n").count == 2)
        #expect(problems.count == 2)
        #expect(problems[0].contains(":4: error: message 4: tb.spend: invalid date"))
        #expect(problems[1].hasSuffix(":5: error: line 5: not valid JSON"))
    }

    /// A bank mail whose plain part only the fallback reads, while its HTML part is in the
    /// bank's own format: the bank's parser wins.
    @Test func theHTMLPartWinsOverAFallbackReadingOfThePlainPart() throws {
        let generic = """
            id: generic
            fallback: true
            parsers:
              - id: generic.debit
                direction: debit
                pattern: 'paid Rs\\.(?<amount>\\d+)'
            """
        let bank = """
            id: tm
            country: IN
            senders: ["alerts@tm.example"]
            parsers:
              - id: tm.spend
                direction: debit
                pattern: 'spent Rs\\.(?<amount>\\d+) at (?<merchant>\\w+)'
            """
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: generic, path: "generic.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: bank, path: "tm.yaml", into: &ruleSet, diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let engine = RuleEngine(rules: RuleCompiler.compile(ruleSet).0)
        let path = try temporaryFile("""
            From alerts@tm.example Mon May  4 10:00:00 2026
            From: alerts@tm.example
            Subject: Alert
            Message-ID: <m1@tm.example>
            MIME-Version: 1.0
            Content-Type: multipart/alternative; boundary="b"

            --b
            Content-Type: text/plain

            You paid Rs.42 today.
            --b
            Content-Type: text/html

            <p>You spent Rs.42 at CAFE</p>
            --b--

            """)
        var rows = ""
        let (summary, _) = BatchParser(engine: engine, writer: TransactionWriter(format: .jsonl), options: BatchOptions(jobs: 1))
            .run(inputs: [path], sink: BatchSink(transactions: { rows += $0 }, problem: { _ in }))
        #expect(summary.transactions == 1)
        #expect(rows.contains(#""rule":"tm.spend""#) && rows.contains(#""merchant":"CAFE""#), "\(rows)")
    }

    @Test func csvHasTheExpenseTrackerColumns() throws {
        let path = try temporaryFile("""
            {"id": "1", "sender": "VM-TBANK", "channel": "sms", "text": "spent Rs.5 on 02-05-2026"}
            """)
        var out = ""
        _ = BatchParser(engine: engine(), writer: TransactionWriter(format: .csv))
            .run(inputs: [path], sink: BatchSink(transactions: { out += $0 }, problem: { _ in }))
        #expect(out == """
            Ledger,Category,Subcategory,Currency,Price,Account,Recorder,Date,Time,Note,Transaction
            tb,,,INR,-5,tb,SMS,2026-05-02,,,Expense

            """)
    }
}

@Suite("Parallel batches keep input order")
struct ParallelOrderTests {
    @Test func orderedParallelMapDeliversInOrder() {
        let map = OrderedParallelMap<Int, Int>(jobs: 4, limit: 8, makeWork: {
            { value in
                // Uneven work so that later inputs often finish first.
                if value % 7 == 0 { usleep(2000) }
                return value * 2
            }
        })
        var outputs: [Int] = []
        for value in 0..<500 { map.submit(value) { outputs.append($0) } }
        map.finish { outputs.append($0) }
        #expect(outputs == (0..<500).map { $0 * 2 })
    }

    @Test(arguments: [1, 2, 4])
    func outputIsTheSameForAnyNumberOfJobs(jobs: Int) throws {
        var lines = ""
        for index in 0..<3000 {
            let text = index % 5 == 0 ? "OTP \(index)" : "spent Rs.\(index) on 0\(index % 9 + 1)-05-2026"
            lines += #"{"id": "\#(index)", "sender": "VM-TBANK", "text": "\#(text)"}"# + "\n"
        }
        let path = try temporaryFile(lines)
        var out = ""
        let parser = BatchParser(engine: BatchParserTests().engine(), writer: TransactionWriter(format: .csvFull),
                                 options: BatchOptions(jobs: jobs))
        let (summary, _) = parser.run(inputs: [path], sink: BatchSink(transactions: { out += $0 }, problem: { _ in }))
        #expect(summary.messages == 3000 && summary.transactions == 2400 && summary.ignored == 600 && summary.isBalanced)
        let ids = out.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } }
        #expect(ids == (0..<3000).filter { $0 % 5 != 0 }.map { Substring(String($0)) })
    }

    /// An mbox that the workers read in byte ranges (of a few messages each here) gives what one
    /// reading thread gives: the same rows in the same order, the same problems and counts.
    @Test(arguments: [(2, 700), (2, 4096), (3, 1500)])
    func mboxReadInRangesGivesTheSameResult(jobs: Int, rangeBytes: Int) throws {
        var mbox = ""
        for index in 0..<600 {
            mbox += "From sender@example.com Mon Jan  1 00:00:00 2024\n"
            switch index % 6 {
            case 0: mbox += "From: news@shop.example\nSubject: sale \(index)\n\nbuy things\n\n"
            case 1: mbox += "From: alerts@tb.example\nMessage-ID: <\(index)@tb>\nSubject: OTP\n\nOTP \(index)\n\n"
            case 2: mbox += "\u{01}\u{02}junk line\n\nnot an email\n\n"
            case 3: mbox += "From: alerts@tb.example\nSubject: hi\n\nhello \(index)\n>From the bank\n\n"
            default:
                mbox += "From: Bank <alerts@tb.example>\r\nMessage-ID: <\(index)@tb>\r\n\r\n"
                    + "spent Rs.\(index) on 0\(index % 9 + 1)-05-2026\r\n\r\n"
            }
        }
        let path = try temporaryFile(mbox, name: "ranges.mbox")
        let rules = BatchParserTests.rules.replacingOccurrences(of: #"senders: ["*-TBANK"]"#,
                                                                with: #"senders: ["*-TBANK", "tb.example"]"#)
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: rules, path: "tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        let engine = RuleEngine(rules: RuleCompiler.compile(ruleSet).0)

        func run(jobs: Int, rangeBytes: Int) -> (BatchSummary, String, [String]) {
            var options = BatchOptions(jobs: jobs)
            options.mboxRangeBytes = rangeBytes
            var out = ""
            var problems: [String] = []
            let (summary, _) = BatchParser(engine: engine, writer: TransactionWriter(format: .csvFull), options: options)
                .run(inputs: [path], sink: BatchSink(transactions: { out += $0 }, problem: { problems.append($0) }))
            return (summary, out, problems)
        }
        let (sequential, sequentialRows, sequentialProblems) = run(jobs: 1, rangeBytes: rangeBytes)
        let (ranged, rangedRows, rangedProblems) = run(jobs: jobs, rangeBytes: rangeBytes)

        #expect(sequential.messages == 600 && sequential.transactions == 200 && sequential.isBalanced)
        #expect(ranged.messages == sequential.messages && ranged.transactions == sequential.transactions)
        #expect(ranged.ignored == sequential.ignored && ranged.unmatched == sequential.unmatched)
        #expect(ranged.errors == sequential.errors && ranged.notFromBank == sequential.notFromBank)
        #expect(ranged.bytes == sequential.bytes)
        #expect(rangedRows == sequentialRows)
        #expect(rangedProblems == sequentialProblems)
    }
}
