import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexRules

extension OutputFormat: ExpressibleByArgument {}

/// `--text`, `--sender`, `--subject`, `--received-at`: one message given on the command line.
struct MessageOptions: ParsableArguments {
    @Option(name: .long, help: "Parse this message text instead of input files.")
    var text: String?

    @Option(name: .long, help: "The message's sender: email address or SMS sender id.")
    var sender: String?

    @Option(name: .long, help: "The email subject.")
    var subject: String?

    @Option(name: .customLong("received-at"), help: ArgumentHelp("Arrival time, ISO 8601.", valueName: "time"))
    var receivedAt: String?

    func validate() throws {
        if let receivedAt, parseTimestamp(receivedAt) == nil {
            throw ValidationError("--received-at '\(receivedAt)' is not an ISO 8601 time such as 2026-05-02T16:56:01Z")
        }
    }

    var message: Message? {
        text.map {
            Message(id: "text", text: $0, sender: sender, subject: subject,
                    receivedAt: receivedAt.flatMap(parseTimestamp),
                    channel: subject != nil ? .email : sender != nil ? .sms : .unknown)
        }
    }
}

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse messages into transactions.",
        discussion: """
            Inputs are JSON Lines message files (one object a line: id, text, sender, received_at, channel), \
            or - for stdin. Every message ends as a transaction, ignored, unmatched or an error; a summary \
            goes to stderr.
            """
    )

    @OptionGroup var rules: RuleOptions
    @OptionGroup var single: MessageOptions

    @Option(name: .long, help: "Output format: jsonl, csv or table.")
    var format: OutputFormat = .jsonl

    @Option(name: .shortAndLong, help: ArgumentHelp("Write transactions here instead of stdout.", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Do not print the summary on stderr.")
    var quiet = false

    @Argument(help: ArgumentHelp("JSON Lines message files, or - for stdin.", valueName: "input"))
    var inputs: [String] = []

    func validate() throws {
        if single.text == nil && inputs.isEmpty {
            throw ValidationError("give --text TEXT or at least one input file (- for stdin)")
        }
        if single.text != nil && !inputs.isEmpty {
            throw ValidationError("give either --text or input files, not both")
        }
    }

    func run() throws {
        let engine = try rules.engine()
        let out = try OutputStream(path: output)
        let batch = BatchParser(engine: engine, writer: TransactionWriter(format: format))
        let summary: BatchSummary
        if let message = single.message {
            summary = batch.run(message: message, output: out.write, problem: { Stderr.write($0 + "\n") })
        } else {
            do {
                summary = try batch.run(inputs: inputs, output: out.write, problem: { Stderr.write($0 + "\n") })
            } catch {
                out.flush()
                Stderr.write("error: \(error.localizedDescription)\n")
                throw ExitStatus.badInput
            }
        }
        out.flush()
        if !quiet && single.message == nil {
            Stderr.write(summary.description + "\n")
        }
    }
}
