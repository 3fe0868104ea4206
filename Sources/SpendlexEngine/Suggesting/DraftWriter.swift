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

/// YAML scalar quoting for values taken from messages.
public enum YAMLScalar {
    /// `'text'` with `'` doubled; `"text"` with escapes when the text holds a line break, a
    /// tab or another control character, or a Unicode line or paragraph separator.
    public static func quoted(_ text: String) -> String {
        if text.unicodeScalars.contains(where: needsEscape) { return doubleQuoted(text) }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Plain when the text is a simple identifier YAML reads as a string (not `yes`, `no`,
    /// `null`, `true`, a number), else `quoted`.
    public static func plainOrQuoted(_ text: String) -> String {
        let simple = text.unicodeScalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } ?? false
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
        let reserved: Set<String> = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"]
        return simple && !reserved.contains(text.lowercased()) ? text : quoted(text)
    }

    /// Whether a scalar cannot stand raw in YAML: C0 and C1 controls, DEL, the line and
    /// paragraph separators, the byte order mark, and the noncharacters U+FFFE and U+FFFF.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
            || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// `"text"`, with what cannot stand raw escaped (`\n`, `\x85`, `\u2028`): any text stays
    /// one valid scalar on one line.
    public static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += scalar.value <= 0xFF ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                        : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
