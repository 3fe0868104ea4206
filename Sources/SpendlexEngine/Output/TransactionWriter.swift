import Foundation

/// The output formats of `spendlex parse`.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// One JSON object a line, every field (ARCHITECTURE.md's record).
    case jsonl
    /// The columns expense-tracker apps import.
    case csv
    /// Every field of the record, one column each.
    case csvFull = "csv-full"
    /// An aligned table for people.
    case table
}

/// Renders transactions in one output format. Rows are produced one at a time so that
/// output streams; `header` and `footer` frame them.
public struct TransactionWriter: Sendable {
    /// The format.
    public let format: OutputFormat

    /// Creates a writer.
    public init(format: OutputFormat) {
        self.format = format
    }

    /// The column names of the CSV format.
    public static let csvColumns = ["Ledger", "Category", "Subcategory", "Currency", "Price", "Account",
                                    "Recorder", "Date", "Time", "Note", "Transaction"]

    /// What goes before the first row (CSV header, table header), or "".
    public var header: String {
        switch format {
        case .jsonl: ""
        case .csv: Self.csvColumns.joined(separator: ",") + "\n"
        case .csvFull: Self.csvFullColumns.joined(separator: ",") + "\n"
        case .table: TableLayout.header
        }
    }

    /// One transaction, ending with a newline.
    public func row(_ transaction: Transaction) -> String {
        switch format {
        case .jsonl: jsonLine(transaction)
        case .csv: csvLine(transaction)
        case .csvFull: csvFullLine(transaction)
        case .table: TableLayout.row(transaction)
        }
    }

    /// The ARCHITECTURE.md record as one JSON line; amounts are decimal strings.
    public func jsonLine(_ t: Transaction) -> String {
        var json = JSONObjectWriter()
        json.object("source") { source in
            source.field("id", t.messageID)
            source.field("kind", t.messageChannel.rawValue)
            source.field("sender", t.sender)
            source.field("received_at", t.receivedAt.map(Self.timestamp))
            source.field("file", t.file)
            source.field("offset", t.offset)
        }
        json.field("rule", t.rule)
        json.field("bank", t.bank)
        json.field("direction", t.direction?.rawValue)
        json.field("kind", t.kind?.rawValue)
        json.field("amount", t.amountText)
        json.field("currency", t.currency)
        json.field("date", t.date?.description)
        json.field("time", t.time?.description)
        json.field("merchant", t.merchant)
        if let account = t.account {
            json.object("account") { object in
                object.field("type", account.type)
                object.field("last4", account.last4)
            }
        } else {
            json.field("account", nil as String?)
        }
        json.field("balance", t.balance)
        json.field("reference", t.reference)
        json.field("channel", t.channel)
        json.field("category", t.category)
        json.field("subcategory", t.subcategory)
        json.raw("confidence", Self.twoDecimals(t.confidence))
        json.field("status", t.status.rawValue)
        json.field("idempotency_key", t.idempotencyKey)
        json.field("duplicate_of", t.duplicateOf)
        return json.finish() + "\n"
    }

    /// A message no parser covered, as one JSON line for rule authors: where it is, who
    /// sent it, why it is reported, and its text (card numbers masked).
    public static func unmatchedLine(_ message: Message, reason: String) -> String {
        var json = JSONObjectWriter()
        json.field("id", message.id)
        json.field("file", message.file)
        json.field("offset", message.offset)
        json.field("channel", message.channel.rawValue)
        json.field("sender", message.sender)
        json.field("subject", message.subject)
        json.field("received_at", message.receivedAt.map(timestamp))
        json.field("reason", reason)
        json.field("text", CardNumberMasker.mask(message.text))
        return json.finish() + "\n"
    }

    /// Ledger,Category,Subcategory,Currency,Price,Account,Recorder,Date,Time,Note,Transaction.
    /// Price is signed: negative for debits. Recorder is Auto for email, SMS for SMS.
    public func csvLine(_ t: Transaction) -> String {
        let price: String = {
            guard let amount = t.amountText else { return "" }
            return t.direction == .debit ? "-" + amount : amount
        }()
        let recorder: String = switch t.messageChannel {
        case .email: "Auto"
        case .sms: "SMS"
        case .push, .unknown: "Import"
        }
        let account = t.account.map { "\(t.bank) \($0.type) \($0.last4)" } ?? t.bank
        let fields = [t.bank, t.category ?? "", t.subcategory ?? "", t.currency ?? "", price, account, recorder,
                      t.date?.description ?? "", t.time?.description ?? "", t.merchant ?? "",
                      t.direction == .credit ? "Income" : "Expense"]
        return fields.map(Self.csvField).joined(separator: ",") + "\n"
    }

    /// The column names of the full CSV format: the JSON record flattened.
    public static let csvFullColumns = [
        "source_id", "source_kind", "sender", "received_at", "file", "offset", "rule", "bank", "direction", "kind",
        "amount", "currency", "date", "time", "merchant", "account_type", "last4", "balance", "reference", "channel",
        "category", "subcategory", "confidence", "status", "idempotency_key", "duplicate_of",
    ]

    /// Every field, in `csvFullColumns` order; empty cells for absent values.
    public func csvFullLine(_ t: Transaction) -> String {
        let fields: [String?] = [
            t.messageID, t.messageChannel.rawValue, t.sender, t.receivedAt.map(Self.timestamp), t.file,
            t.offset.map(String.init), t.rule, t.bank, t.direction?.rawValue, t.kind?.rawValue, t.amountText,
            t.currency, t.date?.description, t.time?.description, t.merchant, t.account?.type, t.account?.last4,
            t.balance, t.reference, t.channel, t.category, t.subcategory, Self.twoDecimals(t.confidence),
            t.status.rawValue, t.idempotencyKey, t.duplicateOf,
        ]
        return fields.map { Self.csvField($0 ?? "") }.joined(separator: ",") + "\n"
    }

    /// A score in 0...1 with two decimals ("0.95"); String(format:) costs microseconds.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((min(max(value, 0), 1) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}

/// Fixed-width columns for `--format table`.
enum TableLayout {
    static let columns: [(title: String, width: Int)] = [
        ("DATE", 10), ("TIME", 8), ("BANK", 10), ("DIR", 6), ("AMOUNT", 12), ("CUR", 3),
        ("ACCOUNT", 12), ("MERCHANT", 30), ("RULE", 0),
    ]

    static var header: String { line(columns.map(\.title)) }

    static func row(_ t: Transaction) -> String {
        line([t.date?.description ?? "-", t.time?.description ?? "-", t.bank, t.direction?.rawValue ?? "-",
              t.amountText ?? "-", t.currency ?? "-",
              t.account.map { "\($0.type) \($0.last4)" } ?? "-", t.merchant ?? "-", t.rule])
    }

    private static func line(_ cells: [String]) -> String {
        var out = ""
        for (index, cell) in cells.enumerated() {
            let width = columns[index].width
            var text = cell
            if width > 0 {
                if text.count > width { text = String(text.prefix(width - 1)) + "…" }
                // Right-align amounts.
                let pad = String(repeating: " ", count: width - text.count)
                text = index == 4 ? pad + text : text + pad
                out += text + "  "
            } else {
                out += text
            }
        }
        while out.last == " " { out.removeLast() }
        return out + "\n"
    }
}

/// Writes one JSON object with keys in a fixed order, into a byte buffer.
/// Hand-written: JSONEncoder cannot keep a key order, and appending to a `String`
/// scalar by scalar cost a quarter of a whole parse in profiles.
struct JSONObjectWriter {
    private var out: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    init() {
        out.reserveCapacity(640)
    }

    private mutating func key(_ name: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { Self.appendString(value, to: &out) } else { appendNull() }
    }

    mutating func field(_ name: StaticString, _ value: Int?) {
        key(name)
        if let value { out.append(contentsOf: String(value).utf8) } else { appendNull() }
    }

    mutating func raw(_ name: StaticString, _ literal: String) {
        key(name)
        out.append(contentsOf: literal.utf8)
    }

    mutating func object(_ name: StaticString, _ build: (inout JSONObjectWriter) -> Void) {
        key(name)
        var inner = JSONObjectWriter()
        build(&inner)
        inner.out.append(UInt8(ascii: "}"))
        out.append(contentsOf: inner.out)
    }

    private mutating func appendNull() {
        out.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    func finish() -> String {
        var bytes = out
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control
    /// characters; other bytes (UTF-8 included) are copied as they are.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\n"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xf)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
