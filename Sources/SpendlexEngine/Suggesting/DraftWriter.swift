import Foundation
import SpendlexRules

/// The header of a drafted bank file.
public struct DraftBank: Sendable, Equatable {
    /// The bank's id (`boi`), from `--bank-id`, the senders, or `newbank`.
    public var id: String
    /// Its display name.
    public var name: String
    /// ISO 3166-1 alpha-2 country, given or guessed from the currency.
    public var country: String?
    /// ISO 4217 currency, from the messages' amounts.
    public var currency: String?
    /// Sender patterns from the messages' senders.
    public var senders: [String]
    /// How the header was guessed, for comments in the file.
    public var notes: [String]
    /// `detect` patterns, when the draft needs them to take no other bank's message (a bank
    /// with none is a candidate for every message of an unknown sender).
    public var detect: [String] = []

    /// Creates a header.
    public init(id: String, name: String, country: String? = nil, currency: String? = nil,
                senders: [String] = [], notes: [String] = []) {
        self.id = id
        self.name = name
        self.country = country
        self.currency = currency
        self.senders = senders
        self.notes = notes
    }
}

/// One drafted parser, ready to be written.
public struct DraftParser: Sendable {
    /// Its id (`boi.card.spend`).
    public var id: String
    /// Debit or credit, when guessed.
    public var direction: Direction?
    /// The kind, when guessed.
    public var kind: TransactionKind?
    /// The channel, when guessed.
    public var channel: String?
    /// `card` or `account`, when the pattern captures `last4`.
    public var accountType: String?
    /// The PCRE2 pattern, with grammar references.
    public var pattern: String
    /// How many messages the draft covers.
    public var covers: Int
    /// Its examples, at most 3.
    public var examples: [DraftExample]
    /// Every message of its group, the first one first.
    public var members: [Message] = []
}

/// An example of a drafted parser: a message and the fields the draft extracts from it.
public struct DraftExample: Sendable {
    /// The message.
    public var message: Message
    /// Field name and expected value, in output order; empty until filled from a parse.
    public var expect: [(field: ExpectedField, value: String)]
}

/// Writes a drafted bank file as YAML: every user-derived value as a single-quoted scalar
/// (single quotes doubled), or double-quoted with escapes when it holds a line break or a
/// control character, which single quotes cannot carry.
public enum DraftWriter {
    /// The whole file.
    public static func write(_ bank: DraftBank, parsers: [DraftParser]) -> String {
        var out = "# yaml-language-server: $schema=../../../grammars/spendlex-rules.schema.json\n"
        out += "# Drafted by `spendlex suggest`: review each pattern, add counter_examples, then run `spendlex test`.\n"
        for note in bank.notes { out += "# \(note)\n" }
        out += "bank: \(YAMLScalar.quoted(bank.name))\n"
        out += "id: \(YAMLScalar.plainOrQuoted(bank.id))\n"
        if let country = bank.country { out += "country: \(YAMLScalar.quoted(country))\n" }
        if let currency = bank.currency { out += "currency: \(YAMLScalar.quoted(currency))\n" }
        if bank.senders.isEmpty {
            out += "# senders: ['alerts@example-bank.com', '*-BANKID']   # addresses, domains, SMS ids\n"
        } else {
            out += "senders: [\(bank.senders.map(YAMLScalar.quoted).joined(separator: ", "))]\n"
        }
        let phrase = "\\b" + PatternLiteral.escaped(bank.name) + "\\b"
        if bank.detect.isEmpty {
            out += "# detect: [\(YAMLScalar.quoted("(?i)" + phrase))]   # a phrase only this bank's messages contain\n"
        } else {
            out += "# detect: added so that the draft reads no message of another bank's examples; make it a phrase only this bank's messages contain\n"
            out += "detect: [\(bank.detect.map(YAMLScalar.quoted).joined(separator: ", "))]\n"
        }
        out += "parsers:\n"
        for parser in parsers {
            out += write(parser)
        }
        return out
    }

    private static func write(_ parser: DraftParser) -> String {
        var out = "  - id: \(YAMLScalar.plainOrQuoted(parser.id))\n"
        out += "    # covers \(parser.covers) message\(parser.covers == 1 ? "" : "s")\n"
        if let direction = parser.direction { out += "    direction: \(direction.rawValue)\n" }
        if let kind = parser.kind { out += "    kind: \(kind.rawValue)\n" }
        if let channel = parser.channel { out += "    channel: \(YAMLScalar.plainOrQuoted(channel))\n" }
        if let accountType = parser.accountType { out += "    account_type: \(accountType)\n" }
        out += "    pattern: \(YAMLScalar.quoted(parser.pattern))\n"
        out += "    examples:\n"
        for example in parser.examples {
            let message = example.message
            out += "      - text: \(YAMLScalar.quoted(message.text))\n"
            if let sender = message.sender { out += "        sender: \(YAMLScalar.quoted(sender))\n" }
            if let subject = message.subject { out += "        subject: \(YAMLScalar.quoted(subject))\n" }
            if let receivedAt = message.receivedAt {
                out += "        received_at: \(YAMLScalar.quoted(TransactionWriter.timestamp(receivedAt)))\n"
            }
            if example.expect.isEmpty {
                out += "        expect: {}\n"
            } else {
                out += "        expect:\n"
                for (field, value) in example.expect {
                    out += "          \(field.rawValue): \(YAMLScalar.quoted(value))\n"
                }
            }
        }
        return out
    }
}
