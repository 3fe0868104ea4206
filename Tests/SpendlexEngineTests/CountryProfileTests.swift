import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Country profiles: what bank files inherit, and how a message from an unknown sender is read
/// once its country is inferred.
@Suite("Country profiles")
struct CountryProfileTests {
    static let files: [(path: String, text: String)] = [
        ("countries/ng.yaml", """
            profile: NG
            currency: NGN
            symbols: {N: NGN}
            date_order: dmy
            phone_prefixes: ["+234"]
            senders: ['^GTBank$']
            bank_names: ['(?i)\\bZenith Bank\\b']
            non_transactions: ['(?i)\\blink your BVN\\b']
            """),
        ("countries/ca.yaml", """
            profile: CA
            currency: CAD
            date_order: ymd
            timezone: America/Toronto
            bank_names: ['(?i)\\bDesjardins\\b']
            likely_cues: ['(?i)\\bbonjour\\b']
            """),
        ("banks/ng/tb.yaml", """
            bank: Test Bank
            id: tb
            country: NG
            senders: [TESTBANK]
            parsers:
              - id: tb.debit
                direction: debit
                pattern: 'Debit (?<amount>N[\\d,.]+) on (?<date>\\S+)'
                examples: [{text: "Debit N1,500.00 on 04/11/2026", expect: {amount: "1500.00", currency: NGN}}]
            """),
        ("fallback/generic.yaml", """
            bank: Generic
            id: generic
            fallback: true
            parsers:
              - id: generic.debit
                direction: debit
                when: '(?i)\\b(?:spent|debit)\\b'
                fields:
                  amount: '%{MONEY_ANY:amount}'
                  date: '(?<date>\\d{1,4}[/-]\\d{1,2}[/-]\\d{1,4})'
                  time: '(?<time>\\d{1,2}:\\d{2})'
                examples: [{text: "You spent €5.00", expect: {amount: "5.00"}}]
            """),
    ]

    static func engine() -> (RuleEngine, [Diagnostic]) {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        for file in files {
            RuleLoader.load(text: file.text, path: file.path, into: &ruleSet, diagnostics: &diagnostics)
        }
        let (grammars, grammarDiagnostics) = RuleLoader.load(paths: [repositoryRoot + "/grammars"])
        ruleSet.fragments = grammars.fragments
        diagnostics += grammarDiagnostics + RuleLoader.validate(ruleSet)
        let (compiled, compileDiagnostics) = RuleCompiler.compile(ruleSet)
        return (RuleEngine(rules: compiled), diagnostics + compileDiagnostics)
    }

    func parse(_ text: String, sender: String?) -> ParseOutcome {
        Self.engine().0.makeWorker().parse(Message(id: "m", text: text, sender: sender, channel: .sms))
    }

    @Test func profilesLoadWithoutErrors() {
        let (engine, diagnostics) = Self.engine()
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        #expect(engine.rules.rules.countries.map(\.country.value) == ["NG", "CA"])
    }

    @Test func aBankInheritsItsCountrysLocalSymbolsAndNonTransactions() throws {
        let t = try #require(parse("Debit N1,500.00 on 04/11/2026", sender: "TESTBANK").transaction)
        #expect(t.currency == "NGN" && t.amountText == "1500.00" && t.date?.description == "2026-11-04")
        #expect(!t.confidenceParts.contains(.ambiguousCurrency))
        let ignored = parse("Debit N0 on 1/1/2026: link your BVN now", sender: "TESTBANK")
        guard case .ignored(let rule, _) = ignored else {
            Issue.record("not ignored: \(ignored)")
            return
        }
        #expect(rule == "country.ng.ignore.1")
    }

    @Test("an unknown sender's country comes from its dialling prefix, its shape or the text")
    func inference() throws {
        let byShape = try #require(parse("Debit of ₦2,000.00 on 04/11/2026", sender: "GTBank").transaction)
        #expect(byShape.currency == "NGN" && byShape.confidenceParts.contains(.countryInferred))
        let byName = try #require(parse("Desjardins: you spent $45.20 on 2026-11-04", sender: "55123").transaction)
        #expect(byName.currency == "CAD" && byName.date?.description == "2026-11-04")
        #expect(!byName.confidenceParts.contains(.ambiguousCurrency))
        // A phone number is a person: its country is known, but it is not read as an alert.
        let worker = Self.engine().0.makeWorker()
        #expect(worker.inferCountry(Message(id: "m", text: "hi", sender: "+234 803 123 4567", channel: .sms))?.code == "NG")
    }

    @Test("a country's one-letter currency form is money once the country is known, and only before a figure")
    func oneLetterForms() throws {
        // GTBank's sender shape says Nigeria: "N2,000.00" is naira, in the fallback too.
        let t = try #require(parse("Debit of N2,000.00 on 04/11/2026", sender: "GTBank").transaction)
        #expect(t.currency == "NGN" && t.amountText == "2000.00")
        // "N12345678" is an id, not money.
        #expect(parse("Debit of N12345678 on 04/11/2026", sender: "GTBank").transaction == nil)
    }

    @Test("a parser that finds no amount makes no transaction, and says so")
    func noAmountNoTransaction() {
        // A bare "N" with no country known is no currency.
        let outcome = parse("Debit of N2,000.00 on 04/11/2026", sender: "55123")
        #expect(outcome.transaction == nil)
        #expect(outcome.reason.hasSuffix("generic.debit matched but found no amount"), "\(outcome.reason)")
    }

    @Test("an e-mail sender's country-code domain names its country; generic and vanity domains do not")
    func emailDomain() {
        let cases: [(String, String?)] = [
            ("Tenpo <no-reply@tenpo.cl>", "CL"), ("alerts@hdfcbank.co.in", "IN"), ("alerts@bank.co.uk", "GB"),
            ("notificaciones@bancolombia.com.co", "CO"), ("alerts@bank.com", nil), ("hello@startup.io", nil),
            ("team@app.co", nil), ("GTBank", nil), ("someone@localhost", nil),
        ]
        for (sender, code) in cases {
            #expect(SenderDomain.countryCode(ofEmailSender: sender) == code, "\(sender)")
        }
        let worker = Self.engine().0.makeWorker()
        #expect(worker.inferCountry(Message(id: "m", text: "hi", sender: "alerts@bank.com.ng", channel: .email))?.code == "NG")
        #expect(worker.inferCountry(Message(id: "m", text: "hi", sender: "alerts@bank.com", channel: .email)) == nil)
    }

    @Test("an app's package name is a reversed domain: its country-code label names the country")
    func appPackage() {
        let cases: [(String, String?)] = [
            ("mx.openbank.modelbank", "MX"), ("ar.com.bancar.uala", "AR"), ("uk.co.monzo", "GB"),
            ("co.com.bancolombia.app", "CO"), ("com.nu.production", nil), ("co.mona.android", nil),
            ("io.example.wallet", nil), ("Mercado Pago", nil), ("VM-HDFCBK", nil), ("mx", nil), ("mx..bank", nil),
        ]
        for (sender, code) in cases {
            #expect(SenderDomain.countryCode(ofAppPackage: sender) == code, "\(sender)")
        }
        #expect(SenderDomain.countryCode(ofEmailSender: "mx.openbank.modelbank") == nil)
    }

    @Test("a sender that names a bank, or an app package whose words do, names the bank's country")
    func bankNamedBySender() {
        let worker = Self.engine().0.makeWorker()
        for sender in ["Desjardins", "com.desjardins.mobile"] {
            #expect(worker.inferCountry(Message(id: "m", text: "hi", sender: sender, channel: .sms))?.code == "CA", "\(sender)")
        }
        #expect(worker.inferCountry(Message(id: "m", text: "hi", sender: "com.example.wallet", channel: .sms)) == nil)
    }

    @Test("a likely cue places a text nothing else places; a sender, a bank's name or a currency form wins over it")
    func likelyCues() throws {
        let worker = Self.engine().0.makeWorker()
        func country(_ text: String, sender: String? = nil) -> String? {
            worker.inferCountry(Message(id: "m", text: text, sender: sender, channel: .sms))?.code
        }
        #expect(country("Bonjour, you spent $45.20") == "CA")
        #expect(country("Bonjour: Zenith Bank, you spent 450.00") == "NG")
        #expect(country("Bonjour, you spent $45.20", sender: "+2348031234567") == "NG")
        #expect(country("You spent $45.20") == nil)
        let t = try #require(parse("Bonjour, you spent $45.20", sender: nil).transaction)
        #expect(t.currency == "CAD" && t.confidenceParts.contains(.countryInferred))
    }

    @Test("a time the text gives later than the arrival's, in the country's zone, was the day before")
    func timeAfterArrival() throws {
        let worker = Self.engine().0.makeWorker()
        func read(_ text: String, arrived: String) throws -> Transaction {
            try #require(worker.parse(Message(id: "m", text: text, sender: "55123",
                                              receivedAt: try Date(arrived, strategy: .iso8601), channel: .sms)).transaction)
        }
        // 05:30 UTC is 00:30 in Toronto: "23:10" was the evening before.
        let late = try read("Desjardins: you spent $45.20 at 23:10", arrived: "2026-11-05T05:30:00Z")
        #expect(late.date?.description == "2026-11-04" && late.time?.description == "23:10")
        // A few minutes' skew between the bank's clock and the phone's is the same day.
        let skew = try read("Desjardins: you spent $45.20 at 00:40", arrived: "2026-11-05T05:30:00Z")
        #expect(skew.date?.description == "2026-11-05")
        // No country, no zone: the arrival's UTC clock says nothing about the text's.
        let unknown = try read("You spent €5.00 at 23:10", arrived: "2026-11-05T05:30:00Z")
        #expect(unknown.date?.description == "2026-11-05")
    }

    @Test("a shared symbol with no country to decide it is a doubt, not a silent guess")
    func ambiguousDollar() throws {
        let t = try #require(parse("You spent $45.20 on 2026-11-04", sender: "55123").transaction)
        #expect(t.currency == "USD" && t.confidenceParts.contains(.ambiguousCurrency))
        #expect(!t.confidenceParts.contains(.countryInferred))
    }

    @Test("a numeric date no country decides takes the reading nearest the arrival, and says so")
    func ambiguousDateOrder() throws {
        let worker = Self.engine().0.makeWorker()
        func read(_ text: String, sender: String?, arrived: String?) throws -> Transaction {
            let received = try arrived.map { try Date("\($0)T12:00:00Z", strategy: .iso8601) }
            return try #require(worker.parse(Message(id: "m", text: text, sender: sender, receivedAt: received,
                                                     channel: .sms)).transaction)
        }
        let text = "You spent €12.00 on 05/11/2026"
        let may = try read(text, sender: "55123", arrived: "2026-05-12")
        #expect(may.date?.description == "2026-05-11" && may.confidenceParts.contains(.ambiguousDateOrder))
        let november = try read(text, sender: "55123", arrived: "2026-11-06")
        #expect(november.date?.description == "2026-11-05" && november.confidenceParts.contains(.ambiguousDateOrder))
        // No arrival time: day first, still doubted.
        let unknown = try read(text, sender: "55123", arrived: nil)
        #expect(unknown.date?.description == "2026-11-05" && unknown.confidenceParts.contains(.ambiguousDateOrder))
        // A date that reads one way only, or a country that decides, is no doubt.
        let oneWay = try read("You spent €12.00 on 25/11/2026", sender: "55123", arrived: "2026-11-26")
        #expect(!oneWay.confidenceParts.contains(.ambiguousDateOrder))
        let nigerian = try read("Debit of ₦2,000.00 on 05/11/2026", sender: "GTBank", arrived: "2026-05-12")
        #expect(nigerian.date?.description == "2026-11-05" && !nigerian.confidenceParts.contains(.ambiguousDateOrder))
    }

    @Test func aBrokenProfileIsReportedWhereItIsWritten() {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: "profile: india\ncurrency: INR\n", path: "countries/in.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: "profile: NG\nsymbols: {N: naira}\ncolour: green\n", path: "countries/ng.yaml",
                        into: &ruleSet, diagnostics: &diagnostics)
        #expect(diagnostics.map { "\($0.location.line):\($0.location.column) \($0.id)" } == [
            "1:10 rule.invalidValue", "3:1 rule.unknownKey", "2:14 rule.invalidValue",
        ])
        #expect(ruleSet.countries.map(\.country.value) == ["NG"])
    }
}
