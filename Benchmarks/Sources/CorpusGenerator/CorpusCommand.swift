import ArgumentParser
import CorpusKit
import Foundation

/// `spendlex-corpus`: writes deterministic benchmark corpora with their ground truth.
@main
struct CorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spendlex-corpus",
        abstract: "Write deterministic benchmark corpora (mailboxes, SMS backups, JSON Lines, rule sets) with their labels.",
        discussion: """
            The same seed gives the same bytes on every machine. Beside the corpus, OUT.labels.tsv \
            lists every transaction message: ordinal, rule, amount, merchant, card.
            """,
        subcommands: [AlertsCommand.self, RealisticCommand.self, SMSCommand.self, JSONLinesCommand.self, RulesCommand.self]
    )
}

/// Options every corpus command takes.
struct CorpusOptions: ParsableArguments {
    @Option(help: "Random seed: the same seed gives the same bytes.")
    var seed: UInt64 = 42

    @Argument(help: "The corpus file to write; its labels go to <output>.labels.tsv.")
    var output: String
}

/// Runs a generator and reports what it wrote on stderr.
func generate(_ options: CorpusOptions, _ body: (ByteSink, LabelWriter) throws -> Int) throws {
    let started = Date()
    let sink = try ByteSink(path: options.output)
    let labels = try LabelWriter(path: options.output + ".labels.tsv")
    let messages = try body(sink, labels)
    try sink.flush()
    try labels.finish()
    let seconds = Date().timeIntervalSince(started)
    let megabytes = Double(sink.count) / 1_000_000
    FileHandle.standardError.write(Data(("wrote \(messages) messages, \(labels.count) transactions, "
        + String(format: "%.1f MB in %.1f s (%.0f MB/s)", megabytes, seconds, megabytes / max(seconds, 1e-9))
        + " -> \(options.output)\n").utf8))
}

struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "An alerts-heavy mbox like shared/bench/gen_mbox.py: 70% transaction alerts over its 12 formats.")

    @Option(help: "Number of messages.")
    var messages: Int

    @OptionGroup var options: CorpusOptions

    func validate() throws {
        guard messages > 0 else { throw ValidationError("--messages must be positive") }
    }

    func run() throws {
        try generate(options) { sink, labels in
            var mailbox = AlertMailbox(seed: options.seed)
            for _ in 0..<messages {
                let ordinal = mailbox.ordinal
                if let label = mailbox.writeNext(to: sink) { labels.write(ordinal: ordinal, label) }
            }
            return messages
        }
    }
}

struct RealisticCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realistic",
        abstract: "A personal mbox: ~2% bank alerts among newsletters, personal mail, receipts and large attachments.")

    @Option(help: "Stop after the first message that reaches this size (1 MB = 1,000,000 bytes).")
    var megabytes: Int

    @OptionGroup var options: CorpusOptions

    func validate() throws {
        guard megabytes > 0 else { throw ValidationError("--megabytes must be positive") }
    }

    func run() throws {
        try generate(options) { sink, labels in
            var mailbox = RealisticMailbox(seed: options.seed)
            let target = megabytes * 1_000_000
            while sink.count < target {
                let ordinal = mailbox.ordinal
                if let label = mailbox.writeNext(to: sink) { labels.write(ordinal: ordinal, label) }
            }
            return mailbox.ordinal
        }
    }
}

struct SMSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sms",
        abstract: "An SMS Backup & Restore XML file of Indian bank alerts, OTPs, promotions and personal messages.")

    @Option(help: "Number of <sms> elements.")
    var messages: Int

    @OptionGroup var options: CorpusOptions

    func validate() throws {
        guard messages > 0 else { throw ValidationError("--messages must be positive") }
    }

    func run() throws {
        try generate(options) { sink, labels in
            SMSBackupWriter.write(count: messages, seed: options.seed, to: sink, labels: labels)
            return messages
        }
    }
}

struct JSONLinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jsonl",
        abstract: "The JSON Lines message format, with the same mix of messages as sms.")

    @Option(help: "Number of lines.")
    var messages: Int

    @OptionGroup var options: CorpusOptions

    func validate() throws {
        guard messages > 0 else { throw ValidationError("--messages must be positive") }
    }

    func run() throws {
        try generate(options) { sink, labels in
            JSONLinesWriter.write(count: messages, seed: options.seed, to: sink, labels: labels)
            return messages
        }
    }
}

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "The synthetic bank rule files the RuleCompile benchmark compiles, ten parsers a file.",
        discussion: "Check them with: spendlex test OUTDIR grammars")

    @Option(help: "Number of parsers.")
    var parsers: Int

    @Argument(help: "The folder to write synthetic-<n>.yaml files into (created if needed).")
    var folder: String

    func validate() throws {
        guard parsers > 0 else { throw ValidationError("--parsers must be positive") }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = SyntheticRuleSet.bankFiles(parsers: parsers)
        for file in files {
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(file.name))
        }
        FileHandle.standardError.write(Data("wrote \(parsers) parsers in \(files.count) files -> \(folder)\n".utf8))
    }
}
