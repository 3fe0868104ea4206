import Foundation
import GRDB
import Testing
@testable import SpendlexEngine
import SpendlexRules
@testable import SpendlexStore
import SpendlexTestSupport

/// A transaction as the engine would build it, with only the fields a test cares about.
func transaction(_ id: String, channel: MessageChannel = .sms, received: String? = nil, bank: String = "hdfc",
                 amount: String = "250.00", currency: String = "INR", direction: Direction = .debit,
                 date: String? = "2026-11-20", time: String? = nil, merchant: String? = "SWIGGY",
                 last4: String? = "1234", reference: String? = nil, balance: String? = nil) -> Transaction {
    let day = date.flatMap { text -> LocalDate? in
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return LocalDate(year: parts[0], month: parts[1], day: parts[2])
    }
    let clock = time.flatMap { text -> LocalTime? in
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return LocalTime(hour: parts[0], minute: parts[1], second: parts.count > 2 ? parts[2] : 0)
    }
    return Transaction(
        messageID: id, messageChannel: channel, sender: nil, receivedAt: received.flatMap(parseTimestamp),
        file: nil, offset: nil, rule: "\(bank).test", bank: bank, direction: direction, kind: .purchase,
        amount: Decimal(string: amount), amountText: amount, currency: currency, date: day, time: clock,
        merchant: merchant, account: last4.map { .init(type: "card", last4: $0) }, balance: balance,
        reference: reference, channel: "card", category: nil, subcategory: nil, confidence: 1,
        confidenceParts: Confidence(), status: .ok, idempotencyKey: "key-\(id)", duplicateOf: nil)
}

func record(_ t: Transaction) -> MessageRecord {
    MessageRecord(id: t.messageID, channel: t.messageChannel, receivedAt: t.receivedAt, status: .transaction,
                  rule: t.rule, reason: "transaction by \(t.rule)", transaction: t)
}

/// A fresh ledger in a temporary folder.
func makeLedger() throws -> (Ledger, String) {
    let folder = TestScratch.root.appendingPathComponent("ledger-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("ledger.sqlite").path
    return (try Ledger(path: path), path)
}

struct Row: Equatable {
    let message: String
    let duplicateOf: String?
    let reason: String?
}

/// Every transaction with the message id of the one it duplicates.
func links(_ ledger: Ledger) throws -> [Row] {
    try ledger.pool.read { db in
        try GRDB.Row.fetchAll(db, sql: """
            SELECT t.message_id, p.message_id AS primary_message, t.duplicate_reason
            FROM transactions t LEFT JOIN transactions p ON p.id = t.duplicate_of ORDER BY t.id
            """).map { Row(message: $0["message_id"], duplicateOf: $0["primary_message"], reason: $0["duplicate_reason"]) }
    }
}

@Suite("Ledger")
struct LedgerTests {
    @Test func migrationsCreateTheTablesAndReopeningChangesNothing() throws {
        let (ledger, path) = try makeLedger()
        let tables = try ledger.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for table in ["accounts", "import_runs", "mapping_stats", "messages", "transactions"] {
            #expect(tables.contains(table))
        }
        let mode = try ledger.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        _ = try Ledger(path: path)
    }

    @Test func writingTheSameMessagesTwiceAddsNothing() throws {
        let (ledger, _) = try makeLedger()
        let batch = [record(transaction("a")), MessageRecord(id: "b", status: .ignored, rule: "hdfc.ignore.1")]
        try ledger.write(batch, run: nil)
        try ledger.write(batch, run: nil)
        #expect(try links(ledger).count == 1)
        #expect(try ledger.processedMessageIDs() == ["a", "b"])
        let accounts = try ledger.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM accounts") }
        #expect(accounts == 1)
    }

    /// A new ledger's pages are 16 KiB (set before WAL mode, which fixes them); an account a run
    /// stored is the account of a later run's transactions on the same card (the later run's
    /// ledger knows no account ids yet), and a card kind told then is kept on it.
    @Test func aLaterRunFindsTheAccountAnEarlierOneStored() throws {
        let (first, path) = try makeLedger()
        let pageSize = try first.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        #expect(pageSize == Ledger.pageSize)
        try first.write([record(transaction("a"))], run: nil)
        let later = try Ledger(path: path)
        var told = transaction("b", amount: "99.00", merchant: "ZOMATO")
        told.account = .init(accountType: "card", last4: "1234", cardKind: .credit)
        try later.write([record(told), record(transaction("c", amount: "12.00", last4: "5678"))], run: nil)
        let rows = try later.pool.read { db in
            try GRDB.Row.fetchAll(db, sql: """
                SELECT t.message_id, a.mask, a.card_kind, a.id FROM transactions t JOIN accounts a ON a.id = t.account_id
                ORDER BY t.message_id
                """).map { "\($0["message_id"] as String) \($0["mask"] as String) \(($0["card_kind"] as String?) ?? "-") \($0["id"] as Int64)" }
        }
        #expect(rows == ["a 1234 credit 1", "b 1234 credit 1", "c 5678 - 2"])
    }

    @Test func aMessageReadTwiceInOneRunIsStoredOnce() throws {
        let (ledger, _) = try makeLedger()
        let counts = try ledger.write([record(transaction("a")), record(transaction("a"))], run: nil)
        #expect(counts.messages == 1 && counts.transactions == 1)
        #expect(try links(ledger).count == 1)
    }

    @Test func anSMSAndAnEmailAboutOnePurchaseAreLinked() throws {
        let (ledger, _) = try makeLedger()
        let sms = transaction("sms-1", channel: .sms, received: "2026-11-20T10:02:00Z", amount: "1250",
                              merchant: "WHOLEFDS MKT 10234")
        let email = transaction("mail-1", channel: .email, received: "2026-11-20T10:06:30Z", amount: "1,250.00".replacingOccurrences(of: ",", with: ""),
                                time: "15:31", merchant: "Whole Foods Market", balance: "8000.00")
        let counts = try ledger.write([record(sms), record(email)], run: nil)
        #expect(counts.duplicates == 1)
        let rows = try links(ledger)
        // The email has more fields (time, balance): it is the primary.
        #expect(rows.first { $0.message == "mail-1" }?.duplicateOf == nil)
        let linked = try #require(rows.first { $0.message == "sms-1" })
        #expect(linked.duplicateOf == "mail-1")
        #expect(linked.reason?.contains("by email and sms") == true || linked.reason?.contains("by sms and email") == true)
    }

    @Test func twoIdenticalCoffeesAnHourApartStayTwo() throws {
        let (ledger, _) = try makeLedger()
        let first = transaction("c1", received: "2026-11-20T08:00:00Z", amount: "4.50", time: "08:00", merchant: "STARBUCKS")
        let second = transaction("c2", received: "2026-11-20T09:00:00Z", amount: "4.50", time: "09:00", merchant: "STARBUCKS")
        #expect(try ledger.write([record(first), record(second)], run: nil).duplicates == 0)
        // Without a time in the text, an hour between arrivals still keeps them apart.
        let third = transaction("c3", received: "2026-11-20T10:00:00Z", amount: "4.50", time: nil, merchant: "STARBUCKS")
        let fourth = transaction("c4", received: "2026-11-20T11:00:00Z", amount: "4.50", time: nil, merchant: "STARBUCKS")
        #expect(try ledger.write([record(third), record(fourth)], run: nil).duplicates == 0)
        #expect(try links(ledger).allSatisfy { $0.duplicateOf == nil })
    }

    @Test func twoSMSAboutTwoRealTransfersStayTwo() throws {
        let (ledger, _) = try makeLedger()
        let a = transaction("t1", received: "2026-11-20T08:00:00Z", merchant: "RAVI", reference: "631845220913")
        let b = transaction("t2", received: "2026-11-20T08:01:00Z", merchant: "RAVI", reference: "631845220914")
        #expect(try ledger.write([record(a), record(b)], run: nil).duplicates == 0)
    }

    @Test func theSameReferenceTwiceIsOneTransaction() throws {
        let (ledger, _) = try makeLedger()
        let a = transaction("r1", channel: .sms, received: "2026-11-20T08:00:00Z", reference: "631845220913")
        let b = transaction("r2", channel: .sms, received: "2026-11-21T09:00:00Z", merchant: "Swiggy Ltd",
                            reference: "631845220913")
        #expect(try ledger.write([record(a), record(b)], run: nil).duplicates == 1)
        #expect(try links(ledger).last == Row(message: "r2", duplicateOf: "r1", reason: "same hdfc reference 631845220913"))
    }

    @Test func differentAccountsOrAmountsAreNeverLinked() throws {
        let (ledger, _) = try makeLedger()
        let sms = transaction("s", channel: .sms, received: "2026-11-20T10:00:00Z", last4: "1234")
        let otherCard = transaction("e1", channel: .email, received: "2026-11-20T10:01:00Z", last4: "9999")
        let otherAmount = transaction("e2", channel: .email, received: "2026-11-20T10:01:00Z", amount: "251.00")
        let tooLate = transaction("e3", channel: .email, received: "2026-11-20T11:00:00Z")
        #expect(try ledger.write([record(sms), record(otherCard), record(otherAmount), record(tooLate)], run: nil)
            .duplicates == 0)
    }

    @Test func reprocessingUpdatesInPlaceAndKeepsAUsersCategory() throws {
        let (ledger, _) = try makeLedger()
        try ledger.write([record(transaction("a", merchant: "SWIGY"))], run: nil)
        try ledger.pool.write { db in
            try db.execute(sql: "UPDATE transactions SET category = 'Food & Dining', category_source = 'user'")
        }
        var fixed = transaction("a", merchant: "SWIGGY")
        fixed.category = "Shopping"
        try ledger.write([record(fixed)], run: nil, reprocess: true)
        let row = try ledger.pool.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT merchant, category, count(*) AS n FROM transactions")
        }
        let merchant: String? = row?["merchant"]
        let category: String? = row?["category"]
        let count: Int? = row?["n"]
        #expect(merchant == "SWIGGY" && category == "Food & Dining" && count == 1)
        // A message that no longer parses loses its transaction; the message stays, as unmatched.
        try ledger.write([MessageRecord(id: "a", status: .unmatched)], run: nil, reprocess: true)
        #expect(try links(ledger).isEmpty)
        #expect(try ledger.processedMessageIDs() == ["a"])
    }

    @Test func runsAreRecordedWithTheirCounts() throws {
        let (ledger, _) = try makeLedger()
        let run = try ledger.beginRun(inputs: ["inbox.mbox"])
        var counts = try ledger.write([record(transaction("a")), MessageRecord(id: "b", status: .error, reason: "bad")],
                                      run: run)
        counts.skipped = 3
        try ledger.finishRun(run, counts: counts)
        let row = try ledger.pool.read { db in try GRDB.Row.fetchOne(db, sql: "SELECT * FROM import_runs") }
        let numbers: [Int?] = ["messages", "transactions", "errors", "skipped"].map { row?[$0] }
        #expect(numbers == [2, 1, 1, 3])
        #expect((row?["finished_at"] as String?) != nil)
    }
}

@Suite("Ledger categories")
struct LedgerCategoryTests {
    /// A stand-in for the decision tables: Swiggy is food, everything else uncategorized.
    static func decide(_ candidate: Ledger.CategoryCandidate) -> Ledger.StoredCategory? {
        candidate.merchant == "SWIGGY"
            ? .init(category: "Food & Dining", subcategory: "Food Delivery", tags: ["delivery"], rows: ["food.swiggy"])
            : .init(category: "Uncategorized", subcategory: nil, rows: ["catch-all"])
    }

    @Test func categorizeFillsTheGapsCountsRowsAndKeepsWhatAUserSet() throws {
        let (ledger, _) = try makeLedger()
        try ledger.write([record(transaction("a")), record(transaction("b", amount: "9.00", merchant: "SHELL"))], run: nil)
        var counts = try ledger.categorize(recompute: false, decide: Self.decide)
        #expect(counts == .init(changed: 2, unchanged: 0, keptByUser: 0))
        #expect(try ledger.categorize(recompute: false, decide: Self.decide).changed == 0, "nothing left uncategorized")

        let shell = try ledger.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM transactions WHERE merchant = 'SHELL'")
        }
        #expect(try ledger.setCategory(transaction: try #require(shell), category: "Transport", subcategory: "Fuel"))
        #expect(try !ledger.setCategory(transaction: 999, category: "Transport", subcategory: nil))
        counts = try ledger.categorize(recompute: true, decide: Self.decide)
        #expect(counts == .init(changed: 0, unchanged: 1, keptByUser: 1))
        let category = try ledger.pool.read { db in
            try String.fetchOne(db, sql: "SELECT category FROM transactions WHERE merchant = 'SHELL'")
        }
        #expect(category == "Transport")
        let stats = try ledger.mappingStatistics()
        #expect(stats.map(\.row) == ["food.swiggy", "catch-all"] && stats.map(\.hits) == [2, 1])
    }

    @Test func theRowThatCategorizedAParsedTransactionIsCounted() throws {
        let (ledger, _) = try makeLedger()
        var t = transaction("a")
        t.category = "Food & Dining"
        t.categoryRow = "food.swiggy"
        try ledger.write([record(t)], run: nil)
        #expect(try ledger.mappingStatistics().map(\.row) == ["food.swiggy"])
    }
}

@Suite("Ledger spending for card caps")
struct LedgerSpendingTests {
    @Test func debitsOnTheCardInThePeriodByCategoryAndMerchant() throws {
        let (ledger, _) = try makeLedger()
        _ = try ledger.write([
            record(transaction("a", amount: "100.10", currency: "USD", date: "2026-11-02", merchant: "KROGER")),
            record(transaction("b", amount: "49.90", currency: "USD", date: "2026-11-20", merchant: "KROGER")),
            record(transaction("c", amount: "30", currency: "USD", date: "2026-11-21", merchant: "SHELL")),
            record(transaction("d", amount: "500", currency: "USD", date: "2026-10-31", merchant: "KROGER")),
            record(transaction("e", amount: "70", currency: "USD", date: "2026-11-05", merchant: "KROGER", last4: "9999")),
            record(transaction("f", amount: "20", currency: "USD", direction: .credit, date: "2026-11-06", merchant: "KROGER")),
        ], run: nil)
        _ = try ledger.categorize(recompute: false) { candidate in
            candidate.merchant == "KROGER" ? Ledger.StoredCategory(category: "Food & Dining", subcategory: "Groceries") : nil
        }
        let totals = try ledger.spending(last4: "1234", from: LocalDate(year: 2026, month: 11, day: 1)!,
                                         through: LocalDate(year: 2026, month: 11, day: 30)!)
        #expect(totals == [
            SpendingTotal(category: "Food & Dining", subcategory: "Groceries", merchant: "KROGER", amount: Decimal(string: "150")!),
            SpendingTotal(category: nil, subcategory: nil, merchant: "SHELL", amount: 30),
        ])
    }
}
