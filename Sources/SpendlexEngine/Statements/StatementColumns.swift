import Foundation
import SpendlexRules

/// Which column of a CSV statement holds what, and how its values read: from a statement
/// profile and its header row, or from a header whose cells name their columns plainly. Turns
/// each row into a `StatementEntry`, or says why the row is none.
public struct StatementColumns: Sendable {
    /// The 0-based index of each column there is.
    public var indices: [StatementProfile.Column: Int]
    /// How many cells the header has.
    public var width: Int
    /// The date's layout, nil to detect it.
    public var dateFormat: String?
    /// The order of a detected numeric date's parts.
    public var dateOrder: DateOrder
    /// The amounts' decimal mark.
    public var decimalMark: AmountNormalizer.DecimalMark
    /// Whether a positive amount in the one amount column is money out.
    public var positiveIsDebit: Bool

    /// Columns by index.
    public init(indices: [StatementProfile.Column: Int], width: Int, dateFormat: String? = nil,
                dateOrder: DateOrder = .dayMonthYear, decimalMark: AmountNormalizer.DecimalMark = .auto,
                positiveIsDebit: Bool = false) {
        self.indices = indices
        self.width = width
        self.dateFormat = dateFormat
        self.dateOrder = dateOrder
        self.decimalMark = decimalMark
        self.positiveIsDebit = positiveIsDebit
    }

    /// A profile's columns found in `header` (cells compared trimmed); nil when a column it names
    /// is not there.
    public init?(profile: StatementProfile, header: [String]) {
        let cells = header.map(NormalizingText.trimmed)
        var indices: [StatementProfile.Column: Int] = [:]
        for (column, name) in profile.columns {
            guard let index = cells.firstIndex(of: name.value) else { return nil }
            indices[column] = index
        }
        let mark: AmountNormalizer.DecimalMark = switch profile.decimal {
        case "point": .point
        case "comma": .comma
        default: .auto
        }
        self.init(indices: indices, width: header.count, dateFormat: profile.dateFormat?.value,
                  dateOrder: DateOrder.forCountry(profile.country), decimalMark: mark,
                  positiveIsDebit: profile.sign == .positiveIsDebit)
    }

    /// What a row is.
    public enum Row: Sendable, Equatable {
        /// A transaction's entry.
        case entry(StatementEntry)
        /// No transaction: why (a total, no date, no amount, a short row, an error cell).
        case skipped(String)
        /// Nothing in it.
        case blank
    }

    /// The row of `cells` as an entry. `id`, `file`, `line`, `bank`, `account`, `accountType`:
    /// as the entry takes them; `currency`: the statement's when the row names none.
    public func row(_ cells: [String], format: String = "csv", id: String, file: String?, line: Int, bank: String,
                    account: String?, accountType: String, currency: String?) -> Row {
        // Trimmed by `NormalizingText.trimmed`: Foundation's `trimmingCharacters(in:)` goes through
        // NSString, and was a third of importing a million-row CSV.
        let cells = cells.map(NormalizingText.trimmed)
        func cell(_ column: StatementProfile.Column) -> String? {
            guard let index = indices[column], cells.indices.contains(index) else { return nil }
            let value = cells[index]
            return value.isEmpty ? nil : value
        }
        if cells.allSatisfy(\.isEmpty) { return .blank }
        if let error = cells.first(where: { $0.first == "#" && Self.spreadsheetErrors.contains($0) }) {
            return .skipped("a spreadsheet error cell \(error)")
        }
        guard let date = cell(.date), date.contains(where: \.isNumber) else {
            let what = cells.first { !$0.isEmpty } ?? ""
            return .skipped("no date (\(what.prefix(40)))")
        }
        let amountColumns = [indices[.amount], indices[.debit], indices[.credit]].compactMap { $0 }
        if cells.count < width, let last = amountColumns.max(), last >= cells.count {
            return .skipped("\(cells.count) fields where the header has \(width)")
        }
        let amount: String
        var direction: Direction?
        if let value = cell(.amount) {
            amount = value
            if positiveIsDebit {
                // Charges positive, payments negative (or marked "CR", as card statements mark
                // them): the sign says the opposite of the usual.
                let negative = value.hasPrefix("-") || value.hasSuffix("-") || value.hasPrefix("(")
                    || Self.isMarkedCredit(value)
                direction = negative ? .credit : .debit
            }
        } else if let debit = cell(.debit), !Self.isZero(debit) {
            amount = debit
            direction = .debit
        } else if let credit = cell(.credit), !Self.isZero(credit) {
            amount = credit
            direction = .credit
        } else {
            return .skipped("no amount")
        }
        let description = cell(.description)
        if let description, Self.isSummary(description), cell(.reference) == nil {
            return .skipped("a summary row (\(description.prefix(40)))")
        }
        return .entry(StatementEntry(
            id: id, format: format, file: file, line: line, bank: bank, account: account, accountType: accountType,
            date: date, dateFormat: dateFormat, dateOrder: dateOrder, amount: amount, decimalMark: decimalMark,
            direction: direction, currency: cell(.currency) ?? currency, payee: cell(.payee), description: description,
            reference: cell(.reference), balance: cell(.balance)))
    }

    /// A line's fields at `delimiter`, quotes respected (`"a, b"` is one field, `""` a quote):
    /// for one-line example rows and sniffing a file's first lines.
    public static func split(_ line: String, _ delimiter: Character) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var justClosed = false
        for character in line {
            if character == "\"" {
                if quoted {
                    quoted = false
                    justClosed = true
                } else if justClosed {
                    // `""` inside quotes: a quote.
                    field.append("\"")
                    quoted = true
                    justClosed = false
                } else {
                    quoted = true
                }
                continue
            }
            justClosed = false
            if character == delimiter && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields.map(NormalizingText.trimmed)
    }

    /// A cell without its surrounding spaces (without Foundation's NSString path).
    public static func trimmed(_ cell: String) -> String { NormalizingText.trimmed(cell) }

    static let spreadsheetErrors: Set<String> = ["#VALUE!", "#REF!", "#N/A", "#DIV/0!", "#NAME?", "#NUM!", "#NULL!"]

    /// Whether an amount ends with a credit mark: "1,250.00 CR", "300.00Cr".
    public static func isMarkedCredit(_ value: String) -> Bool {
        let letters = value.utf8.reversed().prefix { $0 != 0x20 && !($0 &- 0x30 < 10) }
        return letters.count == 2 && String(decoding: letters.reversed(), as: UTF8.self).lowercased() == "cr"
    }

    /// "0", "0.00", "-", "": no money in a debit or credit column.
    static func isZero(_ value: String) -> Bool {
        !value.contains { $0.isNumber && $0 != "0" }
    }

    /// A row that sums up rather than records: totals and balances carried.
    static func isSummary(_ description: String) -> Bool {
        // Most descriptions start with none of these words' letters, or are too long for them.
        guard let first = description.unicodeScalars.first, "tTgGcCoObBsSaAeE".unicodeScalars.contains(first),
              description.utf8.count < 64 else { return false }
        // Read from the bytes: lower-casing and splitting each description into words was a
        // twelfth of importing a large statement.
        return description.withUTF8Bytes { bytes in summaryWords.contains { Self.startsWithWords($0, bytes) } }
    }

    /// What a summary row's description is, or starts with as whole words.
    private static let summaryWords: [[UInt8]] = [
        "total", "totals", "grand total", "closing balance", "opening balance", "balance brought forward",
        "balance carried forward", "saldo inicial", "saldo final", "solde initial", "solde final", "anfangssaldo",
        "endsaldo", "summe",
    ].map { Array($0.utf8) }

    /// Whether `bytes`, read as words (runs of letters, ASCII case ignored; every other byte
    /// apart from letters of other scripts a separator), start with the words of `phrase` (ASCII,
    /// one space between words) and then end or go on with another word.
    static func startsWithWords(_ phrase: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 || byte >= 0x80 }
        var index = 0
        while index < bytes.count, !isLetter(bytes[index]) { index += 1 }
        for want in phrase {
            if want == 0x20 {
                // A run of separators between words.
                guard index < bytes.count, !isLetter(bytes[index]) else { return false }
                while index < bytes.count, !isLetter(bytes[index]) { index += 1 }
                continue
            }
            guard index < bytes.count, bytes[index] | 0x20 == want else { return false }
            index += 1
        }
        return index == bytes.count || !isLetter(bytes[index])
    }
}
