import Foundation
import Testing
@testable import SpendlexStore

@Suite("Amounts for people")
struct MoneyDisplayTests {
    @Test("symbols, each locale's grouping and decimal mark, the currency's minor unit", arguments: [
        ("1110000.5", "INR", nil, "₹11,10,000.50"),
        ("1250", "USD", nil, "$1,250.00"),
        ("1234.5", "EUR", "de_DE", "1.234,50 €"),
        ("1500", "JPY", nil, "¥1,500"),
        ("-42.125", "GBP", nil, "-£42.13"),
        ("2408.48", "KES", nil, "Ksh 2,408.48"),
    ] as [(String, String, String?, String)])
    func display(_ amount: String, _ currency: String, _ locale: String?, _ expected: String) {
        let text = MoneyText.display(Decimal(string: amount)!, currency: currency, locale: locale)
        // ICU puts a no-break space between some symbols and the number.
        #expect(text.replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ") == expected)
    }

    @Test("a salary more than twice the largest spending cuts the scale a quarter above the spending")
    func scale() {
        #expect(SVGChart.scale(spending: [100, 400], income: [0, 5000]) == (500, true))
        #expect(SVGChart.scale(spending: [100, 400], income: [0, 700]) == (700, false))
        #expect(SVGChart.scale(spending: [0, 0], income: [0, 900]) == (900, false))
    }
}
