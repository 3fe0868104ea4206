// Matching one message: `RuleEngine.Worker.parse` (sender routing, ignore rules, parsers in
// order, normalizing) on the first example of every bundled parser, plus the two other
// outcomes a mailbox is full of: an ignored OTP and a text no rule matches.
import Benchmark
import BenchmarkFixtures
import SpendlexEngine

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .instructions, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(700),
        maxIterations: 1_000
    )

    let engine = RuleFixtures.bundled()
    var messages = ParserSamples.all(engine).map { ($0.parserID, $0.message) }
    messages.append(("ignored: OTP", Message(
        id: "otp", text: "OTP is 482913 for txn of INR 2,500.00 at AMAZON on HDFC Bank card ending 1234. Valid till 10:32. Do not share OTP.",
        sender: "VM-HDFCBK", channel: .sms)))
    messages.append(("unmatched: unknown sender, routed by text", Message(
        id: "personal", text: "Running 10 mins late, I paid Rs.450 for the cab, will send you the rest tonight",
        sender: "+919812345678", channel: .sms)))

    for (name, message) in messages {
        Benchmark(name) { benchmark in
            let worker = engine.makeWorker()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(worker.parse(message))
            }
        }
    }
}
