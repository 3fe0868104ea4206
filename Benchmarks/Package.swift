// swift-tools-version: 6.1
import PackageDescription

// The benchmark harness: corpus generators and package-benchmark suites, in a package of
// its own so that the engine's package never depends on the benchmark tooling.
//
//     swift run -c release spendlex-corpus alerts --messages 20000 --seed 42 /tmp/alerts.mbox
//     swift package --disable-sandbox benchmark
let package = Package(
    name: "SpendlexBenchmarks",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "spendlex-corpus", targets: ["CorpusGenerator"]),
        .library(name: "CorpusKit", targets: ["CorpusKit"]),
    ],
    dependencies: [
        .package(name: "Spendlex", path: ".."),
        // The default traits pull swift-runtime-interposer, which is not available here;
        // MallocInterposer alone gives the malloc counters.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // MeaningSearch writes a worst-case ledger's vectors directly.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // Deterministic corpora (mailboxes, SMS backups, JSON Lines, rule sets) with their ground truth.
        .target(name: "CorpusKit"),
        // `spendlex-corpus`: the generators on the command line.
        .executableTarget(
            name: "CorpusGenerator",
            dependencies: ["CorpusKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // What the benchmarks share: the repository's rule files and ready-made inputs.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                "CorpusKit",
                .product(name: "SpendlexEngine", package: "Spendlex"),
                .product(name: "SpendlexRules", package: "Spendlex"),
                .product(name: "SpendlexMail", package: "Spendlex"),
                .product(name: "SpendlexStore", package: "Spendlex"),
            ]
        ),
    ] + benchmarks,
    swiftLanguageModes: [.v6]
)

/// One package-benchmark executable per measured thing, under `Benchmarks/<Name>/`.
var benchmarks: [Target] {
    ["RuleCompile", "Matching", "Categorize", "Normalizers", "MIME", "EndToEnd", "LedgerSearch", "MeaningSearch"].map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "BenchmarkFixtures",
                "CorpusKit",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SpendlexEngine", package: "Spendlex"),
                .product(name: "SpendlexRules", package: "Spendlex"),
                .product(name: "SpendlexMail", package: "Spendlex"),
                .product(name: "SpendlexStore", package: "Spendlex"),
                .product(name: "SpendlexMeaning", package: "Spendlex"),
                .product(name: "PCRE2", package: "Spendlex"),
            ] + (name == "MeaningSearch" ? [.product(name: "GRDB", package: "GRDB.swift")] : []),
            path: "Benchmarks/\(name)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    }
}
