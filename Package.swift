// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Spendlex",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "spendlex", targets: ["spendlex"]),
        .library(name: "SpendlexEngine", targets: ["SpendlexEngine"]),
        .library(name: "SpendlexMail", targets: ["SpendlexMail"]),
        .library(name: "SpendlexStore", targets: ["SpendlexStore"]),
        .library(name: "SpendlexRules", targets: ["SpendlexRules"]),
        .library(name: "SpendlexMeaning", targets: ["SpendlexMeaning"]),
        .library(name: "PCRE2", targets: ["PCRE2"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        // The raw C library: a module map and a shim header, nothing else.
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // glibc's mallopt, for the command-line tool's heap settings (HeapTuning).
        .systemLibrary(name: "CMalloc"),
        // libsodium: Argon2id for the passwords of the people a service hosts.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // A small safe wrapper: JIT-compiled patterns, per-thread scratch, typed errors.
        .target(name: "PCRE2", dependencies: ["CPCRE2"]),
        // The rule language: YAML with source locations, the rule model, diagnostics.
        .target(name: "SpendlexRules", dependencies: [.product(name: "Yams", package: "Yams")]),
        // Compiling and running rules: matchers, normalizers, the engine.
        .target(
            name: "SpendlexEngine", dependencies: ["SpendlexRules", "PCRE2"],
            // CLDR's currencies (scripts/currencies.py), compiled into the binary: no file to find at run time.
            resources: [.embedInCode("Resources/currencies.tsv")]
        ),
        // Message sources: JSON Lines now; mailboxes and SMS backups next.
        .target(name: "SpendlexMail", dependencies: [
            "SpendlexEngine", "PCRE2", .product(name: "CSV", package: "CSV.swift"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // Search by meaning: a multilingual embedding model loaded at run time when installed
        // (scripts/dev model), and the int8 vectors the ledger keeps and scans.
        .target(name: "SpendlexMeaning"),
        // The ledger: SQLite (system library) through GRDB; migrations, runs, duplicates.
        .target(name: "SpendlexStore", dependencies: [
            "SpendlexEngine", "SpendlexRules", "SpendlexMeaning", .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the hot path's inserts (BoundStatement).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // The HTTP service: Hummingbird 2 routes over the engine, the ledger and the advisor.
        .target(
            name: "SpendlexServer",
            dependencies: [
                "SpendlexEngine", "SpendlexRules", "SpendlexMail", "SpendlexStore", "SpendlexSync", "SpendlexMeaning", "CSodium",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // An IMAP client that only reads: TLS or STARTTLS, login, EXAMINE, UID SEARCH, UID FETCH
        // BODY.PEEK[] (SwiftNIO and swift-nio-ssl; see IMAPSession for why not libcurl).
        .target(
            name: "SpendlexIMAP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Fetching a mailbox's bank mail over IMAP into the parser and the ledger, resumably.
        .target(name: "SpendlexSync", dependencies: ["SpendlexIMAP", "SpendlexMail", "SpendlexStore", "SpendlexEngine", "SpendlexRules"]),
        // The optional language model that categorizes merchants nothing else decides.
        .target(
            name: "SpendlexLanguageModel",
            dependencies: [
                "SpendlexRules",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The command-line tool: parses arguments, calls the libraries, prints.
        .executableTarget(
            name: "spendlex",
            dependencies: [
                "SpendlexEngine", "SpendlexRules", "SpendlexMail", "SpendlexStore", "SpendlexServer", "SpendlexLanguageModel",
                "SpendlexIMAP", "SpendlexSync", "SpendlexMeaning", "PCRE2", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share: the folder their files go to (Tests/SpendlexTestSupport).
        .target(name: "SpendlexTestSupport", path: "Tests/SpendlexTestSupport"),
        .testTarget(name: "PCRE2Tests", dependencies: ["PCRE2"]),
        .testTarget(name: "SpendlexRulesTests", dependencies: ["SpendlexRules"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SpendlexEngineTests", dependencies: ["SpendlexEngine"]),
        .testTarget(
            name: "SpendlexMailTests", dependencies: ["SpendlexMail", "SpendlexTestSupport"],
            resources: [.copy("MIME/Fixtures"), .copy("Inputs/InputFixtures")]
        ),
        .testTarget(name: "SpendlexIMAPTests", dependencies: ["SpendlexIMAP", "SpendlexTestSupport"]),
        .testTarget(name: "SpendlexStoreTests", dependencies: [
            "SpendlexStore", "SpendlexMeaning", "SpendlexTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(
            name: "SpendlexServerTests",
            dependencies: [
                "SpendlexServer", "SpendlexStore", "SpendlexTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SpendlexEndToEndTests",
            dependencies: [
                "spendlex", "SpendlexStore", "SpendlexMeaning", "SpendlexTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Coverage-guided fuzzing (libFuzzer): only when SPENDLEX_FUZZ is set, so that ordinary
// `swift build` and `swift test` never see it. `scripts/fuzz.sh` sets it and builds with
// `-sanitize=fuzzer,address`; see Tests/Fuzz/README.md.
if Context.environment["SPENDLEX_FUZZ"] != nil {
    package.targets += [
        .target(name: "CLibFuzzer", path: "Sources/SpendlexFuzz/CLibFuzzer"),
        .executableTarget(
            name: "SpendlexFuzz", dependencies: ["CLibFuzzer", "SpendlexMail", "SpendlexEngine", "SpendlexRules", "SpendlexIMAP"],
            exclude: ["CLibFuzzer"]
        ),
    ]
    package.products.append(.executable(name: "spendlex-fuzz", targets: ["SpendlexFuzz"]))
}
