#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One fuzz target: which public entry point of the mail, rules or engine libraries the
/// fuzzer's bytes are fed to. Chosen per process by `SPENDLEX_FUZZ_TARGET`.
enum FuzzTarget: String, CaseIterable, Sendable {
    /// `MIMEDecoder.headers(of:)`, the decoded header values, `body(of:headers:)` and `bodyPreferringPlain`.
    case mime
    /// The mbox splitter: read whole with the default chunk, again with 64-byte chunks (the
    /// items must be the same), then with routing in place and a small record limit.
    case mbox
    /// The mbox read in byte ranges, as batch workers do, must give the items of one sequential read.
    case mboxRanges = "mbox-ranges"
    /// The SMS Backup & Restore XML scanner, with default and 64-byte chunks (same items).
    case smsBackup = "sms-backup"
    /// The JSON Lines splitter and `JSONLinesMessageReader.record(from:file:line:)`.
    case jsonl
    /// `RuleLoader.load(text:…)` over one or more YAML files (split at `#---` lines), then
    /// `RuleCompiler.compile` (grammar expansion, PCRE2), the examples and the lint.
    case rules
    /// `AmountNormalizer.normalize` under every decimal-mark policy.
    case amount
    /// `DateNormalizer.normalize`: detected forms in every order, or `format|date`.
    case date
    /// `TimeNormalizer.normalize`.
    case time
    /// A `POST /messages` body: JSON into `MessageInput`, then `PostedMessage.read` with the bundled rules.
    case messageBody = "message-body"
    /// `StatementReader.read(bytes:…)` (every statement format, detected), then each entry read
    /// as a transaction and the balances checked: every entry accounted for.
    case statements
    /// An IMAP server's bytes through `IMAPResponseParser`, whole and in pieces (a hostile server).
    case imap

    /// The target named by `SPENDLEX_FUZZ_TARGET`; exits with usage (64) when unset or unknown.
    static let selected: FuzzTarget = {
        let name = getenv("SPENDLEX_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            FuzzCheck.printError("spendlex-fuzz: set SPENDLEX_FUZZ_TARGET to one of: \(names)")
            exit(64)
        }
        return target
    }()

    /// What the target reads every input with, made before the fuzzer's loop starts: compiling the
    /// bundled rules took more than libFuzzer's 10 s per input in the sanitized debug build, on
    /// whichever input came first (a timeout that was no hang).
    func prepare() {
        switch self {
        case .messageBody: Self.preparePostedMessages()
        default: break
        }
    }

    /// Feeds one input to the target. Traps (through `FuzzCheck`) when an invariant breaks.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .mime: Self.mime(bytes)
        case .mbox: Self.mbox(bytes)
        case .mboxRanges: Self.mboxRanges(bytes)
        case .smsBackup: Self.smsBackup(bytes)
        case .jsonl: Self.jsonLines(bytes)
        case .rules: Self.rules(bytes)
        case .amount: Self.amount(bytes)
        case .date: Self.date(bytes)
        case .time: Self.time(bytes)
        case .messageBody: Self.messageBody(bytes)
        case .statements: Self.statements(bytes)
        case .imap: Self.imap(bytes)
        }
    }
}

/// Invariant checks that stop the fuzzer with a message (libFuzzer then saves the input).
enum FuzzCheck {
    static func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() {
            printError("spendlex-fuzz: invariant broken: \(message())")
            abort()
        }
    }

    /// A line on standard error (the C `stderr` global is not concurrency-safe in Swift 6).
    static func printError(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
