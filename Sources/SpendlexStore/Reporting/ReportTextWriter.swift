import Foundation

/// The report as aligned plain text: each period, then the whole range when there are several.
/// Amounts as people write them, with the currency's symbol and the locale's grouping
/// ("₹10,427.45", "€1.234,50" in de_DE), as the HTML report writes them.
struct ReportTextWriter: Sendable {
    /// The locale amounts are written in; nil: each currency's own (`MoneyText.locale(for:)`).
    var locale: String? = nil

    func render(_ report: LedgerReport) -> String {
        var out = "Spendlex report, by \(report.period.rawValue): \(Self.range(report.total))\n"
        if report.leftOut > 0 {
            out += "\(report.leftOut) transaction\(report.leftOut == 1 ? "" : "s") left out: no amount, currency, date or direction\n"
        }
        if report.periods.isEmpty { return out + "\nNo transactions.\n" }
        for section in report.periods {
            out += "\n" + self.section(section, title: "\(section.label) (\(Self.range(section)))")
        }
        if report.periods.count > 1 {
            out += "\n" + section(report.total, title: "All periods (\(Self.range(report.total)))")
        }
        if let budgets = report.budgets, !budgets.entries.isEmpty {
            out += "\n== " + budgets.text()
        }
        if !report.recurring.isEmpty {
            out += "\n== Recurring payments\n"
            for p in report.recurring {
                let state = p.active ? "next \(p.next)" : "stopped after \(p.last)"
                out += Self.row("  \(p.merchant) (\(p.cadence.rawValue))", [MoneyText.display(p.amount, currency: p.currency, locale: locale), p.currency], count: false)
                    .dropLast() + "  \(state)" + (p.priceChanges.isEmpty ? "" : ", price changed \(p.priceChanges.count)x")
                    + (p.missed.isEmpty ? "" : ", missed \(p.missed.count)") + "\n"
            }
        }
        return out
    }

    static func range(_ section: LedgerReport.Section) -> String {
        switch (section.start, section.end) {
        case let (start?, end?): "\(start) to \(end)"
        case let (start?, nil): "from \(start)"
        case let (nil, end?): "to \(end)"
        case (nil, nil): "all dates"
        }
    }

    func section(_ section: LedgerReport.Section, title: String) -> String {
        var out = "== \(title)\n"
        for c in section.currencies {
            let money = { MoneyText.display($0, currency: c.currency, locale: locale) }
            out += "\n\(c.currency)  income \(money(c.income))  expenses \(money(c.expenses))  net \(money(c.net))"
                + "  transactions \(c.count)"
            if c.transfers != 0 { out += "  transfers \(money(c.transfers))" }
            if c.declined != 0 { out += "  declined \(money(c.declined))" }
            out += "\n"
            if !c.categories.isEmpty {
                out += "  Spending by category\n"
                for category in c.categories {
                    out += Self.row("    " + category.total.name, [money(category.total.amount), "\(category.total.count)"], count: true)
                    for sub in category.subcategories {
                        out += Self.row("      " + sub.name, [money(sub.amount), "\(sub.count)"], count: true)
                    }
                }
            }
            if !c.merchants.isEmpty {
                out += "  Top merchants\n"
                for merchant in c.merchants {
                    out += Self.row("    " + merchant.name, [money(merchant.amount), "\(merchant.count)"], count: true)
                }
            }
            out += Self.row("  Accounts", ["in", "out", "count"], count: true)
            for account in c.accounts {
                out += Self.row("    " + account.name, [money(account.moneyIn), money(account.moneyOut), "\(account.count)"], count: true)
            }
            out += Self.row("  Days", ["income", "expenses"], count: false)
            for day in c.days {
                out += Self.row("    \(day.date)", [money(day.income), money(day.expenses)], count: false)
            }
        }
        return out
    }

    /// A name in 36 columns, then right-aligned cells of 14 columns; with `count`, the last
    /// cell (a count) in 7.
    static func row(_ name: String, _ cells: [String], count: Bool) -> String {
        var line = name.count > 36 ? String(name.prefix(35)) + "…" : name.padding(toLength: 36, withPad: " ", startingAt: 0)
        for (index, cell) in cells.enumerated() {
            let width = count && index == cells.count - 1 ? 7 : 14
            line += String(repeating: " ", count: max(1, width - cell.count)) + cell
        }
        return line + "\n"
    }
}
