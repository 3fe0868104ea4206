import Foundation
import SpendlexEngine

/// Parses every message of some inputs with one engine, writing transactions as they
/// come and accounting for every message in a `BatchSummary`.
public struct BatchParser {
    /// Where non-transaction outcomes are reported: errors always, others if wanted.
    public typealias Report = (_ record: String) -> Void

    let engine: RuleEngine
    let writer: TransactionWriter

    /// Creates a batch parser.
    public init(engine: RuleEngine, writer: TransactionWriter) {
        self.engine = engine
        self.writer = writer
    }

    /// Parses the JSON Lines message files (or `-` for stdin) in order. `output` receives
    /// rendered rows (the header first); `problem` receives one line per error.
    /// Throws only when an input cannot be opened at all.
    public func run(inputs: [String], output: (String) -> Void, problem: Report) throws -> BatchSummary {
        var readers: [JSONLinesMessageReader] = []
        for input in inputs {
            readers.append(try JSONLinesMessageReader(path: input))
        }
        let worker = engine.makeWorker()
        var summary = BatchSummary()
        output(writer.header)
        for var reader in readers {
            while let record = reader.next() {
                summary.messages += 1
                switch record {
                case .malformed(let file, let offset, let reason):
                    summary.errors += 1
                    problem("\(file):\(offset): error: \(reason)")
                case .message(let message):
                    let outcome = worker.parse(message)
                    account(outcome, message: message, in: &summary, output: output, problem: problem)
                }
            }
        }
        return summary
    }

    /// Parses a single message.
    public func run(message: Message, output: (String) -> Void, problem: Report) -> BatchSummary {
        var summary = BatchSummary()
        summary.messages = 1
        output(writer.header)
        account(engine.makeWorker().parse(message), message: message, in: &summary, output: output, problem: problem)
        return summary
    }

    private func account(_ outcome: ParseOutcome, message: Message, in summary: inout BatchSummary,
                         output: (String) -> Void, problem: Report) {
        switch outcome {
        case .transaction(let transaction):
            summary.transactions += 1
            summary.transactionsByBank[transaction.bank, default: 0] += 1
            output(writer.row(transaction))
        case .ignored:
            summary.ignored += 1
        case .unmatched:
            summary.unmatched += 1
        case .failed, .matchLimit:
            summary.errors += 1
            let place = message.file.map { "\($0):\(message.offset ?? 0): " } ?? ""
            problem("\(place)error: message \(message.id): \(outcome.reason)")
        }
    }
}
