import Testing
@testable import SpendlexMail

@Suite("HTML to text")
struct HTMLTextTests {
    @Test(arguments: [
        // Entities: named (HTML 4 and HTML 5), decimal, hex.
        ("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;", "a & b <c> \"d\" 'e'"),
        ("&rsquo;&lsquo;&ldquo;&rdquo;&hellip;&mdash;&ndash;&bull;", "’‘“”…—–•"),
        ("&euro;5 &pound;6 &yen;7 &cent;8 &#8377;9 &#x20B9;10 &#X20b9;11", "€5 £6 ¥7 ¢8 ₹9 ₹10 ₹11"),
        ("&copy; &reg; &trade; &deg; &eacute;&Eacute;&ntilde;&uuml;", "© ® ™ ° éÉñü"),
        ("&check; &star; &NotEqualTilde; &fjlig;", "✓ ☆ ≂̸ fj"),
        ("&#65;&#x42;&#67", "ABC"),  // the semicolon is optional for numeric references
        ("&amp &lt3 &copy2024", "& <3 ©2024"),  // legacy names work without the semicolon
        ("&nosuch; &; & alone &#; &#x;", "&nosuch; &; & alone &#; &#x;"),
        ("&#0; &#xD800; &#x110000; &#128; &#x9D;", "\u{FFFD} \u{FFFD} \u{FFFD} € \u{9D}"),
        // No-break spaces collapse like spaces.
        ("Rs.&nbsp;500 &nbsp;&nbsp; now", "Rs. 500 now"),
        // Whitespace runs collapse, lines are trimmed.
        ("  a \n\t b   c  ", "a b c"),
        // Inline tags join text; block tags break lines.
        ("a<b>b</b><i>c</i> <span>d</span>", "abc d"),
        ("<p>one</p><p>two</p>", "one\n\ntwo"),
        ("<div>one</div><div>two</div>three", "one\ntwo\nthree"),
        ("one<br>two<br/>three<br />four", "one\ntwo\nthree\nfour"),
        ("one<br><br><br><br>two", "one\n\ntwo"),  // at most one blank line
        ("<h1>Title</h1>text<h2>Sub</h2>", "Title\n\ntext\n\nSub"),
        ("<ul><li>a</li><li>b</li></ul>", "a\nb"),
        ("<blockquote>quoted</blockquote>after", "quoted\n\nafter"),
        ("a<hr>b", "a\n\nb"),
        ("<br><p></p><div> </div>text<p></p><br>", "text"),
        // Tables: one row per line, cells separated.
        ("<table><tr><td>Amount</td><td>Rs. 5</td></tr><tr><th>Card</th><td>XX12</td></tr></table>",
         "Amount | Rs. 5\nCard | XX12"),
        ("<table><tr><td></td><td>only</td><td> </td></tr></table>", "only"),
        // A column table (a header row of names over rows of values): one labelled line per cell.
        ("<table><tr><th>Fecha</th><th>Moneda</th><th>Monto</th><th>Comercio</th></tr>"
         + "<tr><td>06/04/2026</td><td>RD</td><td>$925.00</td><td>SAMPLE TIENDA</td></tr></table>",
         "Fecha: 06/04/2026\nMoneda: RD\nMonto: $925.00\nComercio: SAMPLE TIENDA"),
        ("<table><tr><td>Date</td><td>Description</td><td>Amount</td></tr>"
         + "<tr><td>12/11</td><td>SHOP A</td><td>-4.50</td></tr><tr><td>13/11</td><td>SHOP B</td><td>-2.00</td></tr></table>",
         "Date: 12/11\nDescription: SHOP A\nAmount: -4.50\nDate: 13/11\nDescription: SHOP B\nAmount: -2.00"),
        // Not a column table: labels with their colons beside their values; a row with an empty
        // cell (its values would pair with the wrong names); a header with no row of values.
        ("<table><tr><td>Amount:</td><td>SGD 4.00</td></tr><tr><td>Merchant:</td><td>SHOP</td></tr></table>",
         "Amount: | SGD 4.00\nMerchant: | SHOP"),
        ("<table><tr><td>Date</td><td>Merchant</td><td>Amount</td></tr><tr><td>12/11</td><td></td><td>4.50</td></tr></table>",
         "Date | Merchant | Amount\n12/11 | 4.50"),
        ("<table><tr><td>Date</td><td>Merchant</td><td>Amount</td></tr><tr><td>see</td><td>below</td><td>here</td></tr></table>",
         "Date | Merchant | Amount\nsee | below | here"),
        ("<tr><td><table><tr><td>nested</td></tr></table></td><td>cell</td></tr>", "nested\n\ncell"),
        // Dropped: script, style, title, comments, doctype, processing instructions.
        ("<script>var a = '<p>x</p>';</script>text<style>p { color: red }</style>",
         "text"),
        ("<SCRIPT type=x>if (a < b) {}</SCRIPT >visible", "visible"),
        ("<head><title>Title</title><style>x</style></head><body>body</body>", "body"),
        ("<!DOCTYPE html><!-- <p>hidden</p> -->shown<?xml version=\"1.0\"?>", "shown"),
        ("<!-- unclosed comment", ""),
        ("before<script>never closed", "before"),
        // Attributes may hold '>' inside quotes.
        ("<a href=\"x>y\" title='a>b'>link</a> text", "link text"),
        ("<img alt=\"x\" src=x>after", "after"),
        // A '<' that starts no tag is text.
        ("a < b and c<5", "a < b and c<5"),
        ("1 <3", "1 <3"),
        // Preformatted text keeps its whitespace.
        ("<pre>a  b\n  c\n\n\n\nd</pre>e", "a  b\n  c\n\nd\ne"),
        ("", ""),
        ("<p></p>", ""),
    ])
    func converts(_ html: String, _ text: String) {
        #expect(HTMLText.text(fromHTML: html) == text)
    }

    @Test func bytesAndStringsAgree() {
        let html = "<p>caf&eacute; &#8377;5</p><div>\u{20B9} ok</div>"
        #expect(HTMLText.text(fromHTML: Array(html.utf8)) == HTMLText.text(fromHTML: html))
        #expect(HTMLText.text(fromHTML: html) == "café ₹5\n\n₹ ok")
    }

    @Test func aBankAlertLayout() {
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Alert</title>
            <style type="text/css">td{padding:4px}</style></head>
            <body><table width="100%"><tr><td class="hdr">ICICI Bank</td></tr>
            <tr><td><p>Dear Customer,</p><p>INR 4,133.74 spent on ICICI Bank Card XX3733 on 12-Aug-24 at DMART.</p></td></tr>
            <tr><td class="ftr">Never share your OTP.</td></tr></table></body></html>
            """
        #expect(HTMLText.text(fromHTML: html) == """
            ICICI Bank

            Dear Customer,

            INR 4,133.74 spent on ICICI Bank Card XX3733 on 12-Aug-24 at DMART.

            Never share your OTP.
            """)
    }

    @Test func everyHTML4EntityIsKnown() {
        // A sample from each block of the HTML 4 list (Latin-1, symbols, special).
        for name in ["nbsp", "iexcl", "yuml", "fnof", "Alpha", "omega", "thetasym", "bull", "hellip", "prime",
                     "oline", "frasl", "weierp", "image", "real", "trade", "alefsym", "larr", "hArr", "forall",
                     "part", "nabla", "loz", "spades", "hearts", "diams", "OElig", "Scaron", "circ", "tilde",
                     "ensp", "thinsp", "zwnj", "lrm", "rlm", "sbquo", "dagger", "permil", "lsaquo", "euro"] {
            #expect(HTMLEntities.table[name] != nil, "&\(name);")
        }
        #expect(HTMLEntities.table.count == 2125)
    }
}
