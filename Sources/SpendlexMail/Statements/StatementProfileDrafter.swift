import CSV
import Foundation
import SpendlexEngine
import SpendlexRules

/// Drafts a statement profile for a CSV whose header does not name its columns plainly: the
/// header found as the row above the first rows with a date column, each column's role read
/// from its values (dates; amounts; two amount columns never filled together as debit and
/// credit; the column that changes by each row's amount as the balance, which also tells the
/// debits from the credits; the longest text as the description; distinct digit-bearing codes
/// as the reference), the date's layout and the decimal mark from the values, and the first
/// rows as examples with what they read as.
public enum StatementProfileDrafter {
    /// A drafted profile.
    public struct Draft: Sendable {
        /// The profile's id.
        public var id: String
        /// The profile file's text.
        public var yaml: String
        /// What was guessed and how sure it is, one line each.
        public var notes: [String]
    }

    /// Drafts a profile for the CSV at `path`; `bank` and `country` go into it.
    public static func draft(path: String, bank: String?, country: String?, worker: RuleEngine.Worker) throws(StatementError) -> Draft {
        let bytes: [UInt8]
        switch InputFile.readWhole(path, limit: StatementReader.maxBytes) {
        case .success(let read): bytes = read
        case .failure(let error): throw StatementError(path: path, reason: "\(error)")
        }
        guard let text = StatementReader.decode(bytes) else { throw StatementError(path: path, reason: "not text") }
        let lines = StatementReader.lines(String(text.prefix(64 << 10))).prefix(30).map(String.init)
        guard let delimiter = CSVStatementReader.delimiter(of: lines) else {
            throw StatementError(path: path, reason: "no delimiter (`,` `;` tab `|`) the first lines agree on")
        }
        var rows: [[String]] = []
        do {
            let reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: false, delimiter: delimiter)
            while let row = reader.next(), rows.count < 300 { rows.append(row.map(StatementColumns.trimmed)) }
        } catch {
            throw StatementError(path: path, reason: "CSV that cannot be read: \(error)")
        }
        // The header: the last row before the first run of rows with a date column.
        guard let (headerIndex, dateColumn) = header(in: rows) else {
            throw StatementError(path: path, reason: "no header row above rows with a date column")
        }
        let header = rows[headerIndex]
        let body = Array(rows[(headerIndex + 1)...].prefix { !$0.allSatisfy(\.isEmpty) })
        let mark = CSVStatementReader.decimalMark(body.flatMap { row in row.indices.filter { $0 != dateColumn }.map { row[$0] } })
        let normalizer = AmountNormalizer(decimalMark: mark)
        func number(_ text: String) -> Decimal? {
            guard !text.isEmpty, text.contains(where: \.isNumber), !text.contains(where: { $0.isLetter && !"CRDcrd".contains($0) }),
                  let parsed = try? normalizer.normalize(text) else { return nil }
            return parsed.sign == .negative || parsed.sign == .debit ? -parsed.value : parsed.value
        }
        func cells(_ column: Int) -> [String] { body.map { $0.indices.contains(column) ? $0[column] : "" } }
        let numeric = header.indices.filter { column in
            column != dateColumn && {
                let filled = cells(column).filter { !$0.isEmpty }
                return !filled.isEmpty && filled.filter { number($0) != nil }.count * 10 >= filled.count * 9
            }()
        }
        var notes: [String] = []
        var columns: [StatementProfile.Column: Int] = [.date: dateColumn]
        var sign: StatementProfile.Sign = .negativeIsDebit
        // Movements by row, from one signed column or a (debit, credit) pair.
        func movements(amount: Int) -> [Decimal?] { cells(amount).map { number($0) } }
        func movements(debit: Int, credit: Int) -> [Decimal?] {
            zip(cells(debit), cells(credit)).map { d, c in
                if let d = number(d), d != 0 { return -abs(d) }
                if let c = number(c), c != 0 { return abs(c) }
                return nil
            }
        }
        /// How many consecutive rows a balance column follows with these movements (either order).
        func follows(_ balance: Int, _ moves: [Decimal?]) -> Int {
            let balances = cells(balance).map { number($0) }
            var forward = 0, backward = 0
            for index in 1..<max(balances.count, 1) {
                guard let previous = balances[index - 1], let current = balances[index] else { continue }
                if let move = moves[index], previous + move == current { forward += 1 }
                if let move = moves[index - 1], current + move == previous { backward += 1 }
            }
            return max(forward, backward)
        }
        let pairs = numeric.flatMap { a in numeric.filter { $0 > a }.map { (a, $0) } }.filter { a, b in
            zip(cells(a), cells(b)).allSatisfy { x, y in (number(x) ?? 0) == 0 || (number(y) ?? 0) == 0 }
                && cells(a).contains { (number($0) ?? 0) != 0 } && cells(b).contains { (number($0) ?? 0) != 0 }
        }
        var best: (score: Int, assign: [StatementProfile.Column: Int], sign: StatementProfile.Sign)?
        for (a, b) in pairs {
            for balance in numeric where balance != a && balance != b {
                let asDebitCredit = follows(balance, movements(debit: a, credit: b))
                let asCreditDebit = follows(balance, movements(debit: b, credit: a))
                let (score, debit, credit) = asDebitCredit >= asCreditDebit ? (asDebitCredit, a, b) : (asCreditDebit, b, a)
                if score > (best?.score ?? 0) { best = (score, [.debit: debit, .credit: credit, .balance: balance], .negativeIsDebit) }
            }
        }
        for amount in numeric where !pairs.contains(where: { $0.0 == amount || $0.1 == amount }) {
            for balance in numeric where balance != amount {
                let moves = movements(amount: amount)
                let usual = follows(balance, moves)
                let flipped = follows(balance, moves.map { $0.map { -$0 } })
                let score = max(usual, flipped)
                if score > (best?.score ?? 0) {
                    best = (score, [.amount: amount, .balance: balance], flipped > usual ? .positiveIsDebit : .negativeIsDebit)
                }
            }
        }
        if let best, best.score * 2 >= max(body.count - 1, 1) {
            columns.merge(best.assign) { $1 }
            sign = best.sign
            notes.append("the balance column follows \(best.score) of \(max(body.count - 1, 0)) rows: it tells debits from credits")
        } else if let (a, b) = pairs.first {
            (columns[.debit], columns[.credit]) = (a, b)
            notes.append("no balance column to check by: '\(header[a])' taken as debits and '\(header[b])' as credits (left to right); check the examples")
        } else if let amount = numeric.first {
            columns[.amount] = amount
            notes.append("no balance column to check by: a negative '\(header[amount])' taken as a debit; check the examples")
        } else {
            throw StatementError(path: path, reason: "no column of amounts under the header")
        }
        // Text columns: the longest as the description; distinct codes with digits as the reference.
        let used = Set(columns.values)
        let textColumns = header.indices.filter { !used.contains($0) && !numeric.contains($0) }
        func averageLength(_ column: Int) -> Double {
            let filled = cells(column).filter { !$0.isEmpty }
            return filled.isEmpty ? 0 : Double(filled.map(\.count).reduce(0, +)) / Double(filled.count)
        }
        if let description = textColumns.filter({ cells($0).contains { $0.contains(where: \.isLetter) } }).max(by: { averageLength($0) < averageLength($1) }) {
            columns[.description] = description
        }
        if let reference = textColumns.first(where: { column in
            column != columns[.description] && {
                let filled = cells(column).filter { !$0.isEmpty }
                return filled.count * 2 >= body.count && Set(filled).count == filled.count
                    && filled.allSatisfy { $0.contains(where: \.isNumber) && !$0.contains(" ") }
            }()
        }) {
            columns[.reference] = reference
        }
        let dates = cells(dateColumn).filter { !$0.isEmpty }
        let order = QIFStatementReader.dateOrder(dates, country: country ?? "XX")
        let format = dateFormat(dates, order: order)
        if format == nil { notes.append("the date's layout is left to detection (\(order.rawValue) order)") }

        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.lowercased()
            .map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let id = (bank ?? "statement") + "." + stem
        var profile = StatementProfile(id: Located(id, at: SourceLocation(file: path, line: 1, column: 1)),
                                       location: SourceLocation(file: path, line: 1, column: 1))
        profile.country = country
        profile.delimiter = Character(delimiter)
        profile.sign = sign
        let resolved = StatementColumns(indices: columns, width: header.count, dateFormat: format, dateOrder: order,
                                        decimalMark: mark, positiveIsDebit: sign == .positiveIsDebit)
        // The examples: the first rows that read as transactions, with what they read as.
        var examples: [(row: String, expect: [(String, String)])] = []
        for (index, row) in body.enumerated() where examples.count < 3 {
            guard case .entry(let entry) = resolved.row(row, id: "draft\(index)", file: nil, line: index + 1, bank: bank ?? "statement",
                                                      account: nil, accountType: "account",
                                                      currency: country.flatMap(CurrencyNormalizer.defaultCode(forCountry:))),
                  let t = worker.read(entry).transaction, let date = t.date, let amount = t.amountText, let direction = t.direction
            else { continue }
            var expect = [("date", date.description), ("direction", direction.rawValue), ("amount", amount)]
            if let balance = t.balance { expect.append(("balance", balance)) }
            examples.append((joined(row, delimiter: Character(delimiter)), expect))
        }
        var yaml = "# Drafted by `spendlex suggest --statement \(path)`: check the columns and the examples.\n"
        for note in notes { yaml += "# \(note)\n" }
        yaml += "statement: \(id)\n"
        if let bank { yaml += "bank: \(bank)\n" }
        if let country { yaml += "country: \(country)\n" }
        if delimiter != "," { yaml += "delimiter: \(quoted(delimiter == "\t" ? "\\t" : String(delimiter)))\n" }
        yaml += "header: [\(header.map(quoted).joined(separator: ", "))]\n"
        yaml += "columns:\n"
        for column in StatementProfile.Column.allCases {
            if let index = columns[column] { yaml += "  \(column.rawValue): \(quoted(header[index]))\n" }
        }
        if let format { yaml += "date_format: \(quoted(format))\n" }
        if mark != .auto { yaml += "decimal: \(mark == .comma ? "comma" : "point")\n" }
        if sign == .positiveIsDebit { yaml += "sign: positive_is_debit\n" }
        if !examples.isEmpty {
            yaml += "examples:\n"
            for example in examples {
                yaml += "  - row: \(quoted(example.row))\n"
                yaml += "    expect: {\(example.expect.map { "\($0.0): \(quoted($0.1))" }.joined(separator: ", "))}\n"
            }
        }
        return Draft(id: id, yaml: yaml, notes: notes)
    }

    /// The header row and the date column: the row above the first three rows (or all, when
    /// fewer) that hold a date in one same column.
    static func header(in rows: [[String]]) -> (Int, Int)? {
        func isDate(_ text: String) -> Bool {
            guard text.contains(where: \.isNumber), text.count <= 30 else { return false }
            return [DateOrder.dayMonthYear, .monthDayYear, .yearMonthDay].contains { order in
                (try? DateNormalizer(order: order).normalize(text, reference: nil)) != nil
            }
        }
        for index in rows.indices.dropLast() where rows[index].filter({ !$0.isEmpty }).count >= 3 {
            let next = rows[(index + 1)...].prefix(3)
            guard !rows[index].contains(where: isDate),
                  let column = rows[index].indices.first(where: { column in
                      next.allSatisfy { $0.indices.contains(column) && isDate($0[column]) }
                  }) else { continue }
            return (index, column)
        }
        return nil
    }

    /// The layout of dates like these (`dd/MM/yyyy`, `yyyy.MM.dd`), nil when they are not all one
    /// numeric layout or their order is open.
    static func dateFormat(_ dates: [String], order: DateOrder) -> String? {
        guard let first = dates.first else { return nil }
        let separators = first.filter { !$0.isNumber }
        guard separators.count == 2, let separator = separators.first, separators.allSatisfy({ $0 == separator }) else { return nil }
        let parts = first.split(separator: separator)
        guard parts.count == 3, dates.allSatisfy({ $0.split(separator: separator).map(\.count) == parts.map(\.count) }) else {
            return nil
        }
        // The order must be one the dates themselves show: a part above 12.
        let shown = dates.contains { date in
            date.split(separator: separator).compactMap { Int($0) }.enumerated().contains { $0.offset < 2 && $0.element > 12 }
        } || parts[0].count == 4
        guard shown else { return nil }
        let day = parts.map(\.count).contains(1) ? "d" : "dd"
        let month = day == "d" ? "M" : "MM"
        let year = parts.map(\.count).max() == 4 ? "yyyy" : "yy"
        let names: [String] = switch order {
        case .dayMonthYear: [day, month, year]
        case .monthDayYear: [month, day, year]
        case .yearMonthDay: [year, month, day]
        }
        return names.joined(separator: String(separator))
    }

    /// A YAML single-quoted scalar.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Cells joined as a CSV line: a cell holding the delimiter or a quote is quoted.
    static func joined(_ cells: [String], delimiter: Character) -> String {
        cells.map { cell in
            cell.contains(delimiter) || cell.contains("\"") ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }.joined(separator: String(delimiter))
    }
}
