import Foundation
import GRDB
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex import` through the real binary: a fixture of every statement format read into the
    /// expected transactions, bad statements as clear errors, and a statement reconciled with the
    /// alerts of the same month in one ledger.
    @Suite("spendlex import, end to end", .serialized)
    struct ImportEndToEndTests {
        static let folder = "Tests/Fixtures/statements/"

        /// The fields that tell a transaction, one line each: date, direction, amount, currency,
        /// account, merchant, kind, category.
        static func lines(_ jsonl: String) throws -> [String] {
            try jsonl.split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let account = (object["account"] as? [String: Any]).map { "\($0["type"] ?? "")-\($0["last4"] ?? "")" } ?? "-"
                return [object["date"], object["direction"], object["amount"], object["currency"], account,
                        object["merchant"], object["kind"], object["category"]]
                    .map { value in (value as? String).map { $0 } ?? (value == nil || value is NSNull ? "-" : "\(value!)") }
                    .joined(separator: " | ")
            }
        }

        /// The State Bank of India PDF's transactions (`sbi-account.pdf`), by its profile or without one.
        static let sbiAccount = [
            "2026-11-01 | debit | 450.00 | INR | account-6789 | TO TRANSFER-UPI/DR/631845220913/ SWIGGY/ICIC/swiggy@icici/ Payment | - | Food & Dining",
            "2026-11-03 | credit | 85000.00 | INR | account-6789 | BY TRANSFER-NEFT*HDFC0000001* N307260012345*ACME SOFTWARE PVT | - | Uncategorized",
            "2026-11-05 | debit | 10000.00 | INR | account-6789 | ATM WDL-ATM CASH 4312 MG ROAD BANGALORE | - | Cash",
            "2026-11-08 | debit | 1845.00 | INR | account-6789 | TO TRANSFER-UPI/DR/631990011223/ BESCOM/YESB/bescom@ybl/Electricity | - | Bills & Utilities",
            "2026-11-12 | debit | 5000.00 | INR | account-6789 | DEBIT-ACH DR INDIAN CLEARING CORP HDFCMF SIP 000123 | - | Uncategorized",
            "2026-11-15 | credit | 12000.00 | INR | account-6789 | BY TRANSFER-UPI/CR/632011223344/ RAHUL SHARMA/SBIN/rahul@oksbi/Rent | - | Uncategorized",
            "2026-11-20 | debit | 2349.00 | INR | account-6789 | TO TRANSFER-UPI/DR/632455667788/ AMAZON PAY/YESB/amazon@apl/Order | - | Shopping",
            "2026-11-25 | debit | 15000.00 | INR | account-6789 | CHEQUE WDL-000451 | - | Uncategorized",
            "2026-11-28 | credit | 312.00 | INR | account-6789 | INTEREST CREDIT | - | Income",
            "2026-11-30 | debit | 17.70 | INR | account-6789 | SMS CHARGES NOV 26 INCL GST | - | Fees & Charges",
        ]

        @Test("every format's fixture gives its expected transactions", arguments: [
            ("checking.ofx", [] as [String], [
                "2026-11-03 | debit | 42.17 | USD | account-6789 | WHOLEFDS MKT 10234 | purchase | Food & Dining",
                "2026-11-05 | credit | 2500.00 | USD | account-6789 | ACME CORP PAYROLL | deposit | Income",
                "2026-11-12 | debit | 120.00 | USD | account-6789 | AT&T WIRELESS | - | Bills & Utilities",
                "2026-11-30 | debit | 5.00 | USD | account-6789 | MONTHLY SERVICE FEE | fee | Fees & Charges",
            ]),
            ("card.qfx", [], [
                "2026-11-18 | debit | 150.00 | USD | card-1005 | WALMART SUPERCENTER | - | Shopping",
                "2026-11-20 | credit | 500.00 | USD | card-1005 | PAYMENT RECEIVED - THANK YOU | - | Uncategorized",
            ]),
            ("checking.qif", ["--country", "US"], [
                "2026-11-03 | debit | 42.17 | USD | - | WHOLEFDS MKT 10234 | - | Food & Dining",
                "2026-11-15 | credit | 2500.00 | USD | - | ACME CORP PAYROLL | - | Income",
                "2026-11-28 | debit | 1200.00 | USD | - | RENT NOVEMBER | - | Uncategorized",
            ]),
            ("statement.mt940", [], [
                "2026-11-02 | debit | 23.45 | EUR | account-4300 | ALBERT HEIJN 1403 | transfer | Food & Dining",
                "2026-11-25 | credit | 2100.00 | EUR | account-4300 | WERKGEVER BV | transfer | Uncategorized",
                "2026-11-28 | debit | 850.00 | EUR | account-4300 | HUUR NOVEMBER WONING | transfer | Uncategorized",
            ]),
            ("statement.camt053.xml", [], [
                "2026-11-04 | debit | 49.99 | EUR | account-3000 | REWE Markt GmbH | - | Food & Dining",
                "2026-11-27 | credit | 1200.00 | EUR | account-3000 | Arbeitgeber GmbH | - | Uncategorized",
                "2026-11-30 | debit | 12.00 | EUR | account-3000 | Kontofuehrungsgebuehr November | - | Uncategorized",
            ]),
            ("hdfc-savings.csv", ["--country", "IN", "--bank", "hdfc"], [
                "2026-11-01 | debit | 450.00 | INR | account-5521 | UPI-SWIGGY-SWIGGY@ICICI-ICICXXXXXXXXXXXX0913-PAYMENT | - | Food & Dining",
                "2026-11-03 | credit | 85000.00 | INR | account-5521 | NEFT CR-ACME SOFTWARE PVT LTD-SALARY NOV | - | Income",
                "2026-11-15 | debit | 10000.00 | INR | account-5521 | ATW-512345XXXXXX1234-S1AN000123-MUMBAI | - | Uncategorized",
            ]),
            // Its bank's statement profile (rules/statements/in/hdfc.yaml) found by the header: the
            // bank, the account number above the header, rupees, dd/MM/yy, with no flag.
            ("hdfc-savings.csv", [], [
                "2026-11-01 | debit | 450.00 | INR | account-5521 | UPI-SWIGGY-SWIGGY@ICICI-ICICXXXXXXXXXXXX0913-PAYMENT | - | Food & Dining",
                "2026-11-03 | credit | 85000.00 | INR | account-5521 | NEFT CR-ACME SOFTWARE PVT LTD-SALARY NOV | - | Income",
                "2026-11-15 | debit | 10000.00 | INR | account-5521 | ATW-512345XXXXXX1234-S1AN000123-MUMBAI | - | Uncategorized",
            ]),
            // A card's profile: charges positive, payments negative.
            ("amex-activity.csv", ["--account", "41005"], [
                "2026-11-18 | debit | 150.00 | USD | card-41005 | WALMART SUPERCENTER | - | Shopping",
                "2026-11-20 | credit | 500.00 | USD | card-41005 | AUTOPAY PAYMENT - THANK YOU | - | Uncategorized",
                "2026-11-21 | debit | 23.10 | USD | card-41005 | UBER TRIP HELP.UBER.COM | - | Transport",
            ]),
            // No profile: the header names its columns; month-first dates read from "11/14/2026".
            ("plain.csv", ["--country", "US"], [
                "2026-11-02 | debit | 5.75 | USD | - | STARBUCKS STORE 1234 | - | Food & Dining",
                "2026-11-14 | debit | 23.99 | USD | - | AMAZON.COM*AB12C3, SEATTLE | - | Shopping",
                "2026-11-15 | credit | 1500.00 | USD | - | DIRECT DEPOSIT ACME | - | Uncategorized",
            ]),
            // The same file in UTF-16 with a byte-order mark.
            ("plain-utf16.csv", ["--country", "US"], [
                "2026-11-02 | debit | 5.75 | USD | - | STARBUCKS STORE 1234 | - | Food & Dining",
                "2026-11-14 | debit | 23.99 | USD | - | AMAZON.COM*AB12C3, SEATTLE | - | Shopping",
                "2026-11-15 | credit | 1500.00 | USD | - | DIRECT DEPOSIT ACME | - | Uncategorized",
            ]),
            // Spreadsheets (scripts/make-statement-fixtures.py, openpyxl): a wallet's passbook with a
            // title above its header and real dates; a bank's export in the 1904 date system, its
            // error cell and totals row skipped.
            ("paytm-wallet.xlsx", ["--country", "IN"], [
                "2026-11-02 | debit | 85 | INR | - | Paid to Chai Point | - | Uncategorized",
                "2026-11-05 | credit | 1200 | INR | - | Received from Rahul Sharma | - | Uncategorized",
                "2026-11-21 | debit | 642.5 | INR | - | Paid to BigBasket | - | Food & Dining",
            ]),
            ("bank-1904.xlsx", ["--country", "GB"], [
                "2026-11-03 | debit | 23.4 | GBP | - | CARD PURCHASE TESCO STORES 2231 | - | Food & Dining",
                "2026-11-10 | credit | 150 | GBP | - | FASTER PAYMENT FROM J SMITH | - | Uncategorized",
                "2026-11-28 | debit | 700 | GBP | - | STANDING ORDER RENT | - | Uncategorized",
            ]),
            // PDFs (scripts/make-statement-pdfs.py, ReportLab), laid out by pdftotext: a bank's over
            // two pages (header repeated, footers, narrations over several lines), read by its profile
            // (rules/statements/in/sbi.yaml), which gives its bank and balances.
            ("sbi-account.pdf", [], ImportEndToEndTests.sbiAccount),
            // The same statement with no profile: its header's names place the columns.
            ("sbi-account.pdf", ["--rules", "grammars", "--rules", "rules/categories.yaml", "--country", "IN"],
             ImportEndToEndTests.sbiAccount),
            // A card's (rules/statements/in/icici.yaml): charges plain, credits marked "CR".
            ("icici-card.pdf", [], [
                "2026-10-18 | debit | 450.00 | INR | card-1234 | SWIGGY BANGALORE IN | - | Food & Dining",
                "2026-10-20 | debit | 2349.00 | INR | card-1234 | AMAZON PAY INDIA PRIVATE L BANGALORE IN | - | Shopping",
                "2026-10-24 | credit | 12780.00 | INR | card-1234 | BBPS PAYMENT RECEIVED - THANK YOU | - | Uncategorized",
                "2026-10-29 | debit | 386.50 | INR | card-1234 | UBER INDIA SYSTEMS PVT LTD MUMBAI IN | - | Transport",
                "2026-11-02 | debit | 1240.00 | INR | card-1234 | IRCTC WEB BOOKING NEW DELHI IN | - | Transport",
                "2026-11-07 | debit | 1100.00 | INR | card-1234 | APOLLO PHARMACY CHENNAI IN | - | Health",
                "2026-11-11 | credit | 300.00 | INR | card-1234 | ZOMATO LTD GURGAON IN | - | Food & Dining",
                "2026-11-13 | debit | 3700.00 | INR | card-1234 | RELIANCE DIGITAL BENGALURU IN | - | Shopping",
            ]),
            // A wallet's (rules/statements/in/paytm.yaml): the time under the date passed over, the
            // reference under the payee found by the field layer's reference finder.
            ("paytm-wallet.pdf", [], [
                "2026-11-02 | debit | 85 | INR | - | Paid to Chai Point | - | Uncategorized",
                "2026-11-05 | credit | 1200 | INR | - | Received from Rahul Sharma | - | Uncategorized",
                "2026-11-09 | debit | 450 | INR | - | Paid to Swiggy | - | Food & Dining",
                "2026-11-14 | debit | 299 | INR | - | Recharge of Jio Mobile 98XXXXXX21 | - | Bills & Utilities",
                "2026-11-21 | credit | 25 | INR | - | Cashback Received | - | Income",
            ]),
            // Latin-1, semicolons, decimal commas, German headers, an account number above the header.
            ("umsaetze-latin1.csv", [], [
                "2026-11-02 | debit | 89.00 | EUR | account-7890 | Stadtwerke München | - | Uncategorized",
                "2026-11-05 | credit | 3250.00 | EUR | account-7890 | Arbeitgeber GmbH | - | Uncategorized",
                "2026-11-20 | debit | 54.37 | EUR | account-7890 | EDEKA Müller | - | Food & Dining",
            ]),
        ])
        func formats(file: String, flags: [String], expected: [String]) throws {
            let result = try spendlex(["import", Self.folder + file] + flags)
            #expect(result.status == 0, "\(result.stderr)")
            let got = try Self.lines(result.stdout)
            #expect(got == expected, "\(got)")
        }

        @Test("statement balances become balance assertions that bean-check and ledger-cli accept, with the alerts beside them")
        func exportsAssertStatementBalances() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ledger = folder.appendingPathComponent("ledger.sqlite").path
            let alerts = folder.appendingPathComponent("alerts.jsonl")
            try Data("""
                {"id": "sms-swiggy", "sender": "VM-HDFCBK", "received_at": "2026-11-01T13:05:00Z", "text": "Money Sent! Rs.450.00 from HDFC Bank A/c **5521 to SWIGGY on 01/11/26. Ref 631845220913. Not You? Call 18002586161"}

                """.utf8).write(to: alerts)
            #expect(try spendlex(["parse", alerts.path, "--store", ledger]).status == 0)
            // A running balance (HDFC's CSV), opening and closing balances (MT940, CAMT.053), a closing
            // balance only (OFX, a card's too).
            for file in ["hdfc-savings.csv", "statement.mt940", "statement.camt053.xml", "checking.ofx", "card.qfx",
                         "sbi-account.pdf", "icici-card.pdf"] {
                let result = try spendlex(["import", Self.folder + file, "--store", ledger])
                #expect(result.status == 0, "\(file): \(result.stderr)")
            }
            let beancount = folder.appendingPathComponent("ledger.beancount").path
            #expect(try spendlex(["export", "--store", ledger, "--format", "beancount", "--output", beancount]).status == 0)
            let journal = try String(contentsOfFile: beancount, encoding: .utf8)
            for line in [
                "2026-10-31 pad Assets:Bank:Hdfc:5521 Equity:Opening-Balances", "2026-11-01 balance Assets:Bank:Hdfc:5521  25000 INR",
                "2026-11-16 balance Assets:Bank:Hdfc:5521  99550 INR", "2026-12-01 balance Assets:Bank:Abnanl2a:4300  2226.55 EUR",
                "2026-12-01 balance Assets:Bank:Cobadeff:3000  1638.01 EUR", "2026-12-01 balance Assets:Bank:Chase:6789  3332.83 USD",
                "2026-12-01 balance Liabilities:CreditCard:Amex:1005  -1203.55 USD",
                // A PDF's stated opening and closing balances; a card's owed balance, negative.
                "2026-11-01 balance Assets:Bank:Sbi:6789  25000 INR", "2026-12-01 balance Assets:Bank:Sbi:6789  87650.3 INR",
                "2026-10-16 balance Liabilities:CreditCard:Icici:1234  -12480 INR",
                "2026-11-16 balance Liabilities:CreditCard:Icici:1234  -8625.5 INR",
            ] {
                #expect(journal.contains(line), "\(line) missing from\n\(journal)")
            }
            let beanCheck = try #require(executableOnPath("bean-check"), "bean-check is not on PATH (pip install beancount; .ci/run does this)")
            let checked = try runTool(beanCheck, [beancount])
            #expect(checked.status == 0, "\(checked.output)")
            let ledgerText = folder.appendingPathComponent("ledger.ledger").path
            #expect(try spendlex(["export", "--store", ledger, "--format", "ledger", "--output", ledgerText]).status == 0)
            let ledgerCLI = try #require(executableOnPath("ledger"), "ledger is not on PATH (apt-get install ledger; .ci/run does this)")
            let balance = try runTool(ledgerCLI, ["-f", ledgerText, "balance"])
            #expect(balance.status == 0 && !balance.output.contains("Error"), "\(balance.output)")
        }

        @Test("--profile names a profile; an unknown one, or one whose header the file lacks, is an error")
        func profileByName() throws {
            let named = try spendlex(["import", Self.folder + "hdfc-savings.csv", "--profile", "hdfc.savings"])
            #expect(named.status == 0, "\(named.stderr)")
            let unknown = try spendlex(["import", Self.folder + "hdfc-savings.csv", "--profile", "nosuch.bank"])
            #expect(unknown.status == 65)
            #expect(unknown.stderr.contains("no statement profile 'nosuch.bank' (profiles: amex.card, hdfc.savings"), "\(unknown.stderr)")
            let wrong = try spendlex(["import", Self.folder + "plain.csv", "--profile", "amex.card"])
            #expect(wrong.status == 65)
            #expect(wrong.stderr.contains("the header of statement profile 'amex.card' is not in the file's first lines"), "\(wrong.stderr)")
        }

        @Test("a profile's example rows run under spendlex test; a wrong expectation fails at its place")
        func profileExamplesAreTests() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-profile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("acme.yaml")
            try Data("""
                statement: acme.checking
                header: [Booked, What, Out, In]
                columns: {date: Booked, description: What, debit: Out, credit: In}
                date_format: yyyy-MM-dd
                examples:
                  - row: '2026-11-02,Coffee,3.50,'
                    expect: {direction: debit, amount: '3.50'}
                  - row: '2026-11-03,Refund,,9.99'
                    expect: {direction: debit}

                """.utf8).write(to: file)
            let result = try spendlex(["test", file.path, "grammars"])
            #expect(result.status == 1)
            #expect(result.stdout.contains("1 passed, 1 failed") || result.stderr.contains("1 passed, 1 failed"),
                    "\(result.stdout)\(result.stderr)")
            #expect((result.stdout + result.stderr).contains(
                "acme.yaml:9:25: error: example of 'acme.checking' failed: direction: expected \"debit\", got \"credit\" [test.failed]"),
                    "\(result.stdout)\(result.stderr)")
        }

        @Test("a row-pattern profile's examples are lines of the statement's text, run under spendlex test")
        func rowPatternExamplesAreTests() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-profile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("ragged.yaml")
            try Data(#"""
                statement: ragged.pdf
                country: US
                header: [Transaction Date, Details, Amount]
                row: '^(?<date>\d{4}-\d{2}-\d{2})\s+(?<description>.+?)\s+(?<amount>[\d,]+\.\d{2} (?:DR|CR))\s*$'
                examples:
                  - row: '2026-11-02 Coffee at Blue Bottle 4.50 DR'
                    expect: {direction: debit, amount: '4.50', currency: USD, merchant: Coffee at Blue Bottle}
                  - row: '2026-11-03 Salary ACME   2,000.00 CR'
                    expect: {direction: debit}
                  - row: 'Total 2,004.50'

                """#.utf8).write(to: file)
            let result = try spendlex(["test", file.path, "grammars"])
            #expect(result.status == 1)
            let output = result.stdout + result.stderr
            #expect(output.contains("1 passed, 2 failed"), "\(output)")
            #expect(output.contains("ragged.yaml:9:25: error: example of 'ragged.pdf' failed: direction: expected \"debit\", got \"credit\" [test.failed]"),
                    "\(output)")
            #expect(output.contains("ragged.yaml:10:10: error: example of 'ragged.pdf' failed: the row pattern does not match the example [test.failed]"),
                    "\(output)")
        }

        @Test("suggest drafts a profile for a layout import cannot read; it passes spendlex test, and import then reads the file")
        func suggestDraftsAProfile() throws {
            let file = Self.folder + "odd-layout.csv"
            let unread = try spendlex(["import", file])
            #expect(unread.status == 65, "\(unread.stderr)")
            let folder = TestScratch.root.appendingPathComponent("spendlex-draft-\(UUID().uuidString)")
            let drafted = try spendlex(["suggest", "--statement", file, "--bank-id", "mybank", "--country", "GB",
                                        "--out-dir", folder.path])
            #expect(drafted.status == 0, "\(drafted.stderr)")
            let profile = try String(contentsOfFile: folder.appendingPathComponent("mybank.odd-layout.yaml").path, encoding: .utf8)
            // Debits and credits told apart by the running balance; the date's layout from the dates.
            for line in ["  debit: 'Outflow'", "  credit: 'Inflow'", "  balance: 'Running Total'", "date_format: 'yyyy.MM.dd'",
                         "decimal: comma"] {
                #expect(profile.contains(line), "\(line) missing from\n\(profile)")
            }
            let tested = try spendlex(["test", folder.path, "grammars"])
            #expect(tested.status == 0 && (tested.stdout + tested.stderr).contains("3 passed, 0 failed"), "\(tested.stdout)\(tested.stderr)")
            let read = try spendlex(["import", file, "--rules", "rules", "--rules", "grammars", "--rules", folder.path])
            #expect(read.status == 0, "\(read.stderr)")
            #expect(try Self.lines(read.stdout) == [
                "2026-11-03 | debit | 23.40 | GBP | account-9876 | Card payment TESCO STORES 2231 | - | Food & Dining",
                "2026-11-10 | credit | 150.00 | GBP | account-9876 | Transfer from J SMITH | - | Uncategorized",
                "2026-11-14 | debit | 41.00 | GBP | account-9876 | Direct debit THAMES WATER | - | Bills & Utilities",
                "2026-11-28 | debit | 700.00 | GBP | account-9876 | Standing order RENT | - | Uncategorized",
            ])
        }

        @Test("rows that are no transaction are skipped and said; the rest are read")
        func raggedRowsAreReported() throws {
            let result = try spendlex(["import", Self.folder + "ragged.csv"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.lines(result.stdout).map { $0.components(separatedBy: " | ").prefix(3).joined(separator: " | ") } == [
                "2026-11-01 | debit | 3.50", "2026-11-04 | debit | 12.00",
            ])
            #expect(result.stderr.contains("ragged.csv:3: skipped: 2 fields where the header has 3"), "\(result.stderr)")
            #expect(result.stderr.contains("ragged.csv:4: skipped: a spreadsheet error cell #VALUE!"), "\(result.stderr)")
            #expect(result.stderr.contains("ragged.csv:5: skipped: no date (Total)"), "\(result.stderr)")
            // The quoted newline stays inside its field.
            #expect(result.stdout.contains("Coffee, with a newline in the description"), "\(result.stdout)")
        }

        @Test("a statement whose balances do not add up is an error that says by how much, and exits 65")
        func unbalancedStatement() throws {
            let result = try spendlex(["import", Self.folder + "unbalanced.mt940"])
            #expect(result.status == 65)
            #expect(result.stderr.contains(
                "unbalanced.mt940: error: the closing balance 2326.55 is not the opening balance 1000 plus the 3 entries (2226.55)"),
                "\(result.stderr)")
            #expect(try Self.lines(result.stdout).count == 3, "the entries are still written")
        }

        @Test("a truncated download is read as far as it goes, and said")
        func truncatedOFX() throws {
            let result = try spendlex(["import", Self.folder + "truncated.ofx"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("truncated.ofx:33: the file ends inside a transaction (truncated?)"), "\(result.stderr)")
            #expect(try Self.lines(result.stdout).count == 3)
        }

        @Test("a locked PDF, a scanned PDF, an empty file and a file of no statement format are clear errors (exit 65), the others still read")
        func unreadableFiles() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let empty = folder.appendingPathComponent("empty.csv").path
            let prose = folder.appendingPathComponent("letter.txt").path
            try Data().write(to: URL(fileURLWithPath: empty))
            try Data("Dear customer, your statement is attached.\n".utf8).write(to: URL(fileURLWithPath: prose))
            let result = try spendlex(["import", Self.folder + "scanned.pdf", Self.folder + "locked.pdf", empty, prose,
                                       Self.folder + "zip-directory-past-end.xlsx", Self.folder + "plain.csv"])
            #expect(result.status == 65)
            // The fuzzer's finding 5: a workbook whose ZIP directory points past its end (it stopped the process).
            #expect(result.stderr.contains("zip-directory-past-end.xlsx: error: "), "\(result.stderr)")
            #expect(result.stderr.contains("scanned.pdf: error: the PDF has no text: a scanned statement"), "\(result.stderr)")
            #expect(result.stderr.contains("locked.pdf: error: the PDF is locked with a password: give it in the environment variable SPENDLEX_PDF_PASSWORD"),
                    "\(result.stderr)")
            #expect(result.stderr.contains("empty.csv: error: the file is empty"), "\(result.stderr)")
            #expect(result.stderr.contains("letter.txt: error: not a statement format Spendlex reads"), "\(result.stderr)")
            #expect(try Self.lines(result.stdout).count == 3)
            #expect(result.stderr.contains("5 unreadable"), "\(result.stderr)")
        }

        @Test("a locked PDF reads with its password in SPENDLEX_PDF_PASSWORD")
        func lockedPDFWithPassword() throws {
            let result = try run(spendlexBinary, ["import", Self.folder + "locked.pdf", "--country", "IN"], in: repositoryRoot,
                                 environment: ["SPENDLEX_PDF_PASSWORD": "01011990"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.lines(result.stdout) == [
                "2026-11-01 | debit | 450.00 | INR | account-5521 | UPI-SWIGGY-SWIGGY@ICICI-PAYMENT | - | Food & Dining",
            ], "its bank's profile (rules/statements/in/hdfc.yaml) reads it")
        }

        @Test("a PDF line with an amount that is no row of the table is reported, not dropped")
        func pdfStrayAmountsAreReported() throws {
            let result = try spendlex(["import", Self.folder + "sbi-account.pdf"])
            #expect(result.status == 0, "\(result.stderr)")
            // Both balance lines are balances, not lost rows; the footers hold no amount.
            #expect(!result.stderr.contains("skipped"), "\(result.stderr)")
        }

        @Test("a month's statement imported into a ledger holding its alerts adds what they missed and links the rest")
        func statementReconciledWithAlerts() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ledger = folder.appendingPathComponent("ledger.sqlite").path
            let alerts = folder.appendingPathComponent("alerts.jsonl")
            try Data("""
                {"id": "sms-swiggy", "sender": "VM-HDFCBK", "received_at": "2026-11-01T13:05:00Z", "text": "Money Sent! Rs.450.00 from HDFC Bank A/c **5521 to SWIGGY on 01/11/26. Ref 631845220913. Not You? Call 18002586161"}
                {"id": "sms-atm", "sender": "VM-HDFCBK", "received_at": "2026-11-14T09:00:00Z", "text": "Rs.10000.00 withdrawn from HDFC Bank A/c XX5521 at ATM S1AN000123 on 14-11-26. Avl bal: Rs.99550.00"}
                {"id": "sms-other", "sender": "VM-HDFCBK", "received_at": "2026-11-20T09:00:00Z", "text": "Rs.450.00 debited from HDFC Bank A/c XX9999 on 20-11-26 to VPA swiggy@icici"}

                """.utf8).write(to: alerts)
            let parsed = try spendlex(["parse", alerts.path, "--store", ledger])
            #expect(parsed.status == 0, "\(parsed.stderr)")
            #expect(parsed.stderr.contains("3 transactions stored"), "\(parsed.stderr)")

            let imported = try spendlex(["import", Self.folder + "hdfc-savings.csv", "--country", "IN", "--bank", "hdfc",
                                         "--store", ledger])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains("3 transactions stored, 2 linked as duplicates"), "\(imported.stderr)")
            let rows = try DatabaseQueue(path: ledger).read { db in
                try Row.fetchAll(db, sql: """
                    SELECT t.message_id, t.source_kind, p.message_id AS primary_message FROM transactions t
                    LEFT JOIN transactions p ON p.id = t.duplicate_of ORDER BY t.id
                    """).map { "\($0["message_id"] as String) \($0["source_kind"] as String) \($0["primary_message"] as String? ?? "primary")" }
            }
            // The statement rows are the record; the two alerts about them point at them; the alert
            // about another account, and the salary no alert announced, stand alone.
            #expect(rows == [
                "sms-swiggy unknown csv:\(Self.folder)hdfc-savings.csv:5",
                "sms-atm unknown csv:\(Self.folder)hdfc-savings.csv:7",
                "sms-other unknown primary",
                "csv:\(Self.folder)hdfc-savings.csv:5 statement primary",
                "csv:\(Self.folder)hdfc-savings.csv:6 statement primary",
                "csv:\(Self.folder)hdfc-savings.csv:7 statement primary",
            ], "\(rows)")

            // Importing it again adds nothing.
            let again = try spendlex(["import", Self.folder + "hdfc-savings.csv", "--country", "IN", "--bank", "hdfc",
                                      "--store", ledger])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("0 transactions stored, 0 linked as duplicates, 3 already in the ledger"), "\(again.stderr)")
        }
    }
}
