import CSV
import Foundation
import SpendlexEngine
import SpendlexRules

/// Reads a CSV statement whose header names its columns plainly: a date, and an amount or
/// debit and credit columns, in the common languages ("Date", "Fecha", "Datum", "Buchungstag";
/// "Amount", "Importe", "Betrag"; "Debit"/"Credit", "Withdrawals"/"Deposits", "Soll"/"Haben"...),
/// with a description, balance, reference and currency where there are such columns. Lines
/// before the header (an account's name and number) are skipped; the delimiter (`,` `;` tab
/// `|`) is the one the first lines agree on; fields are read with CSV.swift (quoted fields,
/// quoted newlines, doubled quotes).
///
/// What the file leaves open is read from its own values: the order of a numeric date's parts
/// (a first part above 12 is a day), the decimal mark (`1.234,56`). A row that is not a
/// transaction (a total, a closing balance, an Excel error, a short row) is skipped and said.
enum CSVStatementReader {
    /// What a column holds.
    enum Role: Hashable {
        case date, description, payee, amount, debit, credit, balance, reference, currency

        /// The profile's name for the same column.
        var column: StatementProfile.Column {
            switch self {
            case .date: .date
            case .description: .description
            case .payee: .payee
            case .amount: .amount
            case .debit: .debit
            case .credit: .credit
            case .balance: .balance
            case .reference: .reference
            case .currency: .currency
            }
        }
    }

    /// Header words, folded (lower case, accents dropped, punctuation as spaces), by role; a
    /// header cell names a role when it equals one of them.
    static let vocabulary: [Role: Set<String>] = [
        .date: ["date", "transaction date", "posting date", "posted date", "booking date", "trans date", "txn date",
                "value date", "fecha", "fecha operacion", "fecha de operacion", "fecha valor", "f valor", "date operation",
                "date de l operation", "date valeur", "datum", "buchungstag", "buchungsdatum", "valuta",
                "data", "data operazione", "data valuta", "data movimento", "data lancamento", "tanggal", "transactiedatum",
                "boekdatum", "dato", "bokforingsdatum", "data operacji", "tarih", "islem tarihi"],
        .description: ["description", "details", "transaction details", "narrative", "narration", "particulars",
                       "transaction description", "remarks", "memo", "text", "concepto", "descripcion", "detalle",
                       "libelle", "libelle operation", "verwendungszweck", "buchungstext", "beschreibung", "descrizione",
                       "causale", "descricao", "historico", "omschrijving", "mededelingen", "keterangan", "uraian",
                       "tekst", "beskrivning", "opis", "aciklama", "transaction remarks", "reference description"],
        .payee: ["payee", "merchant", "merchant name", "counterparty", "beneficiary", "name", "beguenstigter",
                 "beguenstigter zahlungspflichtiger", "empfaenger", "auftraggeber", "naam tegenpartij", "tegenrekening naam",
                 "beneficiario", "beneficiaire", "contraparte"],
        .amount: ["amount", "transaction amount", "amount inr", "amount usd", "amount eur", "amount gbp", "value",
                  "importe", "monto", "montant", "betrag", "umsatz", "valor", "importo", "bedrag", "jumlah", "nominal",
                  "belopp", "kwota", "tutar", "beloeb"],
        .debit: ["debit", "debits", "debit amount", "withdrawal", "withdrawals", "withdrawal amt", "withdrawal amount",
                 "paid out", "money out", "out", "debe", "cargo", "cargos", "debito", "debit eur", "soll", "ausgang",
                 "uscite", "addebiti", "af", "debet", "penarikan", "dr"],
        .credit: ["credit", "credits", "credit amount", "deposit", "deposits", "deposit amt", "deposit amount",
                  "paid in", "money in", "in", "haber", "abono", "abonos", "credito", "credit eur", "haben", "eingang",
                  "entrate", "accrediti", "bij", "kredit", "setoran", "cr"],
        .balance: ["balance", "running balance", "closing balance", "available balance", "saldo", "solde", "kontostand",
                   "saldo disponible", "balance inr", "bakiye"],
        .reference: ["reference", "ref", "ref no", "reference no", "reference number", "chq ref no", "chq no",
                     "cheque no", "check number", "transaction id", "transaction reference", "referencia", "reference operation",
                     "referenz", "riferimento", "referentie", "no referensi", "utr", "id"],
        .currency: ["currency", "ccy", "moneda", "divisa", "devise", "waehrung", "valuta iso", "moeda", "mata uang"],
    ]

    /// Whether a text's first lines look like delimited values with a header a statement has.
    static func looksLikeCSV(_ head: String) -> Bool {
        let lines = StatementReader.lines(head).prefix(30).map(String.init)
        guard let delimiter = delimiter(of: lines) else { return false }
        return lines.contains { line in
            let cells = StatementColumns.split(line, Character(delimiter))
            return headerRoles(cells) != nil
        }
    }

    static func read(_ text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        // The first lines only: splitting the whole text to look at 30 lines was 4% of a large import.
        let lines = StatementReader.lines(String(text.prefix(64 << 10))).prefix(30).map(String.init)
        // A profile names the file by its header row, split at the profile's own delimiter.
        let profile = try self.profile(path: path, options: options) { candidate in lines.contains { matches(candidate, $0) } }
        guard let delimiter = profile.map({ $0.delimiter.unicodeScalars.first! }) ?? delimiter(of: lines) else {
            throw StatementError(path: path, reason: "no delimiter (`,` `;` tab `|`) the first lines agree on")
        }
        let rows: [[String]]
        do {
            // Fields are trimmed by `StatementColumns` (CSV.swift trims through NSString, slowly).
            let reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: false, delimiter: delimiter)
            var read: [[String]] = []
            while let row = reader.next() { read.append(row) }
            if let error = reader.error { throw error }
            rows = read
        } catch {
            throw StatementError(path: path, reason: "CSV that cannot be read: \(error)")
        }
        return try read(rows: rows, format: .csv, profile: profile, path: path, options: options)
    }

    /// Reads a UTF-8 CSV file row by row, twice: once for what its values tell (the order of its
    /// dates, its decimal mark; until they can tell nothing more), once for its entries, each
    /// handed to `body` as it is read. Only the first rows are held. `head`: its first lines.
    static func stream(path: String, head lines: [String], options: StatementOptions,
                       body: (StatementEntry) -> Void) throws(StatementError) -> Statement {
        let profile = try self.profile(path: path, options: options) { candidate in lines.contains { matches(candidate, $0) } }
        guard let delimiter = profile.map({ $0.delimiter.unicodeScalars.first! }) ?? delimiter(of: lines) else {
            throw StatementError(path: path, reason: "no delimiter (`,` `;` tab `|`) the first lines agree on")
        }
        guard Character(delimiter).isASCII else {
            // A delimiter of more than one byte (a profile's): the file is read whole.
            var statement = try StatementReader.read(path: path, options: options)
            statement.entries.forEach(body)
            statement.entries = []
            return statement
        }
        func rows() throws(StatementError) -> CSVRecordReader {
            guard let reader = CSVRecordReader(path: path, delimiter: Character(delimiter)) else {
                throw StatementError(path: path, reason: "cannot open the file")
            }
            return reader
        }
        func checked(_ reader: CSVRecordReader) throws(StatementError) {
            if let error = reader.error { throw StatementError(path: path, reason: "the file cannot be read: \(error)") }
        }
        // The first rows (the header, and what is above it); then the rest for what it tells.
        let reader = try rows()
        var head: [[String]] = []
        while head.count < 30, let row = reader.next() { head.append(row) }
        var table = try Table(head: head, format: .csv, profile: profile, path: path, options: options)
        var detector = table.detector
        for row in head[(table.headerIndex + 1)...] where !detector.isDone { detector.feed(row) }
        while !detector.isDone, let row = reader.next() { detector.feed(row) }
        try checked(reader)
        table.settle(detector)
        var statement = Statement(format: .csv)
        statement.decimalMark = table.columns.decimalMark
        // The entries, row by row.
        let again = try rows()
        var index = 0
        while let cells = again.next() {
            defer { index += 1 }
            guard index > table.headerIndex else { continue }
            switch table.row(cells, line: index + 1) {
            case .entry(let entry): body(entry)
            case .skipped(let why): statement.skipped.append("\(path):\(index + 1): skipped: \(why)")
            case .blank: continue
            }
        }
        try checked(again)
        return statement
    }

    /// The profile a table's first rows have the header of.
    static func profile(of rows: [[String]], path: String, options: StatementOptions) throws(StatementError) -> StatementProfile? {
        try profile(path: path, options: options) { profile in
            rows.prefix(30).contains { $0.map(StatementColumns.trimmed) == profile.header.map(\.value) }
        }
    }

    /// The profile a file has the header of (`has`): the one `options` names (an error when it is
    /// unknown or the file lacks its header), else the first it has, else nil.
    static func profile(path: String, options: StatementOptions,
                        has: (StatementProfile) -> Bool) throws(StatementError) -> StatementProfile? {
        if let id = options.profile {
            guard let named = options.profiles.first(where: { $0.id.value == id }) else {
                throw StatementError(path: path, reason: "no statement profile '\(id)' (profiles: \(options.profiles.map(\.id.value).sorted().joined(separator: ", ")))")
            }
            guard has(named) else {
                throw StatementError(path: path, reason: "the header of statement profile '\(id)' is not in the file's first lines")
            }
            return named
        }
        return options.profiles.first(where: has)
    }

    /// A statement from a table's rows (a CSV's, a spreadsheet's, a PDF's): the header found by
    /// `profile` or by its names, the rows after it read by `StatementColumns`. Rows are numbered
    /// from 1, or by `lines` (each row's line in the file).
    static func read(rows: [[String]], format: StatementFormat, profile: StatementProfile?, path: String,
                     options: StatementOptions, lines: [Int]? = nil) throws(StatementError) -> Statement {
        var table = try Table(head: Array(rows.prefix(30)), format: format, profile: profile, path: path, options: options)
        let body = rows[(table.headerIndex + 1)...]
        var detector = table.detector
        for cells in body where !detector.isDone { detector.feed(cells) }
        table.settle(detector)
        var statement = Statement(format: format)
        statement.decimalMark = table.columns.decimalMark
        for (offset, cells) in zip(body.indices, body) {
            let number = lines.map { $0[offset] } ?? offset + 1
            switch table.row(cells, line: number) {
            case .entry(let entry): statement.entries.append(entry)
            case .skipped(let why): statement.skipped.append("\(path):\(number): skipped: \(why)")
            case .blank: continue
            }
        }
        return statement
    }

    /// A table's header and what its rows are read with: the header row found among the first
    /// rows by a profile or by its names, the account number above it, the bank, currency and
    /// account type. The order of its dates and its decimal mark are read from its own values
    /// (`detector`, fed the body's rows, then `settle`) where the profile does not say.
    struct Table {
        let format: StatementFormat
        let path: String
        let headerIndex: Int
        var columns: StatementColumns
        let account: String?
        let bank: String
        let currency: String?
        let accountType: String
        let country: String

        init(head rows: [[String]], format: StatementFormat, profile: StatementProfile?, path: String,
             options: StatementOptions) throws(StatementError) {
            if let profile {
                guard let index = rows.firstIndex(where: { row in
                    row.map(StatementColumns.trimmed) == profile.header.map(\.value)
                }), let found = StatementColumns(profile: profile, header: rows[index]) else {
                    throw StatementError(path: path, reason: "the header of statement profile '\(profile.id.value)' is not in the file")
                }
                (headerIndex, columns) = (index, found)
            } else {
                guard let index = rows.firstIndex(where: { headerRoles($0) != nil }), let roles = headerRoles(rows[index]) else {
                    throw StatementError(path: path, reason: "no header row naming a date column and an amount (or debit and credit) column")
                }
                var indices: [StatementProfile.Column: Int] = [:]
                for (role, column) in roles { indices[role.column] = column }
                (headerIndex, columns) = (index, StatementColumns(indices: indices, width: rows[index].count))
            }
            self.format = format
            self.path = path
            account = CSVStatementReader.account(in: Array(rows[..<headerIndex]), label: profile?.accountLabel)
            bank = options.bank ?? profile?.bank ?? "statement"
            currency = options.localCurrency ?? profile?.country.flatMap(CurrencyNormalizer.defaultCode(forCountry:))
            accountType = profile?.accountType == "card" ? "card" : options.accountType
            country = options.country ?? profile?.country ?? "XX"
        }

        /// What reads the date order and the decimal mark from the body's rows.
        var detector: Detector {
            Detector(dateColumn: columns.dateFormat == nil ? columns.indices[.date] : nil,
                     amountColumns: columns.decimalMark == .auto
                         ? [columns.indices[.amount], columns.indices[.debit], columns.indices[.credit], columns.indices[.balance]]
                             .compactMap { $0 } : [])
        }

        /// The date order and decimal mark the detector read (the country's order when no date told).
        mutating func settle(_ detector: Detector) {
            if columns.dateFormat == nil, columns.indices[.date] != nil {
                columns.dateOrder = detector.dateOrder ?? DateOrder.forCountry(country)
            }
            if columns.decimalMark == .auto { columns.decimalMark = detector.decimalMark }
        }

        /// A body row as an entry (or why it is none); `line`: its number in the file.
        func row(_ cells: [String], line: Int) -> StatementColumns.Row {
            let id = StatementReader.entryID(format: format, account: account, ownID: nil, path: path, line: line)
            return columns.row(cells, format: format.rawValue, id: id, file: path, line: line, bank: bank, account: account,
                               accountType: accountType, currency: currency)
        }
    }

    /// Reads a table's date order (the first date that tells it) and decimal mark (a comma or a
    /// point before the last two digits of every amount) from its rows, one at a time.
    struct Detector {
        let dateColumn: Int?
        let amountColumns: [Int]
        private(set) var dateOrder: DateOrder?
        private var comma = false
        private var point = false

        init(dateColumn: Int?, amountColumns: [Int]) {
            self.dateColumn = dateColumn
            self.amountColumns = amountColumns
        }

        /// Whether more rows can tell nothing more.
        var isDone: Bool { (dateColumn == nil || dateOrder != nil) && (amountColumns.isEmpty || (comma && point)) }

        mutating func feed(_ cells: [String]) {
            if dateOrder == nil, let column = dateColumn, cells.indices.contains(column) {
                dateOrder = QIFStatementReader.decisiveDateOrder(cells[column])
            }
            guard !(comma && point) else { return }
            for column in amountColumns where cells.indices.contains(column) {
                let (hasComma, hasPoint) = CSVStatementReader.decimalMarkOf(cells[column])
                comma = comma || hasComma
                point = point || hasPoint
            }
        }

        var decimalMark: AmountNormalizer.DecimalMark {
            if comma && !point { return .comma }
            if point && !comma { return .point }
            return .auto
        }
    }

    /// Whether a line is a profile's header row.
    static func matches(_ profile: StatementProfile, _ line: String) -> Bool {
        StatementColumns.split(line, profile.delimiter) == profile.header.map(\.value)
    }

    /// The account number in the lines above the header: the cell after `label` (or after a
    /// colon in the same cell), else the last cell with digits on a line naming an account.
    static func account(in preamble: [[String]], label: String?) -> String? {
        if let label {
            let wanted = fold(label)
            for row in preamble {
                for (index, cell) in row.enumerated() where fold(cell).hasPrefix(wanted) {
                    if let colon = cell.firstIndex(of: ":"), cell[cell.index(after: colon)...].contains(where: \.isNumber) {
                        return cell[cell.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    if let next = row[(index + 1)...].first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                        return next.trimmingCharacters(in: .whitespaces)
                    }
                }
            }
            return nil
        }
        var account: String?
        for row in preamble {
            let joined = row.joined(separator: " ")
            let folded = fold(joined)
            if folded.contains("account") || folded.contains("konto") || folded.contains("cuenta") || folded.contains("compte"),
               let number = joined.split(whereSeparator: { $0 == " " || $0 == ":" }).last(where: { $0.contains(where: \.isNumber) }) {
                account = String(number)
            }
        }
        return account
    }

    /// The roles of a header row's cells; nil when it names no date, or neither an amount nor a
    /// debit or credit column. The first cell of a role wins.
    static func headerRoles(_ cells: [String]) -> [Role: Int]? {
        var roles: [Role: Int] = [:]
        for (index, cell) in cells.enumerated() {
            let name = fold(cell)
            guard !name.isEmpty else { continue }
            // "Amount (INR)", "Debit (EUR)": the currency in parentheses is dropped first.
            let bare = name.split(separator: " ").filter { $0.count != 3 || !CurrencyNormalizer.isKnownCode(String($0).uppercased()) }
                .joined(separator: " ")
            for (role, words) in vocabulary where roles[role] == nil && (words.contains(name) || words.contains(bare)) {
                roles[role] = index
                break
            }
        }
        guard roles[.date] != nil, roles[.amount] != nil || roles[.debit] != nil || roles[.credit] != nil else { return nil }
        return roles
    }

    /// Lower case, accents and punctuation dropped, spaces collapsed: "Buchungs-Tag" → "buchungs tag",
    /// "Débito" → "debito", "Begünstigter" → "beguenstigter" (German umlauts as their two-letter forms).
    static func fold(_ text: String) -> String {
        let german = text.lowercased().replacingOccurrences(of: "ä", with: "ae").replacingOccurrences(of: "ö", with: "oe")
            .replacingOccurrences(of: "ü", with: "ue").replacingOccurrences(of: "ß", with: "ss")
        let plain = german.folding(options: [.diacriticInsensitive], locale: nil)
        return plain.map { $0.isLetter || $0.isNumber ? String($0) : " " }.joined()
            .split(separator: " ").joined(separator: " ")
    }

    /// The delimiter most of the first lines hold the same number of times (at least once).
    static func delimiter(of lines: [String]) -> UnicodeScalar? {
        var best: (UnicodeScalar, Int)?
        for candidate in [",", ";", "\t", "|"] as [UnicodeScalar] {
            var counts: [Int: Int] = [:]
            for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let count = StatementColumns.split(line, Character(candidate)).count - 1
                if count > 0 { counts[count, default: 0] += 1 }
            }
            guard let (_, lines) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }) else { continue }
            if best == nil || lines > best!.1 { best = (candidate, lines) }
        }
        return best?.0
    }

    /// The decimal mark the amounts use: a comma when one is followed by exactly two digits at
    /// the end of a value ("1.234,56", "-12,50") and no value ends with a point and two digits.
    static func decimalMark(_ values: [String]) -> AmountNormalizer.DecimalMark {
        var detector = Detector(dateColumn: nil, amountColumns: [0])
        for value in values where !detector.isDone { detector.feed([value]) }
        return detector.decimalMark
    }

    /// Whether a value ends with a comma, or a point, and two digits (signs, brackets, a currency
    /// or CR/DR after them passed over).
    static func decimalMarkOf(_ value: String) -> (comma: Bool, point: Bool) {
        let bytes = Array(value.utf8)
        var end = bytes.count
        while end > 0, !(bytes[end - 1] &- 0x30 < 10) { end -= 1 }
        guard end >= 3, bytes[end - 1] &- 0x30 < 10, bytes[end - 2] &- 0x30 < 10 else { return (false, false) }
        let mark = bytes[end - 3]
        return (mark == UInt8(ascii: ","), mark == UInt8(ascii: "."))
    }
}
