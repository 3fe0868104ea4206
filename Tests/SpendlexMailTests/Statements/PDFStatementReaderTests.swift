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

    @Test("amounts marked CR are credits in a card's one amount column")
    func creditMarks() {
        #expect(StatementColumns.isMarkedCredit("1,250.00 CR"))
        #expect(StatementColumns.isMarkedCredit("300.00Cr"))
        #expect(!StatementColumns.isMarkedCredit("1,250.00"))
        #expect(!StatementColumns.isMarkedCredit("1,250.00 DR"))
    }
}
