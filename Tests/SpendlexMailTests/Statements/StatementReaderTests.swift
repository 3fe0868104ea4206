import Foundation
import Testing
@testable import SpendlexEngine
@testable import SpendlexMail
import SpendlexRules
import SpendlexTestSupport

@Suite("Statement readers")
struct StatementReaderTests {
    func read(_ text: String, _ options: StatementOptions = StatementOptions()) throws -> Statement {
        try StatementReader.read(bytes: Array(text.utf8), path: "s", options: options)
    }

    @Test("formats are told from content, not names", arguments: [
        ("OFXHEADER:100\nDATA:OFXSGML\n\n<OFX>\n", StatementFormat.ofx),
        ("<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?>\n<OFX></OFX>", .ofx),
        ("!Type:Bank\nD1/2/2026\nT-1.00\n^\n", .qif),
        (":20:REF\n:25:123\n:60F:C261101EUR1,00\n", .mt940),
        ("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">", .camt053),
        ("Buchungstag;Verwendungszweck;Betrag\n01.11.2026;Miete;-500,00\n", .csv),
    ])
    func detection(text: String, format: StatementFormat) {
        #expect(StatementFormat.detect(text) == format)
    }

    @Test func textWithoutADateAndAmountHeaderIsNoStatement() {
        #expect(StatementFormat.detect("name,email\nAda,ada@example.com\n") == nil)
        #expect(StatementFormat.detect("Dear customer,\nyour statement is attached.") == nil)
    }

    @Test("bytes are decoded as UTF-8, UTF-16 with its mark, else Windows-1252; NUL outside UTF-16 is binary")
    func decoding() {
        #expect(StatementReader.decode([0xEF, 0xBB, 0xBF] + Array("Datum".utf8)) == "Datum")
        #expect(StatementReader.decode([0xFF, 0xFE, 0x44, 0x00, 0xE4, 0x00]) == "Dä")
        #expect(StatementReader.decode([0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72, 0x80]) == "Müller€")
        #expect(StatementReader.decode([0x25, 0x00, 0x01]) == nil)
    }

    @Test("CSV headers are matched folded, in several languages, a currency in a header dropped")
    func csvHeaders() throws {
        let roles = try #require(CSVStatementReader.headerRoles(["Buchungstag", "Verwendungszweck", "Betrag (EUR)", "Währung"]))
        #expect(roles[.date] == 0 && roles[.description] == 1 && roles[.amount] == 2 && roles[.currency] == 3)
        let spanish = try #require(CSVStatementReader.headerRoles(["Fecha operación", "Concepto", "Importe", "Saldo"]))
        #expect(spanish[.date] == 0 && spanish[.description] == 1 && spanish[.amount] == 2 && spanish[.balance] == 3)
        let columns = try #require(CSVStatementReader.headerRoles(["Date", "Details", "Debit (INR)", "Credit (INR)"]))
        #expect(columns[.debit] == 2 && columns[.credit] == 3)
        #expect(CSVStatementReader.headerRoles(["Name", "Email"]) == nil)
    }

    @Test("the order of a numeric date's parts is read from the dates, then the country, then month first")
    func dateOrder() {
        #expect(QIFStatementReader.dateOrder(["03/11/2026", "15/11/2026"], country: nil) == .dayMonthYear)
        #expect(QIFStatementReader.dateOrder(["11/03/2026", "11/15/2026"], country: nil) == .monthDayYear)
        #expect(QIFStatementReader.dateOrder(["2026/11/03"], country: nil) == .yearMonthDay)
        #expect(QIFStatementReader.dateOrder(["03/11/2026"], country: "GB") == .dayMonthYear)
        #expect(QIFStatementReader.dateOrder(["03/11/2026"], country: nil) == .monthDayYear)
    }

    @Test("the decimal mark of a CSV's amounts is read from them")
    func decimalMark() {
        #expect(CSVStatementReader.decimalMark(["-89,00", "3.250,00"]) == .comma)
        #expect(CSVStatementReader.decimalMark(["-5.75", "1,500.00"]) == .point)
        #expect(CSVStatementReader.decimalMark(["12", "7"]) == .auto)
    }

    @Test("MT940 :86: fields: SEPA keys, Germany's ?-numbered subfields, free text")
    func mt940Information() {
        let sepa = MT940StatementReader.informationParts("/TRTP/SEPA INCASSO/NAME/ALBERT HEIJN 1403/REMI/BETALING\n 02-11/")
        #expect(sepa.payee == "ALBERT HEIJN 1403")
        #expect(sepa.description == "BETALING 02-11")
        let gvc = MT940StatementReader.informationParts("005?00LASTSCHRIFT?20Strom November?21Vertrag 4711?32Stadtwerke?33 Muenchen")
        #expect(gvc.payee == "Stadtwerke Muenchen")
        #expect(gvc.description == "Strom November Vertrag 4711")
        #expect(MT940StatementReader.informationParts("HUUR NOVEMBER").payee == nil)
    }

    @Test("an MT940 :61: line: dates, the D/C/RD/RC mark, a funds code, the amount, the references")
    func mt940Line() throws {
        let line = try #require(MT940StatementReader.statementLine(
            "2611021102RDR23,45NMSCREF1//BANK99", information: nil, at: 7, account: "NL91ABNA0417164300", currency: "EUR",
            path: "s", options: StatementOptions(), bic: "abnanl2a"))
        #expect(line.date == "261102" && line.amount == "23,45")
        #expect(line.direction == .credit, "a reversed debit is money back")
        #expect(line.kind == .reversal)
        #expect(line.reference == "REF1")
        #expect(line.id == "mt940:NL91ABNA0417164300:261102:BANK99")
        #expect(MT940StatementReader.statementLine("26110X", information: nil, at: 1, account: nil, currency: nil, path: "s",
                                                   options: StatementOptions(), bic: nil) == nil)
    }

    @Test("the first row whose running balance does not follow is named")
    func runningBalance() throws {
        let text = """
            Date,Description,Amount,Balance
            01/11/2026,Opening deposit,100.00,100.00
            02/11/2026,Coffee,-3.50,96.50
            03/11/2026,Lunch,-12.00,80.00
            04/11/2026,Bus,-2.00,78.00
            """
        let statement = try read(text)
        let worker = RuleEngine(rules: RuleCompiler.compile(RuleSet()).0).makeWorker()
        let rows = statement.entries.compactMap { entry in worker.read(entry).transaction.map { (entry, $0) } }
        let problem = try #require(StatementImport.balanceProblem(statement, rows, path: "s"))
        #expect(problem.hasPrefix("s:4: error: the balances stop adding up here: 96.5 less 12.00 is 84.5, the statement says 80"),
                "\(problem)")
    }

    @Test("newest first, the row where the balances stop adding up in date order is named, with the balance before it")
    func runningBalanceNewestFirst() throws {
        let text = """
            Date,Description,Amount,Balance
            05/11/2026,Bus,-2.00,78.00
            04/11/2026,No balance stated,-1.00,
            03/11/2026,Lunch,-12.00,81.00
            02/11/2026,Coffee,-3.50,96.50
            01/11/2026,Opening deposit,100.00,100.00
            """
        let statement = try read(text)
        let worker = RuleEngine(rules: RuleCompiler.compile(RuleSet()).0).makeWorker()
        let rows = statement.entries.compactMap { entry in worker.read(entry).transaction.map { (entry, $0) } }
        // In date order: 100, 96.5, then 96.5 less 12 is 84.5 where the statement says 81 (row 4);
        // the row after it (80 less 1 less 2 is 78... from 81: 78) adds up.
        let problem = try #require(StatementImport.balanceProblem(statement, rows, path: "s"))
        #expect(problem.hasPrefix("s:4: error: the balances stop adding up here: 96.5 less 12.00 is 84.5, the statement says 81"),
                "\(problem)")
        // Oldest first, the same rows add up to the same verdict.
        let oldestFirst = StatementImport.balanceProblem(statement, rows.reversed(), path: "s")
        #expect(oldestFirst?.hasPrefix("s:4: error: the balances stop adding up here: 96.5 less 12.00 is 84.5, the statement says 81") == true,
                "\(oldestFirst ?? "nil")")
    }

    @Test("a UTF-8 CSV streamed row by row gives what reading it whole gives, in both date orders and with a byte-order mark",
          arguments: ["hdfc-savings.csv", "plain.csv", "ragged.csv", "amex-activity.csv", "umsaetze-latin1.csv", "plain-utf16.csv"])
    func streamingIsReadingWhole(file: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let path = root + "/Tests/Fixtures/statements/" + file
        let profiles = RuleLoader.load(paths: [root + "/rules/statements"]).0.statementProfiles
        let options = StatementOptions(country: "IN", profiles: profiles)
        let whole = try StatementReader.read(path: path, options: options)
        var streamed: [StatementEntry] = []
        let rest = try StatementReader.stream(path: path, options: options) { streamed.append($0) }
        #expect(streamed == whole.entries)
        #expect(rest.skipped == whole.skipped && rest.decimalMark == whole.decimalMark && rest.format == whole.format)
    }

    @Test("a CSV of several chunks, quoted fields across the chunks' ends, streams as it reads whole")
    func streamingAcrossChunks() throws {
        var text = "Date,Description,Amount,Balance\r\n"
        var balance = 0
        for day in 0..<60_000 {
            balance += 7
            // Quoted fields with delimiters, doubled quotes and line breaks, somewhere every chunk.
            let description = day % 997 == 0 ? "\"SHOP \"\"\(day)\"\", AISLE\nTWO\"" : "SHOP \(day)"
            text += "\(String(format: "%02d", day % 28 + 1))/11/2026,\(description),7.00,\(balance).00\r\n"
        }
        let path = TestScratch.root.appendingPathComponent("chunks-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(text.utf8.count > 2 << 20)
        let options = StatementOptions(country: "IN")
        let whole = try StatementReader.read(path: path, options: options)
        var streamed: [StatementEntry] = []
        _ = try StatementReader.stream(path: path, options: options) { streamed.append($0) }
        #expect(streamed.count == 60_000)
        #expect(streamed == whole.entries)
        #expect(streamed[997].description == "SHOP \"997\", AISLE\nTWO")
    }

    @Test("summary rows: a description that is, or starts with, the words of a total or a balance carried")
    func summaryRows() {
        for text in ["Total", "TOTAL:", "Totals", "Grand  Total 1,234.00", "Closing Balance", "balance - brought forward", "Saldo inicial",
                     "summe"] {
            #expect(StatementColumns.isSummary(text), "\(text)")
        }
        for text in ["Totalé", "Totally Wine", "AMAZON", "Balance transfer", "Closing Balances", "Bank fee", "Saldo", "", "Grand"] {
            #expect(!StatementColumns.isSummary(text), "\(text)")
        }
    }

    @Test("a UTF-8 file that ends in a character of several bytes, with no line break, is streamed")
    func lastCharacterOfSeveralBytes() throws {
        let path = TestScratch.root.appendingPathComponent("end-\(UUID().uuidString).csv").path
        try Data("Date,Amount,Description\n2026-11-02,-3.50,Café".utf8).write(to: URL(fileURLWithPath: path))
        #expect(StatementReader.utf8TextHead(path) != nil)
        var streamed: [StatementEntry] = []
        _ = try StatementReader.stream(path: path, options: StatementOptions()) { streamed.append($0) }
        #expect(streamed.map(\.description) == ["Café"])
    }

    @Test func aByteOrderMarkIsNoPartOfTheFirstHeaderCell() throws {
        let path = TestScratch.root.appendingPathComponent("bom-\(UUID().uuidString).csv").path
        try Data([0xEF, 0xBB, 0xBF] + Array("Date,Description,Amount\n2026-11-02,Coffee,-3.50\n".utf8)).write(to: URL(fileURLWithPath: path))
        var streamed: [StatementEntry] = []
        _ = try StatementReader.stream(path: path, options: StatementOptions()) { streamed.append($0) }
        #expect(streamed.map(\.amount) == ["-3.50"])
    }

    @Test("an OFX transaction without an amount is skipped and said; entities decoded")
    func ofxWithoutAmount() throws {
        let statement = try read("""
            OFXHEADER:100

            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP
            <BANKACCTFROM><ACCTID>12345678</BANKACCTFROM>
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261101<FITID>1<NAME>NO AMOUNT</STMTTRN>
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261102<TRNAMT>-9,99<FITID>2<NAME>M&amp;S</STMTTRN>
            </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """)
        #expect(statement.skipped.count == 1 && statement.skipped[0].contains("without TRNAMT"))
        #expect(statement.entries.count == 1)
        #expect(statement.entries.first?.payee == "M&S")
        #expect(statement.entries.first?.amount == "-9.99", "a decimal comma read as OFX allows")
        #expect(statement.entries.first?.currency == "GBP")
    }

    @Test("Excel date serials in the 1900 system (its phantom 29 February) and the 1904 one; column references")
    func spreadsheetDates() {
        #expect(XLSXStatementReader.serialDate(1, date1904: false) == "1900-01-01")
        #expect(XLSXStatementReader.serialDate(59, date1904: false) == "1900-02-28")
        #expect(XLSXStatementReader.serialDate(61, date1904: false) == "1900-03-01")
        #expect(XLSXStatementReader.serialDate(46329.75, date1904: false) == "2026-11-03")
        #expect(XLSXStatementReader.serialDate(44867, date1904: true) == "2026-11-03")
        #expect(XLSXStatementReader.serialDate(0, date1904: false) == nil)
        #expect(XLSXStatementReader.columnIndex("A7") == 0 && XLSXStatementReader.columnIndex("AB12") == 27)
    }

    @Test("a ZIP that is no workbook, and an old or encrypted Excel file, are clear errors")
    func notAWorkbook() {
        #expect(throws: StatementError.self) { try read("PK\u{03}\u{04}not really a zip") }
        do {
            _ = try StatementReader.read(bytes: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], path: "old.xls",
                                         options: StatementOptions())
            Issue.record("an .xls was read")
        } catch {
            #expect(error.reason.contains("old Excel workbook (.xls) or an encrypted one"))
        }
    }
}
