import Foundation

/// The report as one JSON document, keys sorted; amounts are exact decimal strings
/// ("10290", "-2.00"), never JSON numbers, so no reader turns them into floating point.
struct ReportJSONWriter: Sendable {
    func render(_ report: LedgerReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value is a string, a number of transactions or an array of them: encoding cannot fail.
        let data = (try? encoder.encode(Document(report))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private struct Document: Encodable {
        let period: String
        let from: String?
        let to: String?
        let left_out: Int
        let periods: [Section]
        let total: Section
        let recurring: [RecurringPayments.Body.Payment]
        let budgets: BudgetStatus.Body?

        init(_ r: LedgerReport) {
            budgets = r.budgets.map(BudgetStatus.Body.init)
            recurring = r.recurring.map(RecurringPayments.Body.Payment.init)
            period = r.period.rawValue
            from = r.from?.description
            to = r.to?.description
            left_out = r.leftOut
            periods = r.periods.map(Section.init)
            total = Section(r.total)
        }
    }

    private struct Section: Encodable {
        let label: String
        let start: String?
        let end: String?
        let currencies: [Currency]

        init(_ s: LedgerReport.Section) {
            label = s.label
            start = s.start?.description
            end = s.end?.description
            currencies = s.currencies.map(Currency.init)
        }
    }

    private struct Currency: Encodable {
        let currency: String
        let income, expenses, net, transfers, declined: String
        let count: Int
        let categories: [Category]
        let top_merchants: [Named]
        let days: [Day]
        let accounts: [Account]

        init(_ c: LedgerReport.CurrencyTotals) {
            currency = c.currency
            income = "\(c.income)"
            expenses = "\(c.expenses)"
            net = "\(c.net)"
            transfers = "\(c.transfers)"
            declined = "\(c.declined)"
            count = c.count
            categories = c.categories.map(Category.init)
            top_merchants = c.merchants.map(Named.init)
            days = c.days.map { Day(date: $0.date.description, income: "\($0.income)", expenses: "\($0.expenses)") }
            accounts = c.accounts.map {
                Account(name: $0.name, money_in: "\($0.moneyIn)", money_out: "\($0.moneyOut)", count: $0.count)
            }
        }
    }

    private struct Named: Encodable {
        let name: String
        let amount: String
        let count: Int

        init(_ n: LedgerReport.NamedTotal) {
            name = n.name
            amount = "\(n.amount)"
            count = n.count
        }
    }

    private struct Category: Encodable {
        let name: String
        let amount: String
        let count: Int
        let subcategories: [Named]

        init(_ c: LedgerReport.CategoryTotal) {
            name = c.total.name
            amount = "\(c.total.amount)"
            count = c.total.count
            subcategories = c.subcategories.map(Named.init)
        }
    }

    private struct Day: Encodable {
        let date, income, expenses: String
    }

    private struct Account: Encodable {
        let name, money_in, money_out: String
        let count: Int
    }
}
