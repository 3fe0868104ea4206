import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Format recognition: a message no bank's sender or detect pattern names, or one its bank's
/// parsers cannot read, is tried with every bank's parsers (those whose literals it holds) before
/// the fallback's own, and says so in its confidence.
@Suite("Format recognition")
struct FormatRecognitionTests {
    static let files: [String: String] = [
        "a.yaml": """
            bank: A Bank
            id: abank
            country: GB
            senders: [ABANK]
            detect: ['(?i)\\bA Bank\\b']
            parsers:
              - id: abank.card
                direction: debit
                pattern: 'Card payment of £(?<amount>[\\d,.]+) to (?<merchant>[A-Z][A-Z ]+?) approved on (?<date>\\d{2}/\\d{2}/\\d{4})'
                examples:
                  - {text: "Card payment of £12.50 to TESCO approved on 04/11/2026", expect: {amount: "12.50"}}
                  - {text: "Card payment of £3.10 to COSTA approved on 05/11/2026", expect: {amount: "3.10"}}
              - id: abank.cash
                direction: debit
                pattern: 'Cash withdrawal of £(?<amount>[\\d,.]+) at (?<merchant>[A-Z][A-Z ]+)'
                examples:
                  - {text: "Cash withdrawal of £20.00 at LINK ATM", expect: {amount: "20.00"}}
                  - {text: "Cash withdrawal of £10.00 at HSBC", expect: {amount: "10.00"}}
            """,
        "b.yaml": """
            bank: B Bank
            id: bbank
            country: GB
            senders: [BBANK]
            detect: ['(?i)\\bB Bank\\b']
            parsers:
              - id: bbank.transfer
                direction: credit
                pattern: 'You received £(?<amount>[\\d,.]+) from (?<merchant>.+?)\\.'
                examples:
                  - {text: "You received £20.00 from JOHN.", expect: {amount: "20.00"}}
                  - {text: "You received £5.00 from ANA.", expect: {amount: "5.00"}}
            """,
        "k.yaml": """
            bank: K Bank
            id: kbank
            country: KE
            senders: [KBANK]
            detect: ['(?i)\\bK Bank\\b']
            parsers:
              - id: kbank.paid
                direction: debit
                pattern: 'Wallet debit (?<amount>[\\d,.]+) to (?<merchant>.+?)\\.'
                examples:
                  - {text: "Wallet debit 100.00 to JAVA.", expect: {amount: "100.00"}}
                  - {text: "Wallet debit 40.00 to NAIVAS.", expect: {amount: "40.00"}}
            """,
        "fallback/generic.yaml": """
            bank: Generic
            id: generic
            fallback: true
            parsers:
              - id: generic.debit
                direction: debit
                when: '(?i)\\b(?:payment|debit|spent)\\b'
                fields:
                  amount: '%{MONEY_ANY:amount}'
                  merchant: '\\bto (?<merchant>[A-Z]+)'
                  date: '(?<date>\\d{2}/\\d{2}/\\d{4})'
                  reference: '(?i)\\bref (?<reference>\\w+)'
                examples: [{text: "You spent €5.00", expect: {amount: "5.00"}}, {text: "Debit €2.00", expect: {amount: "2.00"}}]
            """,
    ]

    static func engine() -> RuleEngine {
        var files = files
        for name in ["common", "generic"] {
            files["\(name).yaml"] = try! String(contentsOfFile: repositoryRoot + "/grammars/\(name).yaml", encoding: .utf8)
        }
        let (engine, diagnostics) = compile(files)
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        return engine
    }

    func parse(_ text: String, sender: String?) -> ParseOutcome {
        Self.engine().makeWorker().parse(Message(id: "m", text: text, sender: sender, channel: .sms))
    }

    @Test("an unknown sender's message in a bank's format is read with that format, and doubted")
    func unknownSender() throws {
        let t = try #require(parse("Card payment of £8.20 to PRET approved on 04/11/2026", sender: "NEWBANK").transaction)
        #expect(t.rule == "abank.card" && t.bank == "generic")
        #expect(t.amountText == "8.20" && t.merchant == "PRET" && t.date?.description == "2026-11-04")
        #expect(t.confidenceParts.contains(.anotherBanksFormat) && t.confidence < 0.7)
    }

    @Test("explain shows the country the fallback reads as and every format it tried")
    func explainShowsTheFormatsTried() throws {
        let message = Message(id: "m", text: "Card payment of £8.20 to PRET approved on 04/11/2026", sender: "BBANK", channel: .sms)
        let explanation = Self.engine().makeWorker().explain(message)
        #expect(explanation.readAs == "GB" && !explanation.countryInferred)
        let formats = try #require(explanation.formats)
        #expect(formats.map(\.parser) == ["abank.card"], "only A Bank's card format holds the text's literals; B Bank was tried")
        let text = explanation.render()
        #expect(text.contains("fallback generic (read as GB, the named bank's country):\n"), "\(text)")
        #expect(text.contains("format recognition: other banks' parsers whose literals the text holds, in the order tried\n"
            + "  abank.card (abank): matched\n"), "\(text)")
        #expect(text.contains("result: transaction by abank.card"), "\(text)")
        // No fallback gate read it: formats are not tried, and explain says nothing of them.
        let quiet = Self.engine().makeWorker().explain(Message(id: "m", text: "Hello there", sender: "NEWBANK", channel: .sms))
        #expect(quiet.formats == nil && !quiet.render().contains("format recognition"))
    }

    @Test("a known bank's new format is read with another bank's, on behalf of the sender's bank")
    func knownBankNewFormat() throws {
        let t = try #require(parse("Card payment of £8.20 to PRET approved on 04/11/2026", sender: "BBANK").transaction)
        #expect(t.rule == "abank.card" && t.bank == "bbank")
        #expect(t.confidenceParts.contains(.anotherBanksFormat))
    }

    @Test("a format of another country's bank is not tried once the country is known")
    func otherCountry() throws {
        // From a GB bank: Kenya's wallet format is not tried; the fallback reads it.
        let t = try #require(parse("Wallet debit £100.00 to JAVA.", sender: "BBANK").transaction)
        #expect(t.rule == "generic.debit" && !t.confidenceParts.contains(.anotherBanksFormat))
        // No country known: it is.
        let unknown = try #require(parse("Wallet debit 100.00 to JAVA.", sender: "SOMEONE").transaction)
        #expect(unknown.rule == "kbank.paid")
    }

    @Test("the fallback's reading wins when it reads more of the message; a tie goes to the format")
    func fallbackReadsMore() throws {
        // Both read amount, currency, direction, merchant and date; the fallback also the reference.
        let more = try #require(parse("Card payment of £8.20 to PRET approved on 04/11/2026 ref X1234", sender: "NEWBANK").transaction)
        #expect(more.rule == "generic.debit" && more.reference == "X1234")
        let tie = try #require(parse("Card payment of £8.20 to PRET approved on 04/11/2026", sender: "NEWBANK").transaction)
        #expect(tie.rule == "abank.card")
    }

    @Test("a message none of the fallback's gates read is not tried with every format")
    func noGateNoFormats() throws {
        // abank.cash would read it, but no fallback gate word ("payment", "debit", "spent") is there.
        #expect(parse("Cash withdrawal of £20.00 at LINK ATM", sender: "NEWBANK").transaction == nil)
        // From A Bank's sender, its own parser reads it.
        #expect(try #require(parse("Cash withdrawal of £20.00 at LINK ATM", sender: "ABANK").transaction).rule == "abank.cash")
    }
}
