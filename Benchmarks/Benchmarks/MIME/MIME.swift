// MIME decoding alone, over generated mailboxes held in memory (no I/O): the header block
// (what sender routing reads for every message) and the readable body (what only bank
// senders' messages go through). One iteration is one pass over the whole corpus; the corpus
// size is in the name, so MB/s = throughput × size.
import Benchmark
import BenchmarkFixtures
import Foundation
import SpendlexMail

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .instructions, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(2),
        maxIterations: 300
    )

    let corpora: [(name: String, messages: [[UInt8]])] = [
        ("alerts", MailboxFixtures.alertMessages(count: 2_000)),
        ("realistic", MailboxFixtures.realisticMessages(megabytes: 20)),
    ]
    for (name, messages) in corpora {
        let bytes = messages.reduce(0) { $0 + $1.count }
        let size = String(format: "%d messages, %.1f MB", messages.count, Double(bytes) / 1_000_000)
        guard let headers = try? messages.map({ try MIMEDecoder.headers(of: $0) }) else {
            fatalError("a generated \(name) message has no header block")
        }

        Benchmark("headers, \(name) (\(size))") { benchmark in
            for _ in benchmark.scaledIterations {
                for message in messages {
                    blackHole(try? MIMEDecoder.headers(of: message))
                }
            }
        }

        Benchmark("headers + From/Subject/Date/Message-ID, \(name) (\(size))") { benchmark in
            for _ in benchmark.scaledIterations {
                for message in messages {
                    guard let parsed = try? MIMEDecoder.headers(of: message) else { continue }
                    blackHole((parsed.fromAddress, parsed.subject, parsed.date, parsed.messageID))
                }
            }
        }

        Benchmark("body, \(name) (\(size))") { benchmark in
            for _ in benchmark.scaledIterations {
                for (message, parsed) in zip(messages, headers) {
                    blackHole(MIMEDecoder.body(of: message, headers: parsed))
                }
            }
        }
    }
}
