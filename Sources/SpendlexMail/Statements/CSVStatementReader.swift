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
        var statement = Statement(format: format)
        var columns: StatementColumns
        let headerIndex: Int
        if let profile {
            guard let index = rows.prefix(30).firstIndex(where: { row in
                row.map(StatementColumns.trimmed) == profile.header.map(\.value)
            }), let found = StatementColumns(profile: profile, header: rows[index]) else {
                throw StatementError(path: path, reason: "the header of statement profile '\(profile.id.value)' is not in the file")
            }
            (headerIndex, columns) = (index, found)
        } else {
            guard let index = rows.prefix(30).firstIndex(where: { headerRoles($0) != nil }),
                  let roles = headerRoles(rows[index]) else {
                throw StatementError(path: path, reason: "no header row naming a date column and an amount (or debit and credit) column")
            }
            var indices: [StatementProfile.Column: Int] = [:]
            for (role, column) in roles { indices[role.column] = column }
            (headerIndex, columns) = (index, StatementColumns(indices: indices, width: rows[index].count))
        }
        let body = Array(rows[(headerIndex + 1)...])
        // What the file leaves open, read from its own values.
        if columns.dateFormat == nil, let dateColumn = columns.indices[.date] {
            columns.dateOrder = QIFStatementReader.dateOrder(
                body.compactMap { $0.indices.contains(dateColumn) ? $0[dateColumn] : nil },
                country: options.country ?? profile?.country ?? "XX")
        }
        if columns.decimalMark == .auto {
            let amountColumns = [columns.indices[.amount], columns.indices[.debit], columns.indices[.credit], columns.indices[.balance]]
                .compactMap { $0 }
            columns.decimalMark = decimalMark(body.flatMap { row in amountColumns.compactMap { row.indices.contains($0) ? row[$0] : nil } })
        }
        statement.decimalMark = columns.decimalMark
        let account = account(in: Array(rows[..<headerIndex]), label: profile?.accountLabel)
        let bank = options.bank ?? profile?.bank ?? "statement"
        let currency = options.localCurrency ?? profile?.country.flatMap(CurrencyNormalizer.defaultCode(forCountry:))
        let accountType = profile?.accountType == "card" ? "card" : options.accountType
        for (offset, cells) in body.enumerated() {
            let number = lines.map { $0[headerIndex + 1 + offset] } ?? headerIndex + offset + 2
            let id = StatementReader.entryID(format: format, account: account, ownID: nil, path: path, line: number)
            switch columns.row(cells, format: format.rawValue, id: id, file: path, line: number, bank: bank, account: account, accountType: accountType,
                               currency: currency) {
            case .entry(let entry): statement.entries.append(entry)
            case .skipped(let why): statement.skipped.append("\(path):\(number): skipped: \(why)")
            case .blank: continue
            }
        }
        return statement
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
        var comma = false, point = false
        for value in values {
            // The last digits and the mark before them, read from the end (signs, brackets, a
            // currency or CR/DR after them passed over).
            let bytes = Array(value.utf8)
            var end = bytes.count
            while end > 0, !(bytes[end - 1] &- 0x30 < 10) { end -= 1 }
            guard end >= 3, bytes[end - 1] &- 0x30 < 10, bytes[end - 2] &- 0x30 < 10 else { continue }
            let mark = bytes[end - 3]
            if mark == UInt8(ascii: ",") { comma = true }
            if mark == UInt8(ascii: ".") { point = true }
            if comma && point { break }
        }
        if comma && !point { return .comma }
        if point && !comma { return .point }
        return .auto
    }
}
