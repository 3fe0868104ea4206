import Foundation
import Testing
@testable import SpendlexEngine
@testable import SpendlexMail
import SpendlexRules

/// The PDF reader's reading of a page's laid-out text (what `pdftotext -layout` prints), without
/// pdftotext: cells, columns, rows, continuation lines, page furniture and balances. The PDFs
/// themselves are read through the binary in `ImportEndToEndTests`.
@Suite("PDF statement layout")
struct PDFStatementReaderTests {
    func read(_ layout: String, _ options: StatementOptions = StatementOptions(country: "IN")) throws -> Statement {
        try PDFStatementReader.read(layout: layout, path: "s.pdf", options: options)
    }

    @Test("cells are runs of text two spaces or more apart, with their columns")
    func cells() {
        let cells = PDFStatementReader.cells("  Txn Date   Description of it    1,234.00")
        #expect(cells == [
            .init(start: 2, end: 10, text: "Txn Date"), .init(start: 13, end: 30, text: "Description of it"),
            .init(start: 34, end: 42, text: "1,234.00"),
        ])
        #expect(PDFStatementReader.cells("   ").isEmpty)
    }

    @Test("a cell belongs to the header cell it overlaps most: amounts aligned right, text aligned left")
    func columns() {
        let header = PDFStatementReader.cells("Date        Description              Debit      Balance")
        let row = PDFStatementReader.cells("1 Nov 2026  SWIGGY BANGALORE     12,450.00   1,09,550.00")
        #expect(row.map { PDFStatementReader.column(of: $0, in: header) } == [0, 1, 2, 3])
    }

    static let bank = """
        Example Bank
        Account Number : 00001234567890
        Opening Balance as on 01/11/2026 : 1,000.00

        Date         Description                       Debit       Credit      Balance
        01/11/2026   UPI/DR/631845220913/SWIGGY        250.00                    750.00
                     Food order
        03/11/2026   NEFT CR ACME SOFTWARE PVT
                                                                   2,000.00    2,750.00
                     SALARY NOV
        Page 1 of 2
        \u{0C}Date         Description                       Debit       Credit      Balance
        05/11/2026   ATM WDL MG ROAD                   500.00                  2,250.00

        Subtotal                                       750.00      2,000.00
        Closing Balance as on 30/11/2026 : 2,250.00
        """

    @Test("rows, continuation lines (text added, amounts filling empty columns), the header repeated, page furniture")
    func rows() throws {
        let statement = try read(Self.bank)
        #expect(statement.format == .pdf)
        #expect(statement.entries.map(\.description) == [
            "UPI/DR/631845220913/SWIGGY Food order", "NEFT CR ACME SOFTWARE PVT SALARY NOV", "ATM WDL MG ROAD",
        ])
        #expect(statement.entries.map(\.amount) == ["250.00", "2,000.00", "500.00"])
        #expect(statement.entries.map(\.direction) == [.debit, .credit, .debit])
        #expect(statement.entries.map(\.balance) == ["750.00", "2,750.00", "2,250.00"])
        // Lines of the laid-out text: the second row's date line, the third row on page 2.
        #expect(statement.entries.map(\.line) == [6, 8, 13])
        #expect(statement.entries.first?.account == "00001234567890")
        // The subtotal has amounts in money columns and is no row: said, not dropped.
        #expect(statement.skipped == ["s.pdf:15: skipped: page 2: an amount (750.00) on a line that is no row of the table (Subtotal 750.00 2,000.00)"])
        #expect(statement.opening == StatementBalance(amount: "1,000.00", date: "01/11/2026", atStartOfDay: true))
        #expect(statement.closing == StatementBalance(amount: "2,250.00", date: "30/11/2026"))
    }

    /// An Australian bank's layout: the period at the top right, days and months without a year,
    /// signed debits, a closing balance line inside the table, a footer that says it continues.
    static let yearless = """
                                                          Everyday statement.
                                                          Statement period
                                                          01 Oct 25 - 31 Dec 25

                               Ana Ruiz
                               12 HARBOUR ST

              Account name     Everyday                   Opening balance         120.00
              Account number   123456789
                                                          Closing balance    98.40

        Transactions
        Date     Processed   Description       Debits ($)   Credits ($)   Balance ($)

        02-Nov   03-Nov      From: Pat Lee                  40.00         160.00
                             birthday gift
        05-Nov   05-Nov      To: Acc 987654    -21.60                     138.40
        28-Dec   28-Dec      Card purchase     -40.00                     98.40
                             CORNER GROCER
                             Closing Balance                              98.40
        Page 1 of 2 | Statement continues over
                        Account security tips
        """

    @Test("dates without a year are read in the statement period; a closing balance line in the table is no row")
    func yearlessDates() throws {
        let statement = try read(Self.yearless, StatementOptions(country: "AU"))
        #expect(statement.entries.map(\.description) == ["From: Pat Lee birthday gift", "To: Acc 987654", "Card purchase CORNER GROCER"])
        #expect(statement.entries.map(\.dateReference) == Array(repeating: LocalDate(year: 2025, month: 12, day: 31), count: 3))
        #expect(statement.entries.map(\.direction) == [.credit, .debit, .debit])
        #expect(statement.opening?.amount == "120.00")
        #expect(statement.closing?.amount == "98.40")
        #expect(statement.skipped.isEmpty, "\(statement.skipped)")
        let worker = RuleEngine(rules: RuleCompiler.compile(.init()).0).makeWorker()
        #expect(statement.entries.compactMap { worker.read($0).transaction?.date?.description } == ["2025-11-02", "2025-11-05", "2025-12-28"])
        #expect(statement.entries.first?.account == "123456789")
    }

    @Test("a header whose titles wrap over two lines is one header; a profile names it as read")
    func twoLineHeader() throws {
        let layout = """
            Txn          Value        Description              Ref No./Cheque        Debit       Credit      Balance
            Date         Date                                  No.

            1 Nov 2026   1 Nov 2026   TO TRANSFER-UPI/DR/6318  TRANSFER TO 4897      450.00                 24,550.00
            """
        #expect(PDFStatementReader.stacked(PDFStatementReader.cells("Txn          Value        Description"),
                                           PDFStatementReader.cells("Date         Date")).map(\.text)
            == ["Txn Date", "Value Date", "Description"])
        let at = SourceLocation(file: "p.yaml", line: 1, column: 1)
        var profile = StatementProfile(id: Located("two.lines", at: at), location: at)
        profile.header = ["Txn Date", "Value Date", "Description", "Ref No./Cheque No.", "Debit", "Credit", "Balance"]
            .map { Located($0, at: at) }
        profile.columns = [.date: Located("Txn Date", at: at), .description: Located("Description", at: at),
                           .debit: Located("Debit", at: at), .credit: Located("Credit", at: at), .balance: Located("Balance", at: at)]
        let statement = try read(layout, StatementOptions(country: "IN", profiles: [profile]))
        #expect(statement.entries.map(\.amount) == ["450.00"])
        #expect(statement.entries.map(\.description) == ["TO TRANSFER-UPI/DR/6318"])
    }

    @Test("a profile's row pattern reads rows whose columns do not line up; its continuation pattern the lines below")
    func rowPattern() throws {
        let at = SourceLocation(file: "r.yaml", line: 1, column: 1)
        var profile = StatementProfile(id: Located("ragged.pdf", at: at), location: at)
        profile.header = ["Transaction Date", "Details", "Amount"].map { Located($0, at: at) }
        profile.row = Located(#"^(?<date>\d{4}-\d{2}-\d{2})\s+(?<description>.+?)\s+(?<amount>[\d,]+\.\d{2} (?:DR|CR))\s*$"#, at: at)
        profile.continuation = Located(#"^\s+(?<description>\S.*)$"#, at: at)
        profile.country = "US"
        let statement = try read("""
            Transaction Date   Details                               Amount
            2026-11-02 Coffee at Blue Bottle 4.50 DR
            2026-11-03 Salary ACME   2,000.00 CR
              November payroll
            Total 2,004.50
            """, StatementOptions(profiles: [profile]))
        #expect(statement.entries.map(\.description) == ["Coffee at Blue Bottle", "Salary ACME November payroll"])
        #expect(statement.entries.map(\.amount) == ["4.50 DR", "2,000.00 CR"])
        #expect(statement.entries.map(\.line) == [2, 3])
        #expect(statement.skipped == ["s.pdf:5: skipped: page 1: an amount on a line that is no row of the table (Total 2,004.50)"])
        let worker = RuleEngine(rules: RuleCompiler.compile(.init()).0).makeWorker()
        #expect(statement.entries.compactMap { worker.read($0).transaction?.direction } == [.debit, .credit])
    }

    @Test("a time under the date, and a reference under the payee, continue the row")
    func wallet() throws {
        let statement = try read("""
            Date & Time       Transaction Details                      Amount
            02 Nov 2026       Paid to Chai Point                       - Rs.85
            09:14 AM          UPI Ref No: 630612345678

            05 Nov 2026       Received from Rahul Sharma           + Rs.1,200
            06:40 PM          UPI Ref No: 630987654321
            """, StatementOptions(country: "IN", profiles: [Self.walletProfile]))
        #expect(statement.entries.map(\.date) == ["02 Nov 2026", "05 Nov 2026"])
        #expect(statement.entries.map(\.description) == [
            "Paid to Chai Point UPI Ref No: 630612345678", "Received from Rahul Sharma UPI Ref No: 630987654321",
        ])
        #expect(statement.skipped.isEmpty)
    }

    static var walletProfile: StatementProfile {
        let at = SourceLocation(file: "w.yaml", line: 1, column: 1)
        var profile = StatementProfile(id: Located("wallet", at: at), location: at)
        profile.header = ["Date & Time", "Transaction Details", "Amount"].map { Located($0, at: at) }
        profile.columns = [.date: Located("Date & Time", at: at), .description: Located("Transaction Details", at: at),
                           .amount: Located("Amount", at: at)]
        profile.country = "IN"
        return profile
    }

    @Test("a card's balances are what is owed: negative, a credit balance positive; a profile's patterns find them")
    func cardBalances() throws {
        var profile = Self.walletProfile
        profile.accountType = "card"
        profile.sign = .positiveIsDebit
        let at = profile.location
        profile.openingBalance = Located(#"Previous Balance[^\n]*\n\s*(?<amount>[\d,]+\.\d{2}(?: CR)?)"#, at: at)
        profile.closingBalance = Located(#"Total Due[^\n]*\n\s*\S+\s+(?<amount>[\d,]+\.\d{2}(?: CR)?)"#, at: at)
        let statement = try read("""
              Previous Balance      Total Due
              1,200.00              50.00 CR
            Date & Time       Transaction Details                      Amount
            02 Nov 2026       PAYMENT RECEIVED                    1,250.00 CR
            """, StatementOptions(country: "IN", profiles: [profile]))
        #expect(statement.entries.map(\.direction) == [.credit])
        #expect(statement.opening?.amount == "-1,200.00")
        #expect(statement.closing?.amount == "50.00")
    }

    @Test("a line stating a balance is found before the rows (opening) and after them (closing)")
    func balanceLines() {
        #expect(PDFStatementReader.balanceLine("Balance as on 1 Nov 2026 : 25,000.00", opening: true)
            == StatementBalance(amount: "25,000.00", date: "1 Nov 2026", atStartOfDay: true))
        #expect(PDFStatementReader.balanceLine("Closing Balance   12,345.67 Cr", opening: false)?.amount == "12,345.67 Cr")
        #expect(PDFStatementReader.balanceLine("Opening Balance", opening: true) == nil)
        #expect(PDFStatementReader.balanceLine("Minimum Amount Due : 440.00", opening: false) == nil)
    }

    @Test("text without a table header, or a table without rows, is a clear error")
    func noTable() {
        #expect(throws: StatementError.self) { try read("Dear customer,\nyour statement is attached.\n") }
        #expect(throws: StatementError.self) { try read("Date    Description    Amount\n\nNo transactions this month\n") }
    }

    @Test("a money column's cell is money when the amount normalizer reads it")
    func moneyCells() {
        for text in ["1,234.56", "- Rs.85", "+ Rs.1,200", "300.00 CR", "€12,50", "750"] {
            #expect(PDFStatementReader.isMoney(text), "\(text)")
        }
        for text in ["Page 1 of 2", "Balance", "", "12 Nov 2026"] {
            #expect(!PDFStatementReader.isMoney(text), "\(text)")
        }
    }

    @Test("amounts marked CR are credits in a card's one amount column")
    func creditMarks() {
        #expect(StatementColumns.isMarkedCredit("1,250.00 CR"))
        #expect(StatementColumns.isMarkedCredit("300.00Cr"))
        #expect(!StatementColumns.isMarkedCredit("1,250.00"))
        #expect(!StatementColumns.isMarkedCredit("1,250.00 DR"))
    }
}
