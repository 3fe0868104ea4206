// Categorizing one transaction with the bundled decision tables (`rules/categories.yaml`):
// what the engine adds to every parsed transaction (category only), and the full decision
// with its reasons that `spendlex explain` shows. Merchants that a keyword takes, and ones
// that fall through every table to the catch-all (the most work: every table is tried).
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
    let merchants = ["SWIGGY BANGALORE", "WHOLEFDS MKT #10234", "AMZN Mktp US*2K4", "UBER *TRIP",
                     "EAZYDINE0000000 (no keyword)", "JOHN DOE (no keyword)"]
    for merchant in merchants {
        let input = CategoryInput(merchant: merchant, amount: 100, direction: .debit, kind: .purchase, bank: "hdfc")
        Benchmark("categorize: \(merchant)") { benchmark in
            let worker = engine.makeWorker()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(worker.categorize(input))
            }
        }
    }
}
