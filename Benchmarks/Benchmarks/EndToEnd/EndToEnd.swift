// The whole pipeline as `spendlex parse` runs it: BatchParser reading a generated corpus from a
// temporary file (in the page cache after the first pass), routing by sender, decoding, matching,
// rendering JSON Lines; with 1 job and 2 jobs. Corpora:
// - an alerts mbox of 2,000 emails (5.6 MB), read by one reading thread and handed to workers;
// - an alerts mbox of 12,000 emails (34 MB), which 2 jobs read in 8 MiB byte ranges;
// - an SMS Backup & Restore file and a JSON Lines file of 20,000 messages, parsed with the
//   bundled rule pack (Indian bank alerts, OTPs, promotions, personal messages).
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

    let writer = TransactionWriter(format: .jsonl)
    let reference = RuleFixtures.referenceCorpus()
    for messages in [2_000, 12_000] {
        let corpus = TemporaryCorpus { try MailboxFixtures.writeAlertsMbox(messages: messages) }
        for jobs in [1, 2] {
            parse(corpus, "BatchParser, \(messages) alert emails", jobs: jobs, engine: reference, writer: writer)
        }
    }
    let bundled = RuleFixtures.bundled()
    for xml in [true, false] {
        let corpus = TemporaryCorpus { try MailboxFixtures.writeTextMessages(messages: 20_000, xml: xml) }
        for jobs in [1, 2] {
            parse(corpus, "BatchParser, 20000 SMS, \(xml ? "SMS backup XML" : "JSON Lines")", jobs: jobs,
                  engine: bundled, writer: writer)
        }
    }
}

/// One benchmark: the corpus parsed whole per iteration, its transaction count checked.
func parse(_ corpus: TemporaryCorpus, _ name: String, jobs: Int, engine: RuleEngine, writer: TransactionWriter) {
    Benchmark(
        "\(name), \(jobs) job\(jobs == 1 ? "" : "s")",
        configuration: .init(setup: { try corpus.create() }, teardown: { corpus.remove() })
    ) { benchmark in
        let parser = BatchParser(engine: engine, writer: writer, options: BatchOptions(jobs: jobs))
        for _ in benchmark.scaledIterations {
            var rows = 0
            let sink = BatchSink(rows: { rows += $0.count }, problem: { _ in })
            let (summary, _) = parser.run(inputs: [corpus.path], sink: sink)
            precondition(summary.transactions == corpus.transactions,
                         "\(summary.transactions) of \(corpus.transactions) transactions")
            blackHole(rows)
        }
    }
}

/// A generated corpus, written before a benchmark runs and removed after.
final class TemporaryCorpus: @unchecked Sendable {
    private let write: () throws -> (path: String, transactions: Int)
    private(set) var path = ""
    private(set) var transactions = 0

    init(write: @escaping () throws -> (path: String, transactions: Int)) {
        self.write = write
    }

    func create() throws {
        (path, transactions) = try write()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
