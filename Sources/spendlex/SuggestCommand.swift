import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexRules

struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draft a parser in YAML for messages no parser reads.",
        discussion: """
            Generalizes each message into a pattern from the loaded grammars (amounts, dates, times, \
            account masks, references, a merchant), groups messages one pattern serves, and prints a \
            complete bank file whose examples pass `spendlex test`. Messages the loaded rules already \
            read are skipped with a note on stderr. Exits 1 when nothing could be drafted.
            """
    )

    @OptionGroup var rules: RuleOptions

    @Option(name: .long, help: "A message text (repeatable).")
    var text: [String] = []

    @Option(name: .long, help: "The sender of the --text messages: email address or SMS sender id.")
    var sender: String?

    @Option(name: .long, help: ArgumentHelp(
        "A JSON Lines file of messages, as `spendlex parse --unmatched FILE` writes it.", valueName: "file"))
    var unmatched: String?

    @Option(name: .customLong("bank-id"), help: "The bank's id (default: guessed from the senders, else newbank).")
    var bankID: String?

    @Option(name: .customLong("bank-name"), help: "The bank's display name.")
    var bankName: String?

    @Option(name: .long, help: "The bank's country, ISO 3166-1 alpha-2 (default: guessed from the currency).")
    var country: String?

    func validate() throws {
        if text.isEmpty == (unmatched == nil) {
            throw ValidationError("give --text TEXT (repeatable) or --unmatched FILE")
        }
        if let bankID, bankID.isEmpty || !bankID.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
        }) {
            throw ValidationError("--bank-id '\(bankID)' must be lower case letters, digits, '.', '_' and '-'")
        }
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--country '\(country)' must be an ISO 3166 code such as IE")
        }
    }

    func run() throws {
        let engine = try rules.engine()
        let messages = try unmatched.map(Self.readMessages) ?? text.enumerated().map { index, text in
            Message(id: "text\(index + 1)", text: text, sender: sender,
                    channel: sender != nil ? .sms : .unknown)
        }
        let suggestion = RuleSuggester(engine: engine, options: SuggestOptions(
            bankID: bankID, bankName: bankName, country: country)).suggest(messages)
        Stderr.write(suggestion.notes.map { "note: \($0)\n" }.joined())
        guard let yaml = suggestion.yaml else {
            Stderr.write("nothing to suggest\n")
            throw ExitStatus.findings
        }
        print(yaml, terminator: "")
        let covered = suggestion.parsers.reduce(0) { $0 + $1.covers }
        Stderr.write("\(suggestion.parsers.count) draft\(suggestion.parsers.count == 1 ? "" : "s") for \(covered) message\(covered == 1 ? "" : "s"); \(suggestion.testReport?.summary ?? "")\n")
    }

    /// The messages of a JSON Lines file; unreadable lines are reported and skipped.
    static func readMessages(from path: String) throws -> [Message] {
        // `parse --unmatched` writes an empty file when every message was read: nothing to draft.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 { return [] }
        let reader: InputReader
        do { reader = try InputReader(path: path, format: .jsonLines) } catch {
            Stderr.write("error: \(error)\n")
            throw ExitStatus.badInput
        }
        var messages: [Message] = []
        for item in reader {
            guard case .jsonLine(let bytes, let file, let line) = item else {
                if case .malformed(let file, let offset, let reason) = item {
                    Stderr.write("\(file):\(offset): error: \(reason)\n")
                }
                continue
            }
            switch JSONLinesMessageReader.record(from: bytes[...], file: file, line: line) {
            case .message(let message): messages.append(message)
            case .malformed(let file, let offset, let reason): Stderr.write("\(file):\(offset): error: \(reason)\n")
            }
        }
        return messages
    }
}
