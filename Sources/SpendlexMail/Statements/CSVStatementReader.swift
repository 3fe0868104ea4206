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
    }

    /// Header words, folded (lower case, accents dropped, punctuation as spaces), by role; a
    /// header cell names a role when it equals one of them.
    static let vocabulary: [Role: Set<String>] = [
        .date: ["date", "transaction date", "posting date", "posted date", "booking date", "trans date", "txn date",
                "value date", "fecha", "fecha operacion", "fecha de operacion", "fecha valor", "f valor", "date operation",
                "date de l operation", "date operation", "date valeur", "datum", "buchungstag", "buchungsdatum", "valuta",
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
            let cells = split(line, delimiter)
            return headerRoles(cells) != nil
        }
    }

    static func read(_ text: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        var statement = Statement(format: .csv)
        let lines = StatementReader.lines(text).prefix(30).map(String.init)
        guard let delimiter = delimiter(of: lines) else {
            throw StatementError(path: path, reason: "no delimiter (`,` `;` tab `|`) the first lines agree on")
        }
        let rows: [[String]]
        do {
            let reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: true, delimiter: delimiter)
            var read: [[String]] = []
            while let row = reader.next() { read.append(row) }
            if let error = reader.error { throw error }
            rows = read
        } catch {
            throw StatementError(path: path, reason: "CSV that cannot be read: \(error)")
        }
        guard let headerIndex = rows.prefix(30).firstIndex(where: { headerRoles($0) != nil }),
              let roles = headerRoles(rows[headerIndex]) else {
            throw StatementError(path: path, reason: "no header row naming a date column and an amount (or debit and credit) column")
        }
        var account: String?
        for row in rows[..<headerIndex] {
            // A preamble line naming the account: "Account Number,XXXX1234" or "Account: 12345678".
            let joined = row.joined(separator: " ")
            if fold(joined).contains("account") || fold(joined).contains("konto") || fold(joined).contains("cuenta"),
               let number = joined.split(whereSeparator: { $0 == " " || $0 == ":" }).last(where: { $0.contains(where: \.isNumber) }) {
                account = String(number)
            }
        }
        func column(_ role: Role) -> Int? { roles[role] }
        let body = Array(rows[(headerIndex + 1)...])
        let dateColumn = column(.date)!
        let order = QIFStatementReader.dateOrder(body.compactMap { $0.indices.contains(dateColumn) ? $0[dateColumn] : nil },
                                                 country: options.country ?? "XX")
        let amountColumns = [column(.amount), column(.debit), column(.credit), column(.balance)].compactMap { $0 }
        let mark = decimalMark(body.flatMap { row in amountColumns.compactMap { row.indices.contains($0) ? row[$0] : nil } },
                               delimiter: delimiter)
        statement.decimalMark = mark
        let localCurrency = options.localCurrency
        let width = rows[headerIndex].count
        for (offset, row) in body.enumerated() {
            let number = headerIndex + offset + 2
            func cell(_ role: Role) -> String? {
                guard let index = column(role), row.indices.contains(index) else { return nil }
                let value = row[index].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            let where_ = "\(path):\(number)"
            if let error = row.first(where: { $0.hasPrefix("#") && ["#VALUE!", "#REF!", "#N/A", "#DIV/0!", "#NAME?", "#NUM!", "#NULL!"].contains($0) }) {
                statement.skipped.append("\(where_): skipped: a spreadsheet error cell \(error)")
                continue
            }
            guard let date = cell(.date), date.contains(where: \.isNumber) || date.count > 3 else {
                let what = row.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
                statement.skipped.append("\(where_): skipped: no date (\(what.prefix(40)))")
                continue
            }
            if row.count < width, column(.amount).map({ $0 >= row.count }) ?? false {
                statement.skipped.append("\(where_): skipped: \(row.count) fields where the header has \(width)")
                continue
            }
            let amount: String
            var direction: Direction?
            if let value = cell(.amount) {
                amount = value
            } else if let debit = cell(.debit), !isZero(debit) {
                amount = debit
                direction = .debit
            } else if let credit = cell(.credit), !isZero(credit) {
                amount = credit
                direction = .credit
            } else {
                statement.skipped.append("\(where_): skipped: no amount")
                continue
            }
            // "Total", "Closing balance": a summary row with a date-like cell is no transaction.
            let description = cell(.description)
            if let description, isSummary(description), cell(.reference) == nil {
                statement.skipped.append("\(where_): skipped: a summary row (\(description.prefix(40)))")
                continue
            }
            statement.entries.append(StatementEntry(
                id: StatementReader.entryID(format: .csv, account: account, ownID: nil, path: path, line: number),
                format: StatementFormat.csv.rawValue, file: path, line: number, bank: options.bank ?? "statement",
                account: account, accountType: options.accountType, date: date, dateOrder: order, amount: amount,
                decimalMark: mark, direction: direction, currency: cell(.currency) ?? localCurrency, payee: cell(.payee),
                description: description, reference: cell(.reference), balance: cell(.balance)))
        }
        return statement
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
                let count = split(line, candidate).count - 1
                if count > 0 { counts[count, default: 0] += 1 }
            }
            guard let (_, lines) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }) else { continue }
            if best == nil || lines > best!.1 { best = (candidate, lines) }
        }
        return best?.0
    }

    /// A line's fields at `delimiter`, quotes respected (for sniffing the first lines only).
    static func split(_ line: String, _ delimiter: UnicodeScalar) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for scalar in line.unicodeScalars {
            if scalar == "\"" {
                quoted.toggle()
            } else if scalar == delimiter && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        fields.append(field)
        return fields.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The decimal mark the amounts use: a comma when one is followed by exactly two digits at
    /// the end of a value ("1.234,56", "-12,50") and no value ends with a point and two digits.
    static func decimalMark(_ values: [String], delimiter: UnicodeScalar) -> AmountNormalizer.DecimalMark {
        var comma = false, point = false
        for value in values {
            let digits = value.trimmingCharacters(in: CharacterSet(charactersIn: " -+()€$£¥₹CRDcrd"))
            let characters = Array(digits)
            guard characters.count >= 3, characters.suffix(2).allSatisfy(\.isNumber) else { continue }
            let mark = characters[characters.count - 3]
            if mark == "," { comma = true }
            if mark == "." { point = true }
        }
        if comma && !point { return .comma }
        if point && !comma { return .point }
        return .auto
    }

    /// "0", "0.00", "-", "" : no money in a debit or credit column.
    static func isZero(_ value: String) -> Bool {
        !value.contains { $0.isNumber && $0 != "0" }
    }

    /// Words of a row that sums up rather than records: totals and balances carried.
    static func isSummary(_ description: String) -> Bool {
        let folded = fold(description)
        return ["total", "totals", "grand total", "closing balance", "opening balance", "balance brought forward",
                "balance carried forward", "saldo inicial", "saldo final", "solde initial", "solde final", "anfangssaldo",
                "endsaldo", "summe"].contains { folded == $0 || folded.hasPrefix($0 + " ") }
    }
}
