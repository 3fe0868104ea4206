import SpendlexRules

/// A message split into recognised slots (an amount, a date, a merchant, ...) and the literal
/// text between them: the material of a draft parser. Made by `PatternGeneralizer`.
///
/// The pattern it renders keeps the literal words, escaped for PCRE2, with digit runs made
/// general; it starts at `start` (after a greeting or an earlier sentence) and stops after the
/// last captured slot plus a short literal anchor, so the tail of an alert ("Not you? Call
/// 1800…") is not part of it.
public struct GeneralizedMessage: Sendable {
    /// One recognised span of the message.
    public struct Slot: Sendable, Hashable {
        /// How the slot is written in a pattern.
        public enum Form: Sendable, Hashable {
            /// A grammar fragment: `%{NAME}` or `%{NAME:field}`.
            case grammar(String)
            /// An amount followed by its currency: `%{AMOUNT:amount}\s?%{CURRENCY:currency}`.
            case amountThenCurrency(amount: String, currency: String)
            /// Free text up to the next literal: `(?<merchant>.+?)`.
            case freeText
            /// A word that varies between messages of one shape, never captured: `\S+`.
            case word
        }

        /// How the slot is written.
        public let form: Form
        /// The field it captures when captured at all; nil for a slot that is only generalized.
        public let field: FieldName?
        /// Where it is in the message text, as UTF-8 byte offsets.
        public let range: Range<Int>
        /// The text it covers.
        public let raw: String

        /// Creates a slot.
        public init(form: Form, field: FieldName?, range: Range<Int>, raw: String) {
            self.form = form
            self.field = field
            self.range = range
            self.raw = raw
        }
    }

    /// The message text (card numbers already masked).
    public let text: String
    /// The slots, in text order, never overlapping.
    public let slots: [Slot]
    /// The UTF-8 offset where the pattern starts.
    public let start: Int
    /// Which way the money went, guessed from the words of the message.
    public var direction: Direction?
    /// What kind of transaction it is, guessed from its words.
    public var kind: TransactionKind?
    /// The channel (`card`, `upi`, ...), guessed from its words.
    public var channel: String?
    /// What the `last4` slot refers to: `card` or `account`.
    public var accountType: String?
    /// The ISO 4217 currency written with the amount, if any.
    public var currency: String?

    /// Creates a generalized message.
    public init(text: String, slots: [Slot], start: Int) {
        self.text = text
        self.slots = slots
        self.start = start
    }

    /// The fields the slots capture, in text order.
    public var fields: [FieldName] { slots.compactMap(\.field) }

    /// The slot that captures `field`.
    public func slot(for field: FieldName) -> Slot? {
        slots.first { $0.field == field }
    }

    /// This message with the text of `runs` (UTF-8 ranges of literal text that varies between
    /// messages of its shape) made slots: a run that reads as a name becomes the merchant when
    /// no slot captures one (a merchant or counterparty is never a literal), and each word of
    /// the others a `\S+`. Runs that overlap a slot are left as they are.
    func widened(varying runs: [(range: Range<Int>, isName: Bool)]) -> GeneralizedMessage {
        var slots = self.slots
        var hasMerchant = slots.contains { $0.field == .merchant }
        let bytes = Array(text.utf8)
        for run in runs where run.range.lowerBound >= start && !slots.contains(where: { $0.range.overlaps(run.range) }) {
            if run.isName && !hasMerchant {
                slots.append(Slot(form: .freeText, field: .merchant, range: run.range,
                                  raw: String(decoding: bytes[run.range], as: UTF8.self)))
                hasMerchant = true
                continue
            }
            var index = run.range.lowerBound
            while index < run.range.upperBound {
                if PatternLiteral.isSpace(bytes[index]) { index += 1; continue }
                var end = index
                while end < run.range.upperBound && !PatternLiteral.isSpace(bytes[end]) { end += 1 }
                slots.append(Slot(form: .word, field: nil, range: index..<end,
                                  raw: String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end
            }
        }
        slots.sort { $0.range.lowerBound < $1.range.lowerBound }
        var result = GeneralizedMessage(text: text, slots: slots, start: start)
        result.direction = direction
        result.kind = kind
        result.channel = channel
        result.accountType = accountType
        result.currency = currency
        return result
    }

    /// The pattern with every field captured: two messages with the same skeleton share a draft.
    public var skeleton: String? { pattern(capturing: Set(fields)) }

    /// The pattern capturing only the fields in `capturing` (others are generalized without a
    /// capture); it ends after the last captured slot and a short anchor. nil when nothing
    /// would be captured.
    public func pattern(capturing: Set<FieldName>) -> String? {
        let isCaptured: (Slot) -> Bool = { slot in slot.field.map(capturing.contains) ?? false }
        guard let last = slots.lastIndex(where: isCaptured) else { return nil }
        let bytes = Array(text.utf8)
        var out = ""
        var cursor = start
        for slot in slots[...last] where slot.range.lowerBound >= start {
            out += PatternLiteral.render(bytes[cursor..<slot.range.lowerBound])
            out += Self.render(slot, captured: isCaptured(slot))
            cursor = slot.range.upperBound
        }
        let next = last + 1 < slots.count ? slots[last + 1] : nil
        let gap = bytes[cursor..<(next?.range.lowerBound ?? bytes.count)]
        out += anchor(after: gap, next: next, lazyBefore: slots[last].form == .freeText)
        return out
    }

    /// A slot as pattern text.
    static func render(_ slot: Slot, captured: Bool) -> String {
        let field = captured ? slot.field?.rawValue : nil
        switch slot.form {
        case .grammar(let name):
            return field.map { "%{\(name):\($0)}" } ?? "%{\(name)}"
        case .amountThenCurrency(let amount, let currency):
            guard field != nil else { return "%{\(amount)}\\s?%{\(currency)}" }
            return "%{\(amount):amount}\\s?%{\(currency):currency}"
        case .freeText:
            return field.map { "(?<\($0)>.+?)" } ?? ".+?"
        case .word:
            return "\\S+"
        }
    }

    /// What follows the last captured slot: the next word or punctuation mark, or the next slot
    /// when only spaces separate them. A lazy `.+?` before it needs an anchor that cannot occur
    /// inside the capture too easily: a `.` must be followed by a space or the end.
    private func anchor(after gap: ArraySlice<UInt8>, next: Slot?, lazyBefore: Bool) -> String {
        let space = gap.prefix { PatternLiteral.isSpace($0) }
        let rest = gap.dropFirst(space.count)
        guard let first = rest.first else {
            if let next { return PatternLiteral.render(space) + Self.render(next, captured: false) }
            return lazyBefore ? "\\s*$" : ""
        }
        if PatternLiteral.isWordByte(first) {
            let word = rest.prefix { PatternLiteral.isWordByte($0) }.prefix(24)
            return PatternLiteral.render(space) + PatternLiteral.render(word)
        }
        let mark = rest.prefix(PatternLiteral.scalarLength(first))
        let rendered = PatternLiteral.render(space) + PatternLiteral.render(mark)
        if lazyBefore && (mark.first == UInt8(ascii: ".") || mark.first == UInt8(ascii: ",")) {
            return rendered + "(?:\\s|$)"
        }
        return rendered
    }
}

/// Literal message text as PCRE2 pattern text: metacharacters escaped, digit runs and words
/// with digits generalized (`\d+`, `\w+`), whitespace other than one space as `\s+`.
enum PatternLiteral {
    /// Renders UTF-8 text as a pattern that matches it and its variants.
    static func render(_ bytes: ArraySlice<UInt8>) -> String {
        var out = ""
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if isSpace(byte) {
                let run = bytes[index...].prefix { isSpace($0) }
                out += run.count == 1 && byte == UInt8(ascii: " ") ? " " : "\\s+"
                index += run.count
            } else if isWordByte(byte) {
                let run = bytes[index...].prefix { isWordByte($0) }
                let hasDigit = run.contains { isDigit($0) }
                if !hasDigit {
                    out += String(decoding: run, as: UTF8.self)
                } else {
                    out += run.allSatisfy { isDigit($0) } ? "\\d+" : "\\w+"
                }
                index += run.count
            } else {
                let length = min(scalarLength(byte), bytes.endIndex - index)
                let scalar = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                if length == 1 && metacharacters.contains(byte) {
                    out += "\\" + scalar
                } else if length == 1 && (byte < 0x20 || byte == 0x7F) {
                    out += "\\x{\(String(byte, radix: 16))}"
                } else if let value = scalar.unicodeScalars.first, value.properties.isWhitespace {
                    out += "\\s+"
                } else {
                    out += scalar
                }
                index += length
            }
        }
        return out
    }

    /// Text with only its metacharacters escaped: a literal pattern.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if let byte = character.asciiValue, metacharacters.contains(byte) { out += "\\" }
            out.append(character)
        }
        return out
    }

    /// PCRE2 metacharacters outside a class, and `#` (a comment in extended mode).
    private static let metacharacters: Set<UInt8> = Set("\\^$.|?*+()[]{}#".utf8)

    /// ASCII whitespace (space, tab, line breaks, form feed).
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// An ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// A byte of a word: ASCII letters and digits, `_`, and every byte of a non-ASCII scalar
    /// that is not a space or a symbol (accented letters, other scripts).
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || (byte >= 0x80 && !nonWordLeadBytes.contains(byte))
    }

    /// Lead bytes of the non-ASCII punctuation and symbols seen in alerts (NBSP, `•`, `€`, `₹`,
    /// `£`, `¥`): they end a word. Continuation bytes (0x80...0xBF) follow their lead byte.
    private static let nonWordLeadBytes: Set<UInt8> = [0xC2, 0xE2]

    /// The length of the UTF-8 sequence a lead byte starts.
    static func scalarLength(_ byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
