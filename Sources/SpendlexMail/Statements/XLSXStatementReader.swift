import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SpendlexEngine
import ZIPFoundation

/// Reads a spreadsheet statement (Office Open XML, `.xlsx`): the workbook's first sheet through
/// ZIPFoundation and Foundation's `XMLParser`, its cells as text (shared strings, inline
/// strings, numbers as stored, errors as Excel shows them, dates by their number format in
/// the workbook's 1900 or 1904 date system, as `yyyy-MM-dd`), then read as a CSV's rows are:
/// the header by a profile or by its names.
enum XLSXStatementReader {
    /// The largest part of the workbook read (a sheet's XML): a year of a busy account is a few MB.
    static let maxPartBytes = 256 << 20

    /// `isFile`: the bytes are the file at `path`, which is then read in place.
    static func read(bytes: [UInt8], path: String, isFile: Bool, options: StatementOptions) throws(StatementError) -> Statement {
        // A ZIP without an end-of-central-directory record is no workbook: said before any reading.
        guard hasEndOfCentralDirectory(bytes) else {
            throw StatementError(path: path, reason: "a ZIP file that cannot be opened: it has no end of central directory (truncated?)")
        }
        // Read from a file, never from memory: ZIPFoundation 0.9.20's in-memory reader traps on a
        // ZIP whose directory points past its end (found by the `statements` fuzz target); reading
        // a file past its end is a short read, which it reports as an error.
        // The statement's own file when the bytes came from one; else a private temporary copy
        // (readable by its owner only: it is someone's bank statement).
        let file: URL
        var copy: URL?
        if isFile {
            file = URL(fileURLWithPath: path)
        } else {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-\(UUID().uuidString).xlsx")
            guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw StatementError(path: path, reason: "cannot make a temporary copy of the workbook in \(temporary.deletingLastPathComponent().path)")
            }
            (file, copy) = (temporary, temporary)
        }
        defer { if let copy { try? FileManager.default.removeItem(at: copy) } }
        let archive: Archive
        do { archive = try Archive(url: file, accessMode: .read) } catch {
            throw StatementError(path: path, reason: "a ZIP file that cannot be opened: \(error)")
        }
        func part(_ name: String) throws(StatementError) -> Data? {
            guard let entry = archive[name] else { return nil }
            guard entry.uncompressedSize <= maxPartBytes else {
                throw StatementError(path: path, reason: "\(name) is \(entry.uncompressedSize) bytes uncompressed, more than a statement holds")
            }
            // The size a ZIP's directory states can lie (a ZIP bomb): the bytes are counted as they come.
            struct TooLarge: Error {}
            var data = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    data.append(chunk)
                    if data.count > maxPartBytes { throw TooLarge() }
                }
            } catch is TooLarge {
                throw StatementError(path: path, reason: "\(name) unpacks to more than \(maxPartBytes >> 20) MiB, more than a statement holds")
            } catch {
                throw StatementError(path: path, reason: "\(name) cannot be read from the workbook: \(error)")
            }
            return data
        }
        guard let workbook = try part("xl/workbook.xml") else {
            throw StatementError(path: path, reason: "a ZIP file that is no spreadsheet (no xl/workbook.xml); export CSV from it")
        }
        let workbookText = String(decoding: workbook, as: UTF8.self)
        let date1904 = workbookText.contains("date1904=\"1\"") || workbookText.contains("date1904=\"true\"")
        let sheetName = try firstSheetPath(archive: archive, workbook: workbookText, path: path)
        guard let sheet = try part(sheetName) else {
            throw StatementError(path: path, reason: "the workbook names \(sheetName), which it does not hold")
        }
        let strings = try part("xl/sharedStrings.xml").map(SharedStrings.read) ?? []
        let dateStyles = try part("xl/styles.xml").map(DateStyles.read) ?? []
        let rows = SheetRows.read(sheet, strings: strings, dateStyles: dateStyles, date1904: date1904)
        guard !rows.isEmpty else { throw StatementError(path: path, reason: "the workbook's first sheet is empty") }
        let profile = try CSVStatementReader.profile(of: rows, path: path, options: options)
        return try CSVStatementReader.read(rows: rows, format: .xlsx, profile: profile, path: path, options: options)
    }

    /// Whether a ZIP's last 64 KiB (and the 22-byte record) hold an end-of-central-directory
    /// record's signature, `PK\u{5}\u{6}`.
    static func hasEndOfCentralDirectory(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 22 else { return false }
        var index = bytes.count - 22
        let stop = max(0, bytes.count - 22 - 0xFFFF)
        while index >= stop {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x05, bytes[index + 3] == 0x06 { return true }
            index -= 1
        }
        return false
    }

    /// `SheetRows.date(serial:date1904:)`, for tests.
    static func serialDate(_ serial: Double, date1904: Bool) -> String? { SheetRows.date(serial: serial, date1904: date1904) }

    /// `SheetRows.column(_:)`, for tests.
    static func columnIndex(_ reference: String) -> Int { SheetRows.column(reference) }

    /// The first sheet's part: by the workbook's relationships when they are there, else
    /// `xl/worksheets/sheet1.xml`.
    static func firstSheetPath(archive: Archive, workbook: String, path: String) throws(StatementError) -> String {
        guard let sheetStart = workbook.range(of: "<sheet "),
              let idStart = workbook[sheetStart.upperBound...].range(of: "r:id=\""),
              let idEnd = workbook[idStart.upperBound...].firstIndex(of: "\""),
              let relations = archive["xl/_rels/workbook.xml.rels"] else { return "xl/worksheets/sheet1.xml" }
        let id = String(workbook[idStart.upperBound..<idEnd])
        var data = Data()
        do { _ = try archive.extract(relations) { data.append($0) } } catch { return "xl/worksheets/sheet1.xml" }
        let text = String(decoding: data, as: UTF8.self)
        for relation in text.components(separatedBy: "<Relationship ").dropFirst() where relation.contains("Id=\"\(id)\"") {
            guard let targetStart = relation.range(of: "Target=\""),
                  let targetEnd = relation[targetStart.upperBound...].firstIndex(of: "\"") else { break }
            let target = String(relation[targetStart.upperBound..<targetEnd])
            return target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
        }
        return "xl/worksheets/sheet1.xml"
    }
}

/// `xl/sharedStrings.xml`: each `<si>`'s text, its rich-text runs joined.
private final class SharedStrings: NSObject, XMLParserDelegate {
    var strings: [String] = []
    private var current: String?
    private var inText = false

    static func read(_ data: Data) -> [String] {
        parsed(data, by: SharedStrings()).strings
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "si": current = ""
        case "t": inText = true
        case "rPh": inText = false  // phonetic runs are not the cell's text
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { current? += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "t": inText = false
        case "si":
            strings.append(current ?? "")
            current = nil
        default: break
        }
    }
}

/// `xl/styles.xml`: for each cell format (`<cellXfs><xf>`), whether its number format shows a date.
private final class DateStyles: NSObject, XMLParserDelegate {
    private var custom: [Int: String] = [:]
    private var formats: [Int] = []
    private var inCellFormats = false

    static func read(_ data: Data) -> [Bool] {
        let reader = parsed(data, by: DateStyles())
        return reader.formats.map { id in
            // Excel's built-in date and date-time formats, and custom ones with day, month or
            // year letters outside quotes and brackets (colours, locales).
            if (14...22).contains(id) || (45...47).contains(id) || (27...36).contains(id) || (50...58).contains(id) { return true }
            guard let code = reader.custom[id] else { return false }
            var quoted = false, bracketed = false
            for character in code.lowercased() {
                switch character {
                case "\"": quoted.toggle()
                case "[": bracketed = true
                case "]": bracketed = false
                case "d", "m", "y": if !quoted && !bracketed { return true }
                default: continue
                }
            }
            return false
        }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "numFmt":
            if let id = attributes["numFmtId"].flatMap(Int.init), let code = attributes["formatCode"] { custom[id] = code }
        case "cellXfs": inCellFormats = true
        case "xf" where inCellFormats: formats.append(attributes["numFmtId"].flatMap(Int.init) ?? 0)
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "cellXfs" { inCellFormats = false }
    }
}

/// A worksheet's rows as text cells, row numbers kept (a missing row is an empty one), cells
/// placed by their references (`C7`), so that a sparse row keeps its columns.
private final class SheetRows: NSObject, XMLParserDelegate {
    private let strings: [String]
    private let dateStyles: [Bool]
    private let date1904: Bool
    var rows: [[String]] = []
    private var row: [String] = []
    private var rowNumber = 0
    private var cell: (column: Int, type: String?, style: Int)?
    private var value = ""
    private var inValue = false

    init(strings: [String], dateStyles: [Bool], date1904: Bool) {
        self.strings = strings
        self.dateStyles = dateStyles
        self.date1904 = date1904
    }

    static func read(_ data: Data, strings: [String], dateStyles: [Bool], date1904: Bool) -> [[String]] {
        parsed(data, by: SheetRows(strings: strings, dateStyles: dateStyles, date1904: date1904)).rows
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "row":
            let number = attributes["r"].flatMap(Int.init) ?? rowNumber + 1
            // Rows the sheet leaves out are empty rows: row numbers stay the sheet's.
            while rows.count < number - 1 { rows.append([]) }
            rowNumber = number
            row = []
        case "c":
            let column = attributes["r"].map(Self.column) ?? row.count
            cell = (column, attributes["t"], attributes["s"].flatMap(Int.init) ?? 0)
            value = ""
        case "v", "t":
            inValue = true
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inValue { value += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "v", "t":
            inValue = false
        case "c":
            guard let (column, type, style) = cell else { return }
            while row.count < column { row.append("") }
            row.append(text(value, type: type, style: style))
            cell = nil
        case "row":
            rows.append(row)
        default:
            break
        }
    }

    /// A cell's text: a shared string by its index, an inline or formula string as it is, a
    /// boolean as TRUE or FALSE, an error as shown (`#VALUE!`), a number in a date format as
    /// `yyyy-MM-dd`, any other number as stored.
    private func text(_ raw: String, type: String?, style: Int) -> String {
        switch type {
        case "s": return Int(raw).flatMap { strings.indices.contains($0) ? strings[$0] : nil } ?? ""
        case "inlineStr", "str", "e": return raw
        case "b": return raw == "1" ? "TRUE" : "FALSE"
        default:
            guard dateStyles.indices.contains(style), dateStyles[style], let serial = Double(raw) else { return raw }
            return Self.date(serial: serial, date1904: date1904) ?? raw
        }
    }

    /// An Excel date serial as `yyyy-MM-dd`: days since 1899-12-30 in the 1900 system (whose
    /// day 60, 29 February 1900, never was: serials after it count from the 30th), since
    /// 1904-01-01 in the 1904 system.
    static func date(serial: Double, date1904: Bool) -> String? {
        let days = Int(serial.rounded(.down))
        guard days >= 1 else { return nil }
        let epoch = date1904 ? (year: 1904, month: 1, day: 1) : (year: 1899, month: 12, day: 30)
        guard let start = LocalDate(year: epoch.year, month: epoch.month, day: epoch.day) else { return nil }
        // In the 1900 system, serials 1 to 59 are a day later than the count says (the phantom leap day comes after).
        let offset = !date1904 && days < 60 ? days + 1 : days
        return LocalDate(daysSinceEpoch: start.daysSinceEpoch + offset)?.description
    }

    /// The 0-based column of a reference (`AB12` → 27).
    static func column(_ reference: String) -> Int {
        var column = 0
        for scalar in reference.unicodeScalars {
            guard ("A"..."Z").contains(scalar) else { break }
            column = column * 26 + Int(scalar.value - 64)
        }
        return max(column - 1, 0)
    }
}

/// `reader` after it has read `data` (as far as the XML goes: a part that breaks off gives what
/// came before the break).
private func parsed<Reader: NSObject & XMLParserDelegate>(_ data: Data, by reader: Reader) -> Reader {
    let parser = XMLParser(data: data)
    parser.delegate = reader
    _ = parser.parse()
    return reader
}
