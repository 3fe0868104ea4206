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
        json.raw("confidence", String(format: "%.2f", t.confidence))
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
            t.balance, t.reference, t.channel, t.category, t.subcategory, String(format: "%.2f", t.confidence),
            t.status.rawValue, t.idempotencyKey, t.duplicateOf,
        ]
        return fields.map { Self.csvField($0 ?? "") }.joined(separator: ",") + "\n"
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

/// Writes one flat JSON object with keys in a fixed order. Hand-written because
/// JSONEncoder cannot keep a key order and costs an allocation per value.
struct JSONObjectWriter {
    private var out = "{"
    private var first = true

    private mutating func key(_ name: String) {
        if !first { out += "," }
        first = false
        out += "\"" + name + "\":"
    }

    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { Self.appendString(value, to: &out) } else { out += "null" }
    }

    mutating func field(_ name: String, _ value: Int?) {
        key(name)
        out += value.map(String.init) ?? "null"
    }

    mutating func raw(_ name: String, _ literal: String) {
        key(name)
        out += literal
    }

    mutating func object(_ name: String, _ build: (inout JSONObjectWriter) -> Void) {
        key(name)
        var inner = JSONObjectWriter()
        build(&inner)
        out += inner.finish()
    }

    func finish() -> String { out + "}" }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
