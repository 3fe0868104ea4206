import Foundation
import SpendlexEngine

/// The report as one self-contained HTML page: inline CSS, charts as inline SVG, no script,
/// no network, no external file. One block per currency (never mixed) for the whole range,
/// with its charts and tables, then a table of every period.
struct ReportHTMLWriter: Sendable {
    /// The locale amounts are written in (symbols, grouping, decimal mark); nil: each currency's
    /// own (`MoneyText.locale(for:)`).
    var locale: String? = nil

    func render(_ report: LedgerReport) -> String {
        var out = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Spendlex report</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <h1>Spendlex report</h1>
            <p class="sub">By \(report.period.rawValue) &middot; \(Self.escape(ReportTextWriter.range(report.total)))
            """
        if report.leftOut > 0 {
            out += " &middot; \(report.leftOut) transaction\(report.leftOut == 1 ? "" : "s") left out (no amount, currency, date or direction)"
        }
        out += "</p>\n"
        if report.total.currencies.isEmpty { out += "<p>No transactions.</p>\n" }
        for currency in report.total.currencies {
            out += self.currency(currency, periods: report.periods)
        }
        if !report.periods.isEmpty { out += periods(report.periods) }
        if let budgets = report.budgets, !budgets.entries.isEmpty { out += self.budgets(budgets) }
        if !report.recurring.isEmpty { out += recurring(report.recurring) }
        return out + "</body>\n</html>\n"
    }

    static let style = """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1120px;\
        padding:0 16px;color:#1f2933;background:#fff}\
        h1{margin:0 0 4px;font-size:26px}h2{margin:32px 0 12px;font-size:21px;border-bottom:2px solid #e4e7eb;padding-bottom:4px}\
        h3{margin:18px 0 6px;font-size:16px}.sub{color:#616e7c;margin:0 0 16px}\
        .cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #e4e7eb;border-radius:8px;padding:10px 16px;min-width:150px}\
        .card b{display:block;font-size:20px;font-variant-numeric:tabular-nums}.card span{color:#616e7c;font-size:13px}\
        .charts{display:flex;gap:24px;flex-wrap:wrap;margin-top:16px}figure{margin:0}\
        figcaption{font-weight:600;margin-bottom:6px}svg text{font:12px system-ui,sans-serif;fill:#3e4c59}\
        .tables{display:flex;gap:32px;flex-wrap:wrap}table{border-collapse:collapse;margin:6px 0 12px}\
        th,td{padding:3px 10px;border-bottom:1px solid #e4e7eb;text-align:left}\
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.sub{padding-left:26px;color:#616e7c}\
        .in{color:#0a7d4f}.out{color:#b83232}.trend{margin-top:12px;overflow-x:auto}
        """

    /// The budgets on the report's last day: spent, left, used against the period gone.
    func budgets(_ status: BudgetStatus) -> String {
        var out = "<section>\n<h2>Budgets on \(status.day)</h2>\n<table><tr><th>Budget</th><th>Period</th><th class=\"n\">Limit</th>"
            + "<th class=\"n\">Spent</th><th class=\"n\">Left</th><th class=\"n\">Used</th><th class=\"n\">Gone</th><th>State</th></tr>\n"
        for e in status.entries {
            let money = { Self.escape(MoneyText.display($0, currency: e.currency, locale: locale)) }
            out += "<tr><td>\(Self.escape(e.name))</td><td>\(e.label)</td><td class=\"n\">\(money(e.limit + e.carried))</td>"
                + "<td class=\"n\">\(money(e.spent))</td><td class=\"n \(e.left < 0 ? "out" : "in")\">\(money(e.left))</td>"
                + "<td class=\"n\">\(BudgetStatus.percent(e.used))</td><td class=\"n\">\(BudgetStatus.percent(e.elapsed))</td>"
                + "<td>\(e.state)</td></tr>\n"
        }
        return out + "</table>\n</section>\n"
    }

    /// The recurring payments: merchant, cadence, amount, last and next date, price changes, misses.
    func recurring(_ payments: [RecurringPayments.Payment]) -> String {
        var out = "<section>\n<h2>Recurring payments</h2>\n<table><tr><th>Merchant</th><th>Cadence</th><th class=\"n\">Amount</th>"
            + "<th>Last</th><th>Next</th><th>Price changes</th><th>Missed</th></tr>\n"
        for p in payments {
            let changes = p.priceChanges.map {
                "\(MoneyText.display($0.from, currency: p.currency, locale: locale)) → \(MoneyText.display($0.to, currency: p.currency, locale: locale)) (\($0.date))"
            }.joined(separator: "; ")
            out += "<tr><td>\(Self.escape(p.merchant))</td><td>\(p.cadence.rawValue)</td>"
                + "<td class=\"n \(p.direction == .credit ? "in" : "out")\">\(Self.escape(MoneyText.display(p.amount, currency: p.currency, locale: locale)))</td>"
                + "<td>\(p.last)</td><td>\(p.active ? "\(p.next)" : "stopped")</td><td>\(Self.escape(changes))</td>"
                + "<td>\(p.missed.map(\.description).joined(separator: ", "))</td></tr>\n"
        }
        return out + "</table>\n</section>\n"
    }

    func currency(_ c: LedgerReport.CurrencyTotals, periods: [LedgerReport.Section] = []) -> String {
        let money = { Self.escape(MoneyText.display($0, currency: c.currency, locale: locale)) }
        // This currency's figures in each period, in order.
        let own = periods.compactMap { section in
            section.currencies.first { $0.currency == c.currency }.map { (section.label, $0) }
        }
        var out = "<section>\n<h2>\(Self.escape(c.currency))</h2>\n<div class=\"cards\">"
        out += "<div class=\"card\"><span>Income</span><b class=\"in\">\(money(c.income))</b></div>"
        out += "<div class=\"card\"><span>Expenses</span><b class=\"out\">\(money(c.expenses))</b></div>"
        out += "<div class=\"card\"><span>Net</span><b>\(money(c.net))</b></div>"
        out += "<div class=\"card\"><span>Transactions</span><b>\(c.count)</b></div>"
        if c.transfers != 0 { out += "<div class=\"card\"><span>Transfers</span><b>\(money(c.transfers))</b></div>" }
        if c.declined != 0 { out += "<div class=\"card\"><span>Declined</span><b>\(money(c.declined))</b></div>" }
        out += "</div>\n<div class=\"charts\">\n"
        out += "<figure><figcaption>Spending by category</figcaption>\n"
            + SVGChart.bars(c.categories.map { ($0.total.name, $0.total.amount) }, currency: c.currency, locale: locale) + "</figure>\n"
        if own.count > 1 {
            out += "<figure><figcaption>Period over period: expenses (red) and income (green)</figcaption>\n"
                + SVGChart.periods(own.map { ($0.0, $0.1.income, $0.1.expenses) }, currency: c.currency, locale: locale) + "</figure>\n"
        }
        out += "<figure><figcaption>Per day: expenses (red) and income (green)</figcaption>\n"
            + SVGChart.daily(c.days, currency: c.currency, locale: locale) + "</figure>\n</div>\n"
        if own.count > 1 { out += trend(c, own) }
        out += "<div class=\"tables\">\n"
        out += "<div><h3>Categories</h3><table><tr><th>Category</th><th class=\"n\">Spent</th><th class=\"n\">Count</th></tr>\n"
        for category in c.categories {
            out += "<tr><td>\(Self.escape(category.total.name))</td><td class=\"n\">\(money(category.total.amount))</td>"
                + "<td class=\"n\">\(category.total.count)</td></tr>\n"
            for sub in category.subcategories {
                out += "<tr><td class=\"sub\">\(Self.escape(sub.name))</td><td class=\"n\">\(money(sub.amount))</td>"
                    + "<td class=\"n\">\(sub.count)</td></tr>\n"
            }
        }
        out += "</table></div>\n<div><h3>Top merchants</h3><table><tr><th>Merchant</th><th class=\"n\">Spent</th>"
            + "<th class=\"n\">Count</th></tr>\n"
        for merchant in c.merchants {
            out += "<tr><td>\(Self.escape(merchant.name))</td><td class=\"n\">\(money(merchant.amount))</td>"
                + "<td class=\"n\">\(merchant.count)</td></tr>\n"
        }
        out += "</table></div>\n<div><h3>Accounts</h3><table><tr><th>Account</th><th class=\"n\">In</th>"
            + "<th class=\"n\">Out</th><th class=\"n\">Count</th></tr>\n"
        for account in c.accounts {
            out += "<tr><td>\(Self.escape(account.name))</td><td class=\"n in\">\(money(account.moneyIn))</td>"
                + "<td class=\"n out\">\(money(account.moneyOut))</td><td class=\"n\">\(account.count)</td></tr>\n"
        }
        return out + "</table></div>\n</div>\n</section>\n"
    }

    /// The categories that cost most over the range, period by period: the last twelve periods.
    func trend(_ c: LedgerReport.CurrencyTotals, _ own: [(String, LedgerReport.CurrencyTotals)]) -> String {
        let money = { Self.escape(MoneyText.display($0, currency: c.currency, locale: locale)) }
        let shown = own.suffix(12)
        let names = c.categories.prefix(8).map(\.total.name)
        guard !names.isEmpty else { return "" }
        var out = "<div class=\"trend\"><h3>Category trend</h3><table><tr><th>Category</th>"
        for (label, _) in shown { out += "<th class=\"n\">\(Self.escape(label))</th>" }
        out += "</tr>\n"
        for name in names {
            out += "<tr><td>\(Self.escape(name))</td>"
            var previous: Decimal?
            for (_, totals) in shown {
                let amount = totals.categories.first { $0.total.name == name }?.total.amount ?? 0
                // Up or down from the period before, so a trend reads across the row.
                let change = previous.map { amount > $0 ? " class=\"n out\" title=\"up\"" : amount < $0 ? " class=\"n in\" title=\"down\"" : " class=\"n\"" } ?? " class=\"n\""
                out += "<td\(change)>\(amount == 0 ? "–" : money(amount))</td>"
                previous = amount
            }
            out += "</tr>\n"
        }
        return out + "</table></div>\n"
    }

    func periods(_ periods: [LedgerReport.Section]) -> String {
        var out = "<section>\n<h2>Periods</h2>\n<table><tr><th>Period</th><th>Dates</th><th>Currency</th>"
            + "<th class=\"n\">Income</th><th class=\"n\">Expenses</th><th class=\"n\">Net</th><th class=\"n\">Count</th></tr>\n"
        for section in periods {
            for c in section.currencies {
                let money = { Self.escape(MoneyText.display($0, currency: c.currency, locale: locale)) }
                out += "<tr><td>\(Self.escape(section.label))</td><td>\(Self.escape(ReportTextWriter.range(section)))</td>"
                    + "<td>\(Self.escape(c.currency))</td><td class=\"n in\">\(money(c.income))</td>"
                    + "<td class=\"n out\">\(money(c.expenses))</td><td class=\"n\">\(money(c.net))</td>"
                    + "<td class=\"n\">\(c.count)</td></tr>\n"
            }
        }
        return out + "</table>\n</section>\n"
    }

    /// Text safe in HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Charts drawn as SVG text. Amounts stay `Decimal`; only the pixel geometry derived from
/// their ratios is floating point.
enum SVGChart {
    /// A horizontal bar chart, one bar per name; negative amounts (refunds beyond spending) draw no bar.
    static func bars(_ items: [(String, Decimal)], currency: String, locale: String? = nil) -> String {
        let rowHeight = 26.0, labelWidth = 170.0, barWidth = 250.0, valueWidth = 110.0
        let width = labelWidth + barWidth + valueWidth
        let height = max(1, Double(items.count)) * rowHeight + 8
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Spending by category\">\n"
        guard !items.isEmpty else {
            return out + "<text x=\"4\" y=\"18\">No spending.</text>\n</svg>\n"
        }
        let largest = items.map(\.1).max() ?? 0
        for (index, (name, amount)) in items.enumerated() {
            let y = 4 + Double(index) * rowHeight
            let length = largest > 0 && amount > 0 ? max(1, barWidth * ratio(amount, largest)) : 0
            let label = name.count > 24 ? String(name.prefix(23)) + "…" : name
            out += "<text x=\"\(Int(labelWidth) - 8)\" y=\"\(format(y + 17))\" text-anchor=\"end\">\(ReportHTMLWriter.escape(label))</text>"
            out += "<rect x=\"\(Int(labelWidth))\" y=\"\(format(y + 4))\" width=\"\(format(length))\" height=\"\(format(rowHeight - 8))\" "
                + "rx=\"3\" fill=\"#d64545\"><title>\(ReportHTMLWriter.escape(name)): "
                + "\(MoneyText.display(amount, currency: currency, locale: locale))</title></rect>"
            out += "<text x=\"\(format(labelWidth + length + 6))\" y=\"\(format(y + 17))\">"
                + "\(MoneyText.display(amount, currency: currency, locale: locale))</text>\n"
        }
        return out + "</svg>\n"
    }

    /// An area chart of each day's expenses with a line of its income, every day from the first
    /// to the last (days without transactions at zero); at most 3,660 days, the most recent.
    static func daily(_ days: [LedgerReport.DayTotal], currency: String, locale: String? = nil) -> String {
        let width = 520.0, height = 240.0, left = 78.0, right = 12.0, top = 12.0, bottom = 28.0
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Expenses and income per day\">\n"
        guard let first = days.first?.date, let last = days.last?.date else {
            return out + "<text x=\"4\" y=\"18\">No transactions.</text>\n</svg>\n"
        }
        let start = max(first.daysSinceEpoch, last.daysSinceEpoch - 3659)
        let byDay = Dictionary(days.map { ($0.date.daysSinceEpoch, $0) }, uniquingKeysWith: { a, _ in a })
        let series = (start...last.daysSinceEpoch).map { day in
            (day, max(0, byDay[day]?.expenses ?? 0), byDay[day]?.income ?? 0)
        }
        let (largest, clipped) = scale(spending: series.map(\.1), income: series.map(\.2))
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let step = series.count > 1 ? plotWidth / Double(series.count - 1) : 0
        func x(_ index: Int) -> Double { series.count > 1 ? left + Double(index) * step : left + plotWidth / 2 }
        // Pixel coordinates (not money): the amount stays Decimal, only its place on the chart is Double.
        func y(_ amount: Decimal) -> Double {
            largest > 0 ? top + plotHeight * (1 - ratio(min(amount, largest), largest)) : top + plotHeight
        }
        if clipped {
            out += "<text x=\"\(Int(width - right))\" y=\"\(Int(top) + 10)\" text-anchor=\"end\" fill=\"#0a7d4f\">"
                + "income above \(MoneyText.display(largest, currency: currency, locale: locale)) cut at the top ▲</text>\n"
        }

        // Grid and y axis: zero, half, the largest day.
        for fraction in [Decimal(0), Decimal(1) / 2, Decimal(1)] {
            let value = largest * fraction
            let yy = format(y(value))
            out += "<line x1=\"\(Int(left))\" y1=\"\(yy)\" x2=\"\(Int(width - right))\" y2=\"\(yy)\" stroke=\"#e4e7eb\"/>"
            out += "<text x=\"\(Int(left) - 6)\" y=\"\(yy)\" dy=\"4\" text-anchor=\"end\">"
                + "\(MoneyText.display(value, currency: currency, locale: locale))</text>\n"
        }
        let base = format(top + plotHeight)
        if series.count == 1 {
            // One day has no line to draw: a bar of its expenses instead.
            let barTop = y(series[0].1)
            out += "<rect x=\"\(format(x(0) - 12))\" y=\"\(format(barTop))\" width=\"24\" "
                + "height=\"\(format(top + plotHeight - barTop))\" fill=\"#d64545\" fill-opacity=\"0.6\"/>\n"
        }
        var area = "M\(format(x(0))),\(base)"
        var expenses = "", income = ""
        for (index, point) in series.enumerated() {
            area += " L\(format(x(index))),\(format(y(point.1)))"
            expenses += "\(index == 0 ? "M" : " L")\(format(x(index))),\(format(y(point.1)))"
            income += "\(index == 0 ? "M" : " L")\(format(x(index))),\(format(y(point.2)))"
        }
        area += " L\(format(x(series.count - 1))),\(base) Z"
        out += "<path d=\"\(area)\" fill=\"#d64545\" fill-opacity=\"0.22\"/>\n"
        out += "<path d=\"\(expenses)\" fill=\"none\" stroke=\"#d64545\" stroke-width=\"2\"/>\n"
        out += "<path d=\"\(income)\" fill=\"none\" stroke=\"#0a7d4f\" stroke-width=\"2\"/>\n"
        for (index, point) in series.enumerated() where byDay[point.0] != nil {
            let day = byDay[point.0]!
            out += "<circle cx=\"\(format(x(index)))\" cy=\"\(format(y(point.1)))\" r=\"3\" fill=\"#d64545\">"
                + "<title>\(day.date): expenses \(MoneyText.display(day.expenses, currency: currency, locale: locale)), "
                + "income \(MoneyText.display(day.income, currency: currency, locale: locale))</title></circle>\n"
        }
        // Dates on the x axis: the first, the middle and the last day.
        let labelled = Set([0, (series.count - 1) / 2, series.count - 1])
        for index in labelled.sorted() {
            let date = LocalDate(daysSinceEpoch: series[index].0).map(\.description) ?? ""
            let anchor = series.count == 1 ? "middle" : index == 0 ? "start" : index == series.count - 1 ? "end" : "middle"
            out += "<text x=\"\(format(x(index)))\" y=\"\(Int(height) - 8)\" text-anchor=\"\(anchor)\">\(date)</text>\n"
        }
        return out + "</svg>\n"
    }

    /// The top of a chart's scale, and whether income is cut there: when the largest income (a
    /// salary) is more than twice the largest spending, the scale stops a quarter above the
    /// spending, so that one salary cannot flatten every day's or month's spending to nothing; the
    /// chart says so, and each cut point carries its value.
    static func scale(spending: [Decimal], income: [Decimal]) -> (top: Decimal, clipped: Bool) {
        let spent = spending.max() ?? 0, earned = income.max() ?? 0
        if spent > 0, earned > spent * 2 { return (spent * 5 / 4, true) }
        return (max(spent, earned), false)
    }

    /// Grouped bars per period: expenses (red) and income (green), income cut at the top and
    /// labelled where one salary would flatten the spending (`scale`).
    static func periods(_ items: [(String, Decimal, Decimal)], currency: String, locale: String? = nil) -> String {
        let width = 520.0, height = 240.0, left = 92.0, right = 12.0, top = 18.0, bottom = 28.0
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Expenses and income per period\">\n"
        let shown = Array(items.suffix(12))
        let (largest, clipped) = scale(spending: shown.map { max(0, $0.2) }, income: shown.map(\.1))
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        // A bar's height in pixels (not money): see `ratio`.
        func barHeight(of amount: Decimal) -> Double { largest > 0 ? plotHeight * ratio(max(0, min(amount, largest)), largest) : 0 }
        for fraction in [Decimal(0), Decimal(1) / 2, Decimal(1)] {
            let yy = format(top + plotHeight - barHeight(of: largest * fraction))
            out += "<line x1=\"\(Int(left))\" y1=\"\(yy)\" x2=\"\(Int(width - right))\" y2=\"\(yy)\" stroke=\"#e4e7eb\"/>"
            out += "<text x=\"\(Int(left) - 6)\" y=\"\(yy)\" dy=\"4\" text-anchor=\"end\">"
                + "\(MoneyText.display(largest * fraction, currency: currency, locale: locale))</text>\n"
        }
        if clipped {
            out += "<text x=\"\(Int(width - right))\" y=\"11\" text-anchor=\"end\" fill=\"#0a7d4f\">"
                + "income above \(MoneyText.display(largest, currency: currency, locale: locale)) cut at the top ▲</text>\n"
        }
        let slot = plotWidth / Double(max(1, shown.count)), bar = min(28, slot * 0.36)
        for (index, (label, income, expenses)) in shown.enumerated() {
            let center = left + slot * (Double(index) + 0.5)
            for (offset, amount, color, name) in [(-bar - 1, max(0, expenses), "#d64545", "expenses"), (1.0, income, "#0a7d4f", "income")] {
                let h = barHeight(of: amount)
                out += "<rect x=\"\(format(center + offset))\" y=\"\(format(top + plotHeight - h))\" width=\"\(format(bar))\" "
                    + "height=\"\(format(h))\" fill=\"\(color)\"><title>\(ReportHTMLWriter.escape(label)) \(name): "
                    + "\(MoneyText.display(amount, currency: currency, locale: locale))</title></rect>"
                if amount > largest {
                    out += "<text x=\"\(format(center + offset + bar / 2))\" y=\"\(format(top + 10))\" text-anchor=\"middle\" "
                        + "fill=\"#0a7d4f\">▲</text>"
                }
            }
            out += "<text x=\"\(format(center))\" y=\"\(Int(height) - 8)\" text-anchor=\"middle\">\(ReportHTMLWriter.escape(label))</text>\n"
        }
        return out + "</svg>\n"
    }

    /// `part / whole` as a fraction for drawing. Only chart geometry (SVG pixel coordinates) is
    /// `Double`; every amount shown as text stays `Decimal`.
    static func ratio(_ part: Decimal, _ whole: Decimal) -> Double {
        NSDecimalNumber(decimal: part / whole).doubleValue
    }

    /// A coordinate with one decimal.
    static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        return fraction == 0 ? "\(whole)" : "\(tenths < 0 && whole == 0 ? "-" : "")\(whole).\(fraction)"
    }
}
