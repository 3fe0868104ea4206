// The whole pipeline as `spendlex parse` runs it: BatchParser reading a generated alerts mbox
// (a temporary file, in the page cache after the first pass), routing by sender, decoding,
// matching with the reference corpus's rules, rendering JSON Lines; with 1 job and 2 jobs.
import Benchmark
import BenchmarkFixtures
import Foundation
import SpendlexEngine
import SpendlexMail

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .instructions, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 100
    )

    let messages = 2_000
    let engine = RuleFixtures.referenceCorpus()
    let writer = TransactionWriter(format: .jsonl)
    let mailbox = TemporaryMailbox()

    for jobs in [1, 2] {
        Benchmark(
            "BatchParser, \(messages) alert emails, \(jobs) job\(jobs == 1 ? "" : "s")",
            configuration: .init(
                setup: { try mailbox.create(messages: messages) },
                teardown: { mailbox.remove() })
        ) { benchmark in
            let parser = BatchParser(engine: engine, writer: writer, options: BatchOptions(jobs: jobs))
            for _ in benchmark.scaledIterations {
                var rows = 0
                let sink = BatchSink(rows: { rows += $0.count }, problem: { _ in })
                let (summary, _) = parser.run(inputs: [mailbox.path], sink: sink)
                precondition(summary.transactions == mailbox.transactions, "\(summary.transactions) of \(mailbox.transactions) transactions")
                blackHole(rows)
            }
        }
    }
}

/// The generated mbox, written before a benchmark runs and removed after.
final class TemporaryMailbox: @unchecked Sendable {
    private(set) var path = ""
    private(set) var transactions = 0

    func create(messages: Int) throws {
        (path, transactions) = try MailboxFixtures.writeAlertsMbox(messages: messages)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
