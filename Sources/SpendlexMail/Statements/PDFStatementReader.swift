import Foundation
import PCRE2
import SpendlexEngine
import SpendlexRules

/// Reads a PDF statement: its pages' text laid out as on the page by `pdftotext -layout`
/// (poppler-utils), then its table read line by line.
///
/// The table's header line (the one a statement profile names, else one that names a date and an
/// amount, or debit and credit, in the common languages) places the columns: a line's cells (text
/// apart by two spaces or more) belong to the header cell they overlap most, so that amounts
/// aligned right under their header and descriptions aligned left both land where they belong.
/// A line whose date cell holds a date starts a row. The lines right below a row (no blank line
/// between) that bring no new date continue it: their text is added to its description, payee or
/// reference, and their amounts fill the row's empty money columns (pdftotext sometimes puts a
/// row's amounts on a line of their own); a time under the date is passed over. The header
/// repeated on later pages, blank lines, the profile's `skip` lines and page furniture (titles,
/// footers, page numbers) are not rows; a line outside the rows with an amount in a money column
/// is reported as skipped, never dropped in silence. The rows are then read as a CSV's would be
/// (`CSVStatementReader.read(rows:)`): dates, decimal marks, debits and credits, totals.
///
/// The opening and closing balances are the profile's `opening_balance` and `closing_balance`
/// patterns' `amount` (and `date`), else a line before the rows that states an opening balance
/// ("Opening Balance", "Balance as on 1 Nov 2026 : 25,000.00", "Previous Balance") and one after
/// them that states a closing one. A card statement's balances are what is owed: negative.
enum PDFStatementReader {
    static func read(bytes: [UInt8], path: String, isFile: Bool, options: StatementOptions) throws(StatementError) -> Statement {
        try read(layout: layoutText(bytes: bytes, path: path, isFile: isFile), path: path, options: options)
    }

    /// The environment variable that holds the password of a locked PDF (passed to pdftotext).
    static let passwordVariable = "SPENDLEX_PDF_PASSWORD"

    /// The PDF's text, page by page (form feeds between pages), as `pdftotext -layout` lays it out.
    static func layoutText(bytes: [UInt8], path: String, isFile: Bool) throws(StatementError) -> String {
        // The statement's own file, else a private temporary copy of the bytes.
        var file = path
        var copy: URL?
        if !isFile {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-\(UUID().uuidString).pdf")
            guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw StatementError(path: path, reason: "cannot make a temporary copy of the PDF in \(temporary.deletingLastPathComponent().path)")
            }
            (file, copy) = (temporary.path, temporary)
        }
        defer { if let copy { try? FileManager.default.removeItem(at: copy) } }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["pdftotext", "-layout", "-enc", "UTF-8", "-eol", "unix"]
        if let password = ProcessInfo.processInfo.environment[passwordVariable], !password.isEmpty {
            arguments += ["-upw", password]
        }
        process.arguments = arguments + [file, "-"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw StatementError(path: path, reason: "cannot run pdftotext: \(error)")
        }
        // Both pipes drained at once: a PDF that makes pdftotext warn a great deal must not block it.
        let errorText = ErrorCollector(errors.fileHandleForReading)
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = errorText.wait()
        switch process.terminationStatus {
        case 0: break
        case 127:
            throw StatementError(path: path, reason: "PDF statements are read with pdftotext, which is not installed (apt-get install poppler-utils)")
        default:
            if message.localizedCaseInsensitiveContains("password") {
                throw StatementError(path: path, reason: "the PDF is locked with a password: give it in the environment variable \(passwordVariable), or unlock the file first (qpdf --decrypt)")
            }
            let first = message.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw StatementError(path: path, reason: "pdftotext cannot read the PDF: \(first)")
        }
        guard let layout = String(data: text, encoding: .utf8) else {
            throw StatementError(path: path, reason: "pdftotext gave text that is not UTF-8")
        }
        guard layout.contains(where: { !$0.isWhitespace && $0 != "\u{0C}" }) else {
            throw StatementError(path: path, reason: "the PDF has no text: a scanned statement (pictures of its pages) needs OCR first (ocrmypdf adds a text layer), then import the result")
        }
        return layout
    }

    /// Reads a pipe to its end on another thread.
    private final class ErrorCollector: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            DispatchQueue.global().async {
                self.data = handle.readDataToEndOfFile()
                self.done.signal()
            }
        }

        func wait() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// A line of the laid-out text: its page, its number in the whole text (from 1), its text.
    struct Line {
        let page: Int
        let number: Int
        let text: Substring
    }

    /// A run of text on a line, apart from the next by two spaces or more: its columns
    /// (characters from the line's start) and text.
    struct Cell: Equatable {
        let start: Int
        let end: Int
        let text: String
    }

    /// The laid-out text's lines, with their pages (a form feed starts the next page).
    static func lines(_ layout: String) -> [Line] {
        var page = 1
        return layout.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, raw in
            var text = raw
            while text.first == "\u{0C}" {
                page += 1
                text = text.dropFirst()
            }
            return Line(page: page, number: index + 1, text: text)
        }
    }

    /// A line's cells.
    static func cells(_ line: Substring) -> [Cell] {
        var cells: [Cell] = []
        var start: Int?
        var text = ""
        var spaces = 0
        var column = 0
        for character in line {
            defer { column += 1 }
            if character == " " || character == "\t" {
                spaces += 1
                if spaces >= 2, let cellStart = start {
                    cells.append(Cell(start: cellStart, end: column - 1, text: text))
                    start = nil
                    text = ""
                }
                continue
            }
            if start == nil {
                start = column
            } else if spaces == 1 {
                text.append(" ")
            }
            spaces = 0
            text.append(character)
        }
        if let start { cells.append(Cell(start: start, end: start + text.count, text: text)) }
        return cells
    }

    /// A header's two lines as one: a title on the second line under one on the first is its
    /// continuation ("Value" over "Date" is "Value Date"); one under none is a title of its own.
    static func stacked(_ top: [Cell], _ bottom: [Cell]) -> [Cell] {
        var cells = top
        for cell in bottom {
            let overlaps = cells.indices.map { min(cell.end, cells[$0].end) - max(cell.start, cells[$0].start) }
            if let best = overlaps.indices.max(by: { overlaps[$0] < overlaps[$1] }), overlaps[best] > 0 {
                let above = cells[best]
                cells[best] = Cell(start: min(above.start, cell.start), end: max(above.end, cell.end), text: above.text + " " + cell.text)
            } else {
                cells.append(cell)
            }
        }
        return cells.sorted { $0.start < $1.start }
    }

    /// The header cell a cell belongs to: the one it overlaps most, else the nearest.
    static func column(of cell: Cell, in header: [Cell]) -> Int {
        var best = 0
        var bestOverlap = 0
        var bestGap = Int.max
        for (index, title) in header.enumerated() {
            let overlap = min(cell.end, title.end) - max(cell.start, title.start)
            if overlap > 0 {
                if overlap > bestOverlap { (best, bestOverlap) = (index, overlap) }
            } else if bestOverlap == 0, -overlap < bestGap {
                (best, bestGap) = (index, -overlap)
            }
        }
        return best
    }

    static func read(layout: String, path: String, options: StatementOptions) throws(StatementError) -> Statement {
        let lines = lines(layout)
        let cellsOfLine = lines.map { cells($0.text) }
        // The header: one line, or two when its titles wrap ("Value" over "Date").
        func candidates(at index: Int) -> [(cells: [Cell], lines: Int)] {
            let one = cellsOfLine[index]
            guard !one.isEmpty else { return [] }
            guard index + 1 < cellsOfLine.count, !cellsOfLine[index + 1].isEmpty else { return [(one, 1)] }
            return [(one, 1), (Self.stacked(one, cellsOfLine[index + 1]), 2)]
        }
        let profile = try CSVStatementReader.profile(path: path, options: options) { profile in
            let header = profile.header.map(\.value)
            return cellsOfLine.indices.contains { index in candidates(at: index).contains { $0.cells.map(\.text) == header } }
        }
        var found: (index: Int, cells: [Cell], lines: Int)?
        for index in cellsOfLine.indices {
            if let match = candidates(at: index).first(where: { candidate in
                let texts = candidate.cells.map(\.text)
                return profile.map { texts == $0.header.map(\.value) } ?? (CSVStatementReader.headerRoles(texts) != nil)
            }) {
                found = (index, match.cells, match.lines)
                break
            }
        }
        guard let found else {
            throw StatementError(path: path, reason: "no table in the PDF's text: no line names a date column and an amount (or debit and credit) column, and no statement profile's header is there")
        }
        // The header's last line; the lines before its first are the preamble.
        let headerStart = found.index
        let headerIndex = found.index + found.lines - 1
        let headerLineTexts = (headerStart...headerIndex).map { cellsOfLine[$0].map(\.text) }
        let header = found.cells
        let headerTexts = header.map(\.text)
        // A profile's row pattern reads the rows; else the header's columns do.
        let rowPattern = profile.flatMap(StatementRowPattern.init)
        var indices: [StatementProfile.Column: Int] = [:]
        if let profile, let columns = StatementColumns(profile: profile, header: headerTexts) {
            indices = columns.indices
        } else {
            for (role, index) in CSVStatementReader.headerRoles(headerTexts) ?? [:] { indices[role.column] = index }
        }
        guard let dateColumn = indices[.date] ?? (rowPattern != nil ? 0 : nil) else {
            throw StatementError(path: path, reason: "the table's header has no date column")
        }
        let moneyColumns = Set([StatementProfile.Column.amount, .debit, .credit, .balance].compactMap { indices[$0] })
        // Rows may give the day and month only ("09-Sep"): their year is the statement period's,
        // the latest dated day above the table.
        let reference = Self.latestDate(in: lines[..<headerStart].map { String($0.text) })
        let scratch = MatchScratch()
        let skips = (profile?.skip ?? []).compactMap { try? Pattern($0.value, options: [], jit: false) }
        let accountType = profile?.accountType == "card" ? "card" : options.accountType

        // The table: the lines above the header that may name the account, the header, the rows.
        var rows: [[String]] = []
        var rowLines: [Int] = []
        // (The last 20 of them: the table reader looks for its header among its first 30 rows.)
        let preamble = zip(lines[..<headerStart], cellsOfLine[..<headerStart]).filter { Self.mayNameAccount($0.1, profile) }.suffix(20)
        for (line, cells) in preamble {
            rows.append([cells.map(\.text).joined(separator: " ")])
            rowLines.append(line.number)
        }
        rows.append(rowPattern?.header ?? headerTexts)
        rowLines.append(lines[headerIndex].number)
        let firstRow = rows.count
        var skipped: [String] = []
        var open: Int?
        var firstRowLine: Int?
        var lastRowLine: Int?
        for index in (headerIndex + 1)..<lines.count {
            let line = lines[index]
            let cells = cellsOfLine[index]
            if cells.isEmpty {
                open = nil
                continue
            }
            let text = String(line.text)
            let texts = cells.map(\.text)
            if skips.contains(where: { (try? $0.matches(text, scratch: scratch)) == true }) || texts == headerTexts
                || headerLineTexts.contains(texts) {
                open = nil
                continue
            }
            if let rowPattern {
                if let values = rowPattern.cells(text, scratch: scratch) {
                    rows.append(values)
                    rowLines.append(line.number)
                    open = rows.count - 1
                    firstRowLine = firstRowLine ?? line.number
                    lastRowLine = line.number
                } else if let row = open, let merged = rowPattern.continuing(rows[row], with: text, scratch: scratch) {
                    rows[row] = merged
                    lastRowLine = line.number
                } else {
                    open = nil
                    if (try? Self.lastAmount.firstMatch(in: text, scratch: scratch)) != nil, !Self.isBalanceLine(text) {
                        skipped.append(Self.stray(path, line, amount: nil, cells))
                    }
                }
                continue
            }
            var values = [String](repeating: "", count: header.count)
            for cell in cells {
                let column = column(of: cell, in: header)
                values[column] = values[column].isEmpty ? cell.text : values[column] + " " + cell.text
            }
            if Self.isDate(values[dateColumn], reference: reference) {
                rows.append(values)
                rowLines.append(line.number)
                open = rows.count - 1
                firstRowLine = firstRowLine ?? line.number
                lastRowLine = line.number
                continue
            }
            if let row = open, let merged = Self.continuing(rows[row], with: values, dateColumn: dateColumn, money: moneyColumns) {
                rows[row] = merged
                lastRowLine = line.number
                continue
            }
            open = nil
            if let money = moneyColumns.sorted().first(where: { Self.isMoney(values[$0]) }), !Self.isBalanceLine(text) {
                skipped.append(Self.stray(path, line, amount: values[money], cells))
            }
        }
        guard rows.count > firstRow else {
            throw StatementError(path: path, reason: "the PDF's table (header at line \(lines[headerIndex].number)) has no rows with a date")
        }
        let tableProfile = profile.map { profile in rowPattern?.tableProfile(profile) ?? profile }
        var statement = try CSVStatementReader.read(rows: rows, format: .pdf, profile: tableProfile, path: path,
                                                     options: options, lines: rowLines)
        statement.skipped += skipped
        if let reference {
            for index in statement.entries.indices { statement.entries[index].dateReference = reference }
        }
        let before = lines.prefix { $0.number < (firstRowLine ?? Int.max) }.map { String($0.text) }
        let after = lines.drop { $0.number <= (lastRowLine ?? Int.max) }.map { String($0.text) }
        statement.opening = balance(profile?.openingBalance?.value, in: layout, lines: before, opening: true, scratch: scratch)
        statement.closing = balance(profile?.closingBalance?.value, in: layout, lines: after, opening: false, scratch: scratch)
        if accountType == "card" {
            statement.opening = statement.opening.map(owed)
            statement.closing = statement.closing.map(owed)
        }
        return statement
    }

    /// Whether a line states an opening or a closing balance.
    static func isBalanceLine(_ text: String) -> Bool {
        balanceLine(text, opening: true) != nil || balanceLine(text, opening: false) != nil
    }

    /// What a line outside the rows with an amount is reported as.
    private static func stray(_ path: String, _ line: Line, amount: String?, _ cells: [Cell]) -> String {
        let text = cells.map(\.text).joined(separator: " ").prefix(60)
        return "\(path):\(line.number): skipped: page \(line.page): an amount\(amount.map { " (\($0))" } ?? "") on a line that is no row of the table (\(text))"
    }

    /// Whether a line above the header is kept for finding the account number: it names an
    /// account or a card, or the profile's label.
    private static func mayNameAccount(_ cells: [Cell], _ profile: StatementProfile?) -> Bool {
        let folded = CSVStatementReader.fold(cells.map(\.text).joined(separator: " "))
        if let label = profile?.accountLabel { return folded.contains(CSVStatementReader.fold(label)) }
        return ["account", "a c", "card", "konto", "cuenta", "compte", "conta"].contains { folded.contains($0) }
    }

    /// `row` with a continuation line's `values` added: text added to its text columns, amounts
    /// to its empty money columns; nil when the line cannot continue it (a new amount where the
    /// row has one, something other than a time under the date).
    static func continuing(_ row: [String], with values: [String], dateColumn: Int, money: Set<Int>) -> [String]? {
        var merged = row
        for (index, value) in values.enumerated() where !value.isEmpty {
            if index == dateColumn {
                guard (try? TimeNormalizer.normalize(value)) != nil else { return nil }
                continue
            }
            if money.contains(index) {
                guard row[index].isEmpty else { return nil }
                merged[index] = value
            } else {
                merged[index] = row[index].isEmpty ? value : row[index] + " " + value
            }
        }
        return merged
    }

    /// Whether a date cell holds a date (day and month in either order, or a month's name; without
    /// a year when there is a `reference` to read it near).
    static func isDate(_ text: String, reference: LocalDate? = nil) -> Bool {
        guard text.contains(where: \.isNumber), text.count <= 24 else { return false }
        return [DateOrder.dayMonthYear, .monthDayYear].contains { order in
            (try? DateNormalizer(format: nil, order: order).normalize(text, reference: reference)) != nil
        }
    }

    /// The latest date with a year in `lines` (a statement period's end: "01 Jul 24 - 30 Sep 24").
    static func latestDate(in lines: [String]) -> LocalDate? {
        let scratch = MatchScratch()
        var latest: LocalDate?
        for line in lines {
            var from = 0
            while let match = try? someDate.firstMatch(in: line, from: from, scratch: scratch), let whole = match[0] {
                from = whole.upperBound
                guard let date = try? DateNormalizer().normalize(line.utf8Slice(whole), reference: nil) else { continue }
                if latest.map({ date > $0 }) ?? true { latest = date }
            }
        }
        return latest
    }

    /// Whether a cell holds an amount of money: what the amount normalizer reads as one, signs,
    /// currencies and credit marks included ("1,234.56", "- Rs.85", "300.00 CR"), the way the
    /// rows' amounts are read; "Page 1 of 2" under a money column is none.
    static func isMoney(_ text: String) -> Bool {
        text.contains(where: \.isNumber) && (try? AmountNormalizer().normalize(text)) != nil
    }

    /// Words that state an opening balance, and a closing one, on a line of their own.
    private static let openingWords = try! Pattern(
        #"(?i)\b(?:opening\s+bal(?:ance)?|balance\s+(?:b/?f|brought\s+forward)|brought\s+forward|previous\s+balance|balance\s+as\s+(?:on|of|at)|saldo\s+(?:inicial|anterior)|solde\s+(?:initial|pr[ée]c[ée]dent)|anfangssaldo|alter\s+kontostand)\b"#)
    private static let closingWords = try! Pattern(
        #"(?i)\b(?:closing\s+bal(?:ance)?|balance\s+(?:c/?f|carried\s+forward)|carried\s+forward|new\s+balance|balance\s+as\s+(?:on|of|at)|saldo\s+(?:final|actual)|solde\s+(?:final|nouveau)|endsaldo|neuer\s+kontostand)\b"#)
    /// The last amount on a line (with a credit or debit mark), and a date on it.
    static let lastAmount = try! Pattern(#"(?<amount>[-+]?\(?\d[\d,.'\x{A0}]*[.,]\d{2}\)?(?:\s?(?i:cr|dr)\b)?)(?!.*\d[.,]\d{2})"#)
    private static let someDate = try! Pattern(#"\b(?<date>\d{4}-\d{2}-\d{2}|\d{1,2}[-/. ](?:\d{1,2}|\p{L}{3,9})[-/. ,]+\d{2,4})\b"#)

    /// A balance a line states (`opening`: an opening one), from its words.
    static func balanceLine(_ line: String, opening: Bool) -> StatementBalance? {
        let scratch = MatchScratch()
        guard let words = try? (opening ? openingWords : closingWords).firstMatch(in: line, scratch: scratch),
              let labelEnd = words[0]?.upperBound,
              let amount = try? lastAmount.firstMatch(in: line, from: labelEnd, scratch: scratch),
              let range = group(amount, "amount", lastAmount) else { return nil }
        let date = (try? someDate.firstMatch(in: line, from: labelEnd, scratch: scratch))
            .flatMap { group($0, "date", someDate) }
            .map { line.utf8Slice($0) }
        return StatementBalance(amount: line.utf8Slice(range), date: date, atStartOfDay: opening)
    }

    /// A balance the statement states: by the profile's pattern over the whole text, else from
    /// the first line of `lines` (those before the rows, or after them) that states one.
    static func balance(_ pattern: String?, in layout: String, lines: [String], opening: Bool,
                        scratch: MatchScratch) -> StatementBalance? {
        if let pattern {
            guard let compiled = try? Pattern(pattern, options: .multiline, jit: false),
                  let match = try? compiled.firstMatch(in: layout, scratch: scratch),
                  let amount = group(match, "amount", compiled) else { return nil }
            let date = group(match, "date", compiled).map { layout.utf8Slice($0) }
            return StatementBalance(amount: StatementColumns.trimmed(layout.utf8Slice(amount)), date: date, atStartOfDay: opening)
        }
        return (opening ? lines : lines.reversed()).lazy.compactMap { balanceLine($0, opening: opening) }.first
    }

    /// The range of a match's group of that name in `pattern`.
    private static func group(_ match: Match, _ name: String, _ pattern: Pattern) -> Range<Int>? {
        pattern.groupNumber(named: name).flatMap { match[$0] }
    }

    /// A card's balance as what is owed: negative, unless the statement marks it a credit.
    private static func owed(_ balance: StatementBalance) -> StatementBalance {
        var owed = balance
        let amount = StatementColumns.trimmed(balance.amount)
        if StatementColumns.isMarkedCredit(amount) {
            owed.amount = String(amount.dropLast(2)).trimmingCharacters(in: .whitespaces)
        } else if !amount.hasPrefix("-") {
            owed.amount = "-" + amount
        }
        return owed
    }
}
