import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexMail
import SpendlexRules

struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Draft bank parsers in YAML for messages no parser reads.",
        discussion: """
            Groups the messages by sender (an e-mail domain, an SMS sender id without its operator \
            prefix; messages without a sender form one group) and drafts one bank file per sender, \
            named for it (alerts@mybank.co.uk: mybank; AD-KOTAKB: kotakb). Within a sender, messages \
            of one shape share a parser: what never varies stays literal, amounts, dates, times, \
            masks and references become grammar slots, and the merchant or counterparty a capture. \
            Personal senders (a phone number whose text reads as conversation), newsletters and \
            shops' order mails and receipts are refused, and messages the loaded rules already read \
            or ignore are skipped, each with a note on stderr. Every draft passes `spendlex test` \
            and, loaded beside the rules, changes no existing example's result (a parser that would \
            is dropped, with a note). stderr lists what each draft extracts from every message it \
            was made from. With --out-dir, each draft is written to DIR/<bank id>.yaml; without, \
            the drafts go to stdout, several separated by '---' lines (one file each: split them). \
            --bank-id takes all messages as one bank's, whatever their senders; --bank-name needs \
            --bank-id or drafts for a single sender; --country applies to every draft. Exits 1 when nothing \
            could be drafted.
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

    @Option(name: .customLong("out-dir"), help: ArgumentHelp(
        "Write each draft to DIR/<bank id>.yaml (default: all drafts to stdout).", valueName: "dir"))
    var outDir: String?

    @Option(name: .customLong("bank-id"), help: "The bank's id; all messages are drafted as this one bank's (default: one bank per sender, its id from the sender, else newbank).")
    var bankID: String?

    @Option(name: .customLong("bank-name"), help: "The bank's display name (with --bank-id, or when drafts are made for one sender only).")
    var bankName: String?

    @Option(name: .long, help: "Every drafted bank's country, ISO 3166-1 alpha-2 (default: guessed from each one's currency).")
    var country: String?

    @Option(name: .long, help: ArgumentHelp(
        "Draft a statement profile (rules/statements) for this CSV, whose header `spendlex import` cannot read by itself.",
        valueName: "file"))
    var statement: String?

    func validate() throws {
        if statement != nil {
            if !text.isEmpty || unmatched != nil { throw ValidationError("give --statement FILE alone, or --text / --unmatched") }
        } else if text.isEmpty == (unmatched == nil) {
            throw ValidationError("give --text TEXT (repeatable), --unmatched FILE or --statement FILE")
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
        if let statement {
            let draft: StatementProfileDrafter.Draft
            do {
                draft = try StatementProfileDrafter.draft(path: statement, bank: bankID, country: country?.uppercased(),
                                                          worker: engine.makeWorker())
            } catch {
                Stderr.write("\(error)\n")
                throw ExitStatus.findings
            }
            for note in draft.notes { Stderr.write("note: \(note)\n") }
            if let outDir {
                try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
                let path = URL(fileURLWithPath: outDir).appendingPathComponent("\(draft.id).yaml").path
                try draft.yaml.write(toFile: path, atomically: true, encoding: .utf8)
                Stderr.write("wrote \(path)\n")
            } else {
                print(draft.yaml, terminator: "")
            }
            return
        }
        let messages = try unmatched.map(Self.readMessages) ?? text.enumerated().map { index, text in
            Message(id: "text\(index + 1)", text: text, sender: sender,
                    channel: sender != nil ? .sms : .unknown)
        }
        let suggestions = RuleSuggester(engine: engine, options: SuggestOptions(
            bankID: bankID, bankName: bankName, country: country)).suggestBanks(messages)
        let drafted = suggestions.filter { $0.yaml != nil }
        // --bank-name names one bank: senders refused or with nothing to draft do not count.
        if bankName != nil && bankID == nil && drafted.count > 1 {
            throw ValidationError("--bank-name names one bank, but drafts were made for \(drafted.count) senders (\(drafted.map(\.bank.id).joined(separator: ", "))): give --bank-id too to draft them as one bank, or leave --bank-name out")
        }
        Stderr.write(suggestions.flatMap(\.notes).map { "note: \($0)\n" }.joined())
        guard !drafted.isEmpty else {
            Stderr.write("nothing to suggest\n")
            throw ExitStatus.findings
        }
        if let outDir {
            do { try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true) } catch {
                Stderr.write("error: cannot create \(outDir): \(error.localizedDescription)\n")
                throw ExitStatus.internalError
            }
        }
        for (index, suggestion) in drafted.enumerated() {
            guard let yaml = suggestion.yaml else { continue }
            let id = suggestion.bank.id
            if let outDir {
                let path = URL(fileURLWithPath: outDir).appendingPathComponent("\(id).yaml").path
                do { try yaml.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                    Stderr.write("error: cannot write \(path): \(error.localizedDescription)\n")
                    throw ExitStatus.internalError
                }
                Stderr.write("wrote \(path)\n")
            } else {
                if index > 0 { print("---") }
                print(yaml, terminator: "")
            }
            for extraction in suggestion.extractions {
                let fields = extraction.fields.map { "\($0.field.rawValue)=\($0.value)" }.joined(separator: " ")
                Stderr.write("\(id): message \(extraction.messageID): \(extraction.parser.map { "\($0): \(fields)" } ?? "read by no draft")\n")
            }
            let covered = suggestion.parsers.reduce(0) { $0 + $1.covers }
            Stderr.write("\(id): \(suggestion.parsers.count) draft\(suggestion.parsers.count == 1 ? "" : "s") for \(covered) message\(covered == 1 ? "" : "s"); \(suggestion.testReport?.summary ?? "")\n")
        }
        if drafted.count > 1 && outDir == nil {
            Stderr.write("note: \(drafted.count) bank files, separated by '---' lines; --out-dir DIR writes one file per bank\n")
        }
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
            case .email(let email):
                Stderr.write("\(email.file):\(email.offset): note: a whole e-mail ('raw'): run spendlex parse --unmatched on it, and suggest on what that writes\n")
            case .malformed(let file, let offset, let reason): Stderr.write("\(file):\(offset): error: \(reason)\n")
            }
        }
        return messages
    }
}
