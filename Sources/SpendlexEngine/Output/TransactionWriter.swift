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

    /// Appends one transaction, ending with a newline, to a batch's output bytes: JSON
    /// lines are written straight into the buffer, without a `String` per row.
    package func appendRow(_ transaction: Transaction, to out: inout [UInt8]) {
        switch format {
        case .jsonl: appendJSONLine(transaction, to: &out)
        default: out.append(contentsOf: row(transaction).utf8)
        }
    }

    /// The ARCHITECTURE.md record as one JSON line; amounts are decimal strings.
    public func jsonLine(_ t: Transaction) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(640)
        appendJSONLine(t, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `jsonLine`, appended to `out`.
    func appendJSONLine(_ t: Transaction, to out: inout [UInt8]) {
        // The row is built on the stack: a heap buffer per row cost a malloc and a free.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
            appendJSONLine(t, to: &out, scratch: scratch)
        }
        out.append(UInt8(ascii: "\n"))
    }

    private func appendJSONLine(_ t: Transaction, to out: inout [UInt8], scratch: UnsafeMutableBufferPointer<UInt8>) {
        var json = JSONObjectWriter(scratch: scratch)
        json.object("source") { source in
            source.field("id", t.messageID)
            source.field("kind", t.messageChannel.rawValue)
            source.field("sender", t.sender)
            source.timestampField("received_at", t.receivedAt)
            source.field("file", t.file)
            source.field("offset", t.offset)
        }
        json.field("rule", t.rule)
        json.field("bank", t.bank)
        json.field("direction", t.direction?.rawValue)
        json.field("kind", t.kind?.rawValue)
        json.field("amount", t.amountText)
        json.field("currency", t.currency)
        json.field("date", t.date)
        json.field("time", t.time)
        json.field("merchant", t.merchant)
        json.field("merchant_raw", t.merchantRaw)
        if let account = t.account {
            json.object("account") { object in
                object.field("type", account.type)
                object.field("last4", account.last4)
                // A card's kind (null: not known); an account has none.
                if account.type == "card" { object.field("card_kind", account.cardKind?.rawValue) }
            }
        } else {
            json.field("account", nil as String?)
        }
        json.field("balance", t.balance)
        json.field("reference", t.reference)
        json.field("channel", t.channel)
        json.field("category", t.category)
        json.field("subcategory", t.subcategory)
        json.twoDecimalsField("confidence", t.confidence)
        json.field("status", t.status.rawValue)
        json.field("idempotency_key", t.idempotencyKey)
        json.field("duplicate_of", t.duplicateOf)
        json.finish(into: &out)
    }

    /// A message's accounting record as one JSON line (`spendlex parse --accounting`, the filter a
    /// distributed job runs): how the message ended and why, its transaction when it made one (the
    /// object `jsonLine` writes), and the transaction's duplicate keys, so that duplicates can be
    /// linked downstream as the ledger links them.
    public func appendAccountingLine(_ record: MessageRecord, keys: DuplicateKeys?, to out: inout [UInt8]) {
        var transaction: [UInt8]?
        if let t = record.transaction {
            var line: [UInt8] = []
            appendJSONLine(t, to: &line)
            line.removeLast()
            transaction = line
        }
        var json = JSONObjectWriter()
        json.object("message") { message in
            message.field("id", record.id)
            message.field("file", record.file)
            message.field("offset", record.offset)
            message.field("channel", record.channel.rawValue)
            message.field("sender", record.sender)
            message.timestampField("received_at", record.receivedAt)
            message.field("status", record.status.rawValue)
            message.field("rule", record.rule)
            message.field("reason", record.reason.map(CardNumberMasker.mask))
        }
        json.rawField("transaction", transaction)
        if let keys {
            json.object("duplicate_keys") { object in
                object.field("content", keys.content)
                object.field("amount", keys.amount)
                object.field("field_count", keys.fieldCount)
            }
        } else {
            json.rawField("duplicate_keys", nil)
        }
        json.finish(into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// A message no parser covered, as one JSON line for rule authors: where it is, who
    /// sent it, why it is reported, and its text (card numbers masked).
    public static func unmatchedLine(_ message: Message, reason: String) -> String {
        var out: [UInt8] = []
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
        json.finish(into: &out)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
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
        case .push, .unknown, .statement: "Import"
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
        "amount", "currency", "date", "time", "merchant", "account_type", "last4", "card_kind", "balance", "reference",
        "channel", "category", "subcategory", "confidence", "status", "idempotency_key", "duplicate_of",
    ]

    /// Every field, in `csvFullColumns` order; empty cells for absent values.
    public func csvFullLine(_ t: Transaction) -> String {
        let fields: [String?] = [
            t.messageID, t.messageChannel.rawValue, t.sender, t.receivedAt.map(Self.timestamp), t.file,
            t.offset.map(String.init), t.rule, t.bank, t.direction?.rawValue, t.kind?.rawValue, t.amountText,
            t.currency, t.date?.description, t.time?.description, t.merchant, t.account?.type, t.account?.last4,
            t.account?.cardKind?.rawValue, t.balance, t.reference, t.channel, t.category, t.subcategory, Self.twoDecimals(t.confidence),
            t.status.rawValue, t.idempotencyKey, t.duplicateOf,
        ]
        return fields.map { Self.csvField($0 ?? "") }.joined(separator: ",") + "\n"
    }

    /// A score in 0...1 with two decimals ("0.95"); String(format:) costs microseconds.
    static func twoDecimals(_ value: Double) -> String {
        withTwoDecimalsBytes(value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `twoDecimals(value)` as UTF-8 bytes on the stack.
    static func withTwoDecimalsBytes<R>(_ value: Double, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let hundredths = Int((min(max(value, 0), 1) * 100).rounded())
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            buffer[0] = UInt8(ascii: "0") + UInt8(hundredths / 100)
            buffer[1] = UInt8(ascii: ".")
            buffer[2] = UInt8(ascii: "0") + UInt8(hundredths / 10 % 10)
            buffer[3] = UInt8(ascii: "0") + UInt8(hundredths % 10)
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// One CSV cell: quoted when it holds a comma, a quote or a line break; a text cell that
    /// a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
    /// carriage return: OWASP's CSV injection rule) gets a leading `'`, so that a merchant
    /// named `=HYPERLINK(…)` is shown, not run. A number ("-250.00") stays a number.
    public static func csvField(_ text: String) -> String {
        var cell = text
        if let first = text.utf8.first, formulaStarts.contains(first), !isPlainNumber(text) { cell = "'" + text }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"),
                                                     UInt8(ascii: "@"), 0x09, 0x0D]

    /// An optional sign, then digits with `.` or `,` marks ("-1,234.00", "-1.234,56"): a
    /// figure, which no spreadsheet runs as a formula.
    private static func isPlainNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, first >= 0x30 && first <= 0x39 else { return false }
        return bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }
    }

    /// ISO 8601 in UTC, whole seconds: "2024-09-05T07:53:23Z", as every output writes times.
    public static func timestamp(_ date: Date) -> String {
        withTimestampBytes(date) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `timestamp(date)` as UTF-8 bytes. Whole seconds from 1970 to 9999
    /// (every date an email header gives) are formatted by arithmetic, on the stack: a format
    /// style per row cost more than the rest of the row. Anything else (fractions, earlier
    /// dates, where the calendar turns Julian) goes through Foundation, so the text is the
    /// same either way.
    static func withTimestampBytes<R>(_ date: Date, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let interval = date.timeIntervalSince1970
        let seconds = interval >= 0 && interval < 253_402_300_800 && interval.rounded(.down) == interval
            ? Int(interval) : -1
        guard seconds >= 0, let day = LocalDate(daysSinceEpoch: seconds / 86_400),
              let time = LocalTime(hour: seconds % 86_400 / 3600, minute: seconds % 3600 / 60, second: seconds % 60)
        else {
            var text = date.formatted(Date.ISO8601FormatStyle())
            return text.withUTF8(body)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            day.withISOBytes { _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<10]).initialize(from: $0) }
            buffer[10] = UInt8(ascii: "T")
            time.withISOBytes { _ = UnsafeMutableBufferPointer(rebasing: buffer[11..<19]).initialize(from: $0) }
            buffer[19] = UInt8(ascii: "Z")
            return body(UnsafeBufferPointer(buffer))
        }
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
///
/// The object is built in a `ByteWriter` (a pointer, not an array: a row is some hundred
/// small appends, and each `[UInt8].append` checks uniqueness and capacity) and appended to
/// the caller's buffer in one copy by `finish(into:)`.
struct JSONObjectWriter {
    private var out: ByteWriter
    private var first = true

    /// An object built on the heap.
    init() {
        self.init(out: ByteWriter(capacity: 1024))
    }

    /// An object built in the caller's `scratch` space, and on the heap only if it outgrows it.
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        self.init(out: ByteWriter(scratch: scratch))
    }

    private init(out: ByteWriter) {
        self.out = out
        self.out.append(UInt8(ascii: "{"))
    }

    /// Closes the object, appends it to `buffer` and frees the writer's memory.
    consuming func finish(into buffer: inout [UInt8]) {
        out.append(UInt8(ascii: "}"))
        buffer.append(contentsOf: out.bytes)
        out.deallocate()
    }

    /// `,"name":` (no comma before the first key), written in one reservation.
    private mutating func key(_ name: StaticString) {
        let comma = first ? 0 : 1
        first = false
        let length = name.utf8CodeUnitCount
        out.write(count: comma &+ length &+ 3) { buffer in
            let at = UnsafeMutableRawPointer(buffer.baseAddress!)
            at.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
            at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: comma, as: UInt8.self)
            Self.copyShort(from: name.utf8Start, count: length, to: at + comma + 1)
            at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: comma + 1 + length, as: UInt8.self)
            at.storeBytes(of: UInt8(ascii: ":"), toByteOffset: comma + 2 + length, as: UInt8.self)
        }
    }

    /// Copies `count` bytes with two overlapping loads and stores of 8, 4 or 1 bytes each:
    /// key names are short, and a call to memcpy or a byte loop cost more than the rest of a key.
    @inline(__always)
    private static func copyShort(from source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutableRawPointer) {
        let from = UnsafeRawPointer(source)
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                target.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                                  toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            target.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self),
                              toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            target.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            target.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self),
                              toByteOffset: count - 4, as: UInt32.self)
        } else {
            for offset in 0..<count {
                target.storeBytes(of: source[offset], toByteOffset: offset, as: UInt8.self)
            }
        }
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { Self.appendString(value, to: &out) } else { appendNull() }
    }

    mutating func field(_ name: StaticString, _ value: Int?) {
        key(name)
        guard let value else { return appendNull() }
        guard value >= 0 else { return out.append(contentsOf: String(value)) }
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        out.write(count: digits) { buffer in
            var rest = value
            for index in buffer.indices.reversed() {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
    }

    /// A date as an ISO 8601 string, or null.
    mutating func field(_ name: StaticString, _ value: LocalDate?) {
        key(name)
        guard let value else { return appendNull() }
        out.append(UInt8(ascii: "\""))
        value.withISOBytes { out.append($0) }
        out.append(UInt8(ascii: "\""))
    }

    /// A time as "HH:mm:ss" or "HH:mm", or null.
    mutating func field(_ name: StaticString, _ value: LocalTime?) {
        key(name)
        guard let value else { return appendNull() }
        out.append(UInt8(ascii: "\""))
        value.withISOBytes { out.append($0) }
        out.append(UInt8(ascii: "\""))
    }

    /// An instant as an ISO 8601 string in UTC, or null.
    mutating func timestampField(_ name: StaticString, _ value: Date?) {
        key(name)
        guard let value else { return appendNull() }
        out.append(UInt8(ascii: "\""))
        TransactionWriter.withTimestampBytes(value) { out.append($0) }
        out.append(UInt8(ascii: "\""))
    }

    /// A number in 0...1 with two decimals, unquoted.
    mutating func twoDecimalsField(_ name: StaticString, _ value: Double) {
        key(name)
        TransactionWriter.withTwoDecimalsBytes(value) { out.append($0) }
    }

    mutating func object(_ name: StaticString, _ build: (inout JSONObjectWriter) -> Void) {
        key(name)
        out.append(UInt8(ascii: "{"))
        first = true
        build(&self)
        out.append(UInt8(ascii: "}"))
        first = false
    }

    private mutating func appendNull() {
        out.append(contentsOf: "null")
    }

    /// `"name":` then `json`, a JSON value written already (an object, or null when nil).
    mutating func rawField(_ name: StaticString, _ json: [UInt8]?) {
        key(name)
        guard let json else { return appendNull() }
        json.withUnsafeBufferPointer { out.append($0) }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control
    /// characters; other bytes (UTF-8 included) are copied as they are, a run at a time.
    static func appendString(_ text: String, to out: inout ByteWriter) {
        text.withUTF8Bytes { bytes in
            guard let escape = firstByteToEscape(bytes) else {
                // The usual case: the text as it is, between quotes.
                out.write(count: bytes.count + 2) { buffer in
                    buffer[0] = UInt8(ascii: "\"")
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(from: bytes)
                    buffer[bytes.count + 1] = UInt8(ascii: "\"")
                }
                return
            }
            out.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in escape..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                default:
                    let hex = hexDigits.utf8Start
                    out.append(contentsOf: "u00")
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xf)])
                }
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            out.append(UInt8(ascii: "\""))
        }
    }

    /// The index of the first byte JSON needs escaped (a control character, `"` or `\`), or nil.
    /// Eight bytes at a time: most strings have none, and this runs for every field of every row.
    @inline(__always)
    static func firstByteToEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // The classic "has a byte less than n" and "has a zero byte" tests: exact as a
                // whole, and bytes >= 0x80 (UTF-8) never set them.
                let control = (word &- ones &* 0x20) & ~word
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let found = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highBits
                if found != 0 { break }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }
}

/// A growable byte buffer written through a pointer: an append is a capacity check and a
/// store (or a `memcpy`), where `[UInt8].append` also checks uniqueness each time. The owner
/// frees it with `deallocate()`.
struct ByteWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// Whether `base` was allocated here, rather than being the caller's scratch space.
    private var ownsBase: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        ownsBase = true
    }

    /// A writer that starts in `scratch` (on the caller's stack, say) and moves to the heap
    /// only if it outgrows it.
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        precondition(scratch.count > 0, "scratch space must not be empty")
        base = scratch.baseAddress!
        capacity = scratch.count
        ownsBase = false
    }

    func deallocate() {
        if ownsBase { base.deallocate() }
    }

    /// The bytes written so far; valid until the next append or `deallocate()`.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsBase { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBase = true
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(contentsOf literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func append(contentsOf text: String) {
        text.withUTF8Bytes { append($0) }
    }

    /// Appends `count` bytes that `body` fills in.
    @inline(__always)
    mutating func write(count extra: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        reserve(extra)
        body(UnsafeMutableBufferPointer(start: base + count, count: extra))
        count += extra
    }
}
