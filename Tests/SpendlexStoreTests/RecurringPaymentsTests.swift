import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore

/// Recurring payments in a generated year of a person's transactions: planted subscriptions
/// (monthly, one with a price rise, one with a skipped month; yearly; quarterly; a weekly one) among
/// ordinary shopping (groceries, food delivery, shopping at the same merchant as a subscription,
/// a purchase that repeats its amount now and then), which must not come out as recurring.
@Suite("Recurring payments")
struct RecurringPaymentsTests {
    static func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }

    /// The generated year: 2025-12-01 to 2026-11-30, and a yearly renewal on 2025-11-20.
    static func year(seed: UInt64) -> [StoredTransaction] {
        var random = SeededGenerator(state: seed)
        var rows: [StoredTransaction] = []
        func add(_ merchant: String, _ amount: Decimal, _ date: LocalDate, direction: Direction = .debit, kind: TransactionKind? = .purchase) {
            var t = StoredTransaction.sample(id: Int64(rows.count + 1), merchant: merchant, amount: amount, date: date)
            t.direction = direction
            t.kind = kind
            rows.append(t)
        }
        let start = day("2025-12-01")
        // Netflix, monthly on the 5th (a day later when it falls on a weekend: day shifts), 649 then 799 from June.
        for month in 0..<12 {
            let due = RecurringPayments.step(day("2025-12-05"), .monthly, times: month)
            add(month % 4 == 3 ? "NETFLIX.COM" : "Netflix", month < 6 ? 649 : 799, due.adding(days: month % 3 == 0 ? 1 : 0)!)
        }
        // Spotify, monthly on the 20th, skipped in March.
        for month in 0..<12 where month != 3 {
            add("DL*SPOTIFY", 119, RecurringPayments.step(day("2025-12-20"), .monthly, times: month))
        }
        // Amazon Prime, yearly, among Amazon shopping: renewed in November, so the year's mail
        // (and the fortnight before it, as a mailbox export rarely starts on the 1st) holds it twice.
        add("AMAZON", 1499, day("2025-11-20"))
        add("AMAZON", 1499, day("2026-11-20"))
        // YouTube Premium among Google Play purchases, monthly, 129 then 149 from September.
        for month in 0..<12 { add("GOOGLE", month < 9 ? 129 : 149, RecurringPayments.step(day("2025-12-12"), .monthly, times: month)) }
        for offset in [17, 60, 61, 200, 280] { add("GOOGLE", Decimal(offset * 3 + 49), start.adding(days: offset)!) }
        // A gym, quarterly.
        for quarter in 0..<4 { add("CULT FIT", 4500, RecurringPayments.step(day("2025-12-02"), .quarterly, times: quarter)) }
        // A weekly paper delivery, every Sunday.
        for week in 0..<52 { add("NEWSPAPER AGENCY", 60, start.adding(days: 6 + 7 * week)!) }
        // The salary, a credit on the last working day of each month or so.
        for month in 0..<12 {
            add("ACME PAYROLL", 85000, RecurringPayments.step(day("2025-12-28"), .monthly, times: month), direction: .credit, kind: .salary)
        }

        // Ordinary shopping: random days, random amounts.
        for _ in 0..<140 {
            let merchant = ["BIG BAZAAR", "SWIGGY", "ZOMATO", "AMAZON", "FLIPKART", "DMART", "UBER", "STARBUCKS"].randomElement(using: &random)!
            let cents = Decimal(Int.random(in: 8000...450000, using: &random)) / 100
            add(merchant, cents, start.adding(days: Int.random(in: 0..<365, using: &random))!)
        }
        // A coffee of the same price bought now and then: like amounts, no cadence.
        for offset in [3, 11, 40, 41, 97, 150, 151, 152, 230, 300] { add("BLUE TOKAI", 250, start.adding(days: offset)!) }
        // A cancelled subscription: monthly until May, none after.
        for month in 0..<6 { add("HOTSTAR", 299, RecurringPayments.step(day("2025-12-15"), .monthly, times: month)) }
        return rows
    }

    @Test("every planted subscription is found, with its cadence, price change and missed month; ordinary shopping is not", arguments: [1, 2, 3] as [UInt64])
    func plantedYear(seed: UInt64) throws {
        let found = RecurringPayments(transactions: Self.year(seed: seed))
        let byMerchant = Dictionary(grouping: found.payments) { RecurringPayments.merchantKey($0.merchant)! }
        #expect(Set(byMerchant.keys) == ["NETFLIX", "SPOTIFY", "AMAZON", "CULTFIT", "NEWSPAPERAGENCY", "ACMEPAYROLL", "HOTSTAR", "GOOGLE"],
                "\(found.payments.map { "\($0.merchant) \($0.cadence) \($0.amount)" })")
        #expect(found.payments.count == 8)

        let netflix = try #require(byMerchant["NETFLIX"]?.first)
        #expect(netflix.cadence == .monthly)
        #expect(netflix.amount == 799)
        #expect(netflix.transactions.count == 12)
        #expect(netflix.priceChanges == [.init(date: Self.day("2026-06-06"), from: 649, to: 799)])  // June's fell a day late
        #expect(netflix.missed.isEmpty)
        #expect(netflix.next == Self.day("2026-12-05"))

        let spotify = try #require(byMerchant["SPOTIFY"]?.first)
        #expect(spotify.cadence == .monthly)
        #expect(spotify.missed == [Self.day("2026-03-20")])
        #expect(spotify.transactions.count == 11)

        let prime = try #require(byMerchant["AMAZON"]?.first)
        #expect(prime.cadence == .yearly)
        #expect(prime.amount == 1499)
        #expect(prime.transactions.count == 2)
        #expect(prime.next == Self.day("2027-11-20"))

        #expect(byMerchant["CULTFIT"]?.first?.cadence == .quarterly)
        #expect(byMerchant["NEWSPAPERAGENCY"]?.first?.cadence == .weekly)
        #expect(byMerchant["ACMEPAYROLL"]?.first?.direction == .credit)
        // A cancelled subscription is found and said to have stopped; the rest still run.
        #expect(byMerchant["HOTSTAR"]?.first?.active == false)
        #expect(found.payments.filter(\.active).count == 7)
        let youtube = try #require(byMerchant["GOOGLE"]?.first)
        #expect(youtube.transactions.count == 12)
        #expect(youtube.priceChanges.map(\.to) == [149])
        #expect(found.payments.last?.merchant == "HOTSTAR")
    }

    @Test("a month's step keeps the day of the month, clamped to the month's length")
    func calendarSteps() {
        #expect(RecurringPayments.step(Self.day("2026-01-31"), .monthly, times: 1) == Self.day("2026-02-28"))
        #expect(RecurringPayments.step(Self.day("2026-11-30"), .quarterly, times: 1) == Self.day("2027-02-28"))
        #expect(RecurringPayments.step(Self.day("2024-02-29"), .yearly, times: 1) == Self.day("2025-02-28"))
        #expect(RecurringPayments.step(Self.day("2026-11-25"), .weekly, times: 2) == Self.day("2026-12-09"))
    }

    @Test("merchants are one when only case, punctuation, a web ending or a processor's prefix differ")
    func merchantKeys() {
        #expect(RecurringPayments.merchantKey("NETFLIX.COM") == RecurringPayments.merchantKey("Netflix"))
        #expect(RecurringPayments.merchantKey("PYU*Spotify") == "SPOTIFY")
        #expect(RecurringPayments.merchantKey("Café Coffee Day") == "CAFECOFFEEDAY")
        #expect(RecurringPayments.merchantKey("***") == nil)
    }
}

extension StoredTransaction {
    /// A stored debit of `amount` INR at `merchant` on `date`, for tests.
    static func sample(id: Int64, merchant: String, amount: Decimal, date: LocalDate, currency: String = "INR") -> StoredTransaction {
        var t = StoredTransaction(
            id: id, messageID: "m\(id)", messageChannel: .sms, sender: nil, receivedAt: nil, file: nil, offset: nil,
            rule: "test", bank: "hdfc", direction: .debit, kind: .purchase, amount: amount, amountText: "\(amount)",
            currency: currency, date: date, time: nil, merchant: merchant,
            account: .init(type: "card", last4: "1234"), balance: nil, balanceText: nil, reference: nil, channel: "card",
            category: nil, subcategory: nil, confidence: 1, status: .ok, idempotencyKey: "k\(id)", duplicateOf: nil,
            duplicateReason: nil)
        t.merchantRaw = merchant
        return t
    }
}
