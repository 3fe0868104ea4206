import Foundation
import SpendlexEngine

/// Reads Quicken Interchange Format files: `!Type:Bank`, `Cash`, `CCard` (a card account),
/// `Oth A`, `Oth L` sections, records ended by `^`, with `D` date, `T`/`U` amount (signed),
/// `P` payee, `M` memo, `N` number. Investment and list sections (`!Type:Invst`, `!Type:Cat`)
/// are skipped, and said.
///
/// QIF writes dates in the exporter's locale ("12/31/2026", "31/12/2026", "12/31'26"): the order
/// is read from the file's own dates (a first part above 12 is a day), then from `--country`,
/// then taken as month first, as Quicken writes it where QIF comes from.
enum QIFStatementReader {
    static func read(_ text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        var statement = Statement(format: .qif)
        let lines = StatementReader.lines(text)
        var readable = true
        var accountType = options.accountType
        var fields: [Character: String] = [:]
        var recordLine = 0
        var records: [(line: Int, fields: [Character: String], accountType: String)] = []
        for (offset, raw) in lines.enumerated() {
            let number = offset + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("!") {
                let header = line.lowercased()
                if header.hasPrefix("!type:") {
                    let type = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
                    readable = ["bank", "cash", "ccard", "oth a", "oth l"].contains(type)
                    accountType = type == "ccard" ? "card" : options.accountType
                    if !readable { statement.skipped.append("\(path):\(number): skipped: a `\(line)` section (not bank or card transactions)") }
                }
                continue
            }
            guard readable else { continue }
            if line == "^" {
                if !fields.isEmpty { records.append((recordLine, fields, accountType)) }
                fields = [:]
                continue
            }
            if fields.isEmpty { recordLine = number }
            let code = line.first!
            // The first of a code wins (split lines `S`/`$` of a split transaction repeat them).
            if fields[code] == nil { fields[code] = String(line.dropFirst()) }
        }
        if !fields.isEmpty {
            statement.skipped.append("\(path):\(recordLine): the last record has no closing `^` (truncated?); read as it is")
            records.append((recordLine, fields, accountType))
        }
        let order = dateOrder(records.compactMap { $0.fields["D"] }, country: options.country)
        let currency = options.localCurrency
        for record in records {
            let amount = record.fields["T"] ?? record.fields["U"]
            guard let amount, let date = record.fields["D"] else {
                statement.skipped.append("\(path):\(record.line): skipped: a record without \(amount == nil ? "an amount (T)" : "a date (D)")")
                continue
            }
            statement.entries.append(StatementEntry(
                id: StatementReader.entryID(format: .qif, account: nil, ownID: nil, path: path, line: record.line),
                format: StatementFormat.qif.rawValue, file: path, line: record.line, bank: options.bank ?? "statement",
                account: nil, accountType: record.accountType, date: normalizedDate(date), dateOrder: order,
                amount: amount, currency: currency, payee: record.fields["P"], description: record.fields["M"],
                reference: record.fields["N"]))
        }
        return statement
    }

    /// "12/31'26" and "1/ 5/2026" as "12/31/26" and "1/5/2026".
    static func normalizedDate(_ date: String) -> String {
        date.replacingOccurrences(of: "'", with: "/").replacingOccurrences(of: " ", with: "")
    }

    /// The order of the dates' parts, read from the dates themselves where one settles it.
    static func dateOrder(_ dates: [String], country: String?) -> DateOrder {
        dates.lazy.compactMap(decisiveDateOrder).first ?? country.map(DateOrder.forCountry) ?? .monthDayYear
    }

    /// The order a numeric date's parts must be in, when the date tells it (a part above 31 is a
    /// year, above 12 a day); nil when it does not.
    static func decisiveDateOrder(_ date: String) -> DateOrder? {
        let parts = normalizedDate(date).split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        if parts[0] > 31 { return .yearMonthDay }
        if parts[0] > 12 { return .dayMonthYear }
        if parts[1] > 12 { return .monthDayYear }
        return nil
    }
}
