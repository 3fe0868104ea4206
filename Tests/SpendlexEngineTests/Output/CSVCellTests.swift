import Testing

@testable import SpendlexEngine

/// CSV cells: quoting, and OWASP's rule against cells a spreadsheet runs as formulas.
@Suite("CSV cells")
struct CSVCellTests {
    @Test("a text cell that starts a formula is prefixed with a quote mark", arguments: [
        (#"=HYPERLINK("http://evil.example","Click")"#, #""'=HYPERLINK(""http://evil.example"",""Click"")""#),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("-2+3", "'-2+3"),
        ("\tTAB", "'\tTAB"),
        ("\rCR", "\"'\rCR\""),
        ("=1,2", "\"'=1,2\""),
    ])
    func neutralized(_ text: String, _ cell: String) {
        #expect(TransactionWriter.csvField(text) == cell)
    }

    @Test("numbers and plain text stay as they are", arguments: [
        "-250.00", "+12", "-1,234.56", "-1.234,56", "1200", "SWIGGY", "", "A=B", "Tom's @home",
    ])
    func unchanged(_ text: String) {
        #expect(TransactionWriter.csvField(text) == (text.contains(",") ? "\"\(text)\"" : text))
    }
}
