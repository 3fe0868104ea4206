import Foundation

extension RecurringPayments {
    /// A line per recurring payment (merchant, cadence, amount, last and next date, since when),
    /// its price changes and missed occurrences under it, and a count at the end.
    public func text() -> String {
        guard !payments.isEmpty else { return "no recurring payment found\n" }
        var out = ""
        for p in payments {
            let amount = MoneyText.display(p.amount, currency: p.currency)
            let what = p.direction == .credit ? "received" : "paid"
            out += "\(p.merchant): \(amount) \(p.cadence.rawValue), \(what) \(p.transactions.count) times since \(p.first), "
                + "last \(p.last), " + (p.active ? "next \(p.next)" : "stopped (none since \(p.last); due \(p.next))")
                + (p.category.map { " [\($0)]" } ?? "") + "\n"
            for change in p.priceChanges {
                out += "  price: \(MoneyText.display(change.from, currency: p.currency)) → "
                    + "\(MoneyText.display(change.to, currency: p.currency)) from \(change.date)\n"
            }
            if !p.missed.isEmpty { out += "  missed: \(p.missed.map(\.description).joined(separator: ", "))\n" }
            out += "  ledger ids: \(p.transactions.map(String.init).joined(separator: " "))\n"
        }
        let active = payments.filter(\.active).count
        out += "\(payments.count) recurring \(payments.count == 1 ? "payment" : "payments"), \(active) still running\n"
        return out
    }

    /// The JSON form, a record per payment: amounts as decimal strings, dates as ISO days.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = Body(as_of: asOf?.description, payments: payments.map(Body.Payment.init))
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The JSON body (`spendlex recurring --format json`, GET /recurring).
    public struct Body: Encodable, Sendable {
        public struct PriceChangeBody: Encodable, Sendable {
            let date: String
            let from: String
            let to: String
        }

        public struct Payment: Encodable, Sendable {
            let merchant: String
            let currency: String
            let direction: String
            let cadence: String
            let amount: String
            let category: String?
            let first: String
            let last: String
            let next: String
            let active: Bool
            let price_changes: [PriceChangeBody]
            let missed: [String]
            let transactions: [Int64]

            enum CodingKeys: String, CodingKey {
                case merchant, currency, direction, cadence, amount, category, first, last, next, active, price_changes,
                     missed, transactions
            }

            // `category` is written as null when there is none, not left out.
            public func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(merchant, forKey: .merchant)
                try c.encode(currency, forKey: .currency)
                try c.encode(direction, forKey: .direction)
                try c.encode(cadence, forKey: .cadence)
                try c.encode(amount, forKey: .amount)
                try c.encode(category, forKey: .category)
                try c.encode(first, forKey: .first)
                try c.encode(last, forKey: .last)
                try c.encode(next, forKey: .next)
                try c.encode(active, forKey: .active)
                try c.encode(price_changes, forKey: .price_changes)
                try c.encode(missed, forKey: .missed)
                try c.encode(transactions, forKey: .transactions)
            }

            init(_ p: RecurringPayments.Payment) {
                merchant = p.merchant
                currency = p.currency
                direction = p.direction.rawValue
                cadence = p.cadence.rawValue
                amount = "\(p.amount)"
                category = p.category
                first = p.first.description
                last = p.last.description
                next = p.next.description
                active = p.active
                price_changes = p.priceChanges.map { PriceChangeBody(date: $0.date.description, from: "\($0.from)", to: "\($0.to)") }
                missed = p.missed.map(\.description)
                transactions = p.transactions
            }
        }

        let as_of: String?
        let payments: [Payment]

        enum CodingKeys: String, CodingKey { case as_of, payments }

        // `as_of` is written as null for an empty ledger, not left out.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(as_of, forKey: .as_of)
            try c.encode(payments, forKey: .payments)
        }

        /// The body of `recurring`.
        public init(_ recurring: RecurringPayments) {
            self.init(as_of: recurring.asOf?.description, payments: recurring.payments.map(Payment.init))
        }

        init(as_of: String?, payments: [Payment]) {
            self.as_of = as_of
            self.payments = payments
        }
    }
}
