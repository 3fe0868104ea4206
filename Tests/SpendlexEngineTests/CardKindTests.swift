import Foundation
import Testing
@testable import SpendlexEngine
import SpendlexRules

/// Whose money a card spends: the parser's `account_type: debit_card`, else the field layer's
/// `card_kinds` read from the words around the transaction (the bundled `grammars/fields.yaml`).
@Suite("Card kinds")
struct CardKindTests {
    static let bundled: RuleEngine = {
        let (compiled, diagnostics) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        precondition(!diagnostics.containsErrors, "\(diagnostics)")
        return RuleEngine(rules: compiled)
    }()

    func account(_ text: String, sender: String) throws -> Transaction.AccountReference? {
        let outcome = Self.bundled.makeWorker().parse(Message(id: "m", text: text, sender: sender, channel: .sms))
        return try #require(outcome.transaction, "no transaction: \(outcome)").account
    }

    @Test("the words that name the card tell its kind, in several languages", arguments: [
        ("Rs.500.00 debited from your HDFC Bank Debit Card xx1234 at AMAZON on 2026-11-20.", "VM-HDFCBK", CardKind.debit),
        ("Rs.500.00 spent on HDFC Bank Credit Card xx1234 at SWIGGY on 2026-11-20.", "VM-HDFCBK", .credit),
        ("UBL Debit Card *-3895 is charged on 15/07/26 at 02:08 PM for PKR 5,000.00 at VALENCIA S.", "UBL", .debit),
        ("Compra realizada con tu tarjeta de débito terminada en 1234 por 12,50€ en MERCADONA el 07/09/2026", "BBVA", .debit),
        ("Compra aprovada: R$ 600,00 em 3 vezes de R$ 200,00. cartão final 9988.", "Nubank", .credit),
        ("Rs. 60.00 spent from Pluxee Meal Card wallet, card no.xx1345 on 30-06-2025 18:41:56 at KITCHEN AFF .", "Pluxee", .prepaid),
    ])
    func fromTheText(text: String, sender: String, kind: CardKind) throws {
        let account = try #require(try account(text, sender: sender))
        #expect(account.type == "card")
        #expect(account.cardKind == kind)
    }

    @Test("an available limit is a credit card's; a card no words name keeps no kind")
    func limitAndUnknown() throws {
        let limited = try account("INR 1,604.00 spent using ICICI Bank Card XX0000 on 01-May-26 on ONYX BAR. Avl Limit: INR 99,999.99.",
                                  sender: "AD-ICICIB")
        #expect(limited?.cardKind == .credit)
        let plain = try account("Rs.500 debited at STARBUCKS on your card ending 1234", sender: "VM-XYZBNK")
        #expect(plain?.type == "card")
        #expect(plain?.cardKind == nil)
    }

    @Test("the mention nearest the transaction wins over an offer further on")
    func nearestMention() throws {
        let account = try account("Rs.500.00 debited from your HDFC Bank Debit Card xx1234 at AMAZON on 2026-11-20. Get a credit card today!",
                                  sender: "VM-HDFCBK")
        #expect(account?.cardKind == .debit)
    }

    @Test("a bank account has no card kind, whatever the text says")
    func accountsHaveNone() throws {
        let account = try account("HDFC Bank:Rs. 250.00 debited from a/c *1234 on 12/09/26 to VPA sample@okicici for debit card fees "
                                    + "(UPI Ref No. 512345678901). Not you? Call on 18002586161 to report", sender: "VM-HDFCBK")
        #expect(account?.type == "account")
        #expect(account?.cardKind == nil)
    }

    static let bank = """
        bank: Test Bank
        id: tb
        country: IN
        senders: [TB]
        parsers:
          - id: tb.debit
            direction: debit
            account_type: debit_card
            pattern: 'Rs\\.(?<amount>[\\d,.]+\\d) spent on card (?<last4>\\d{4})'
            examples: [{text: "Rs.10 spent on card 1234 (credit card offers inside)", expect: {amount: "10", card_kind: debit}}]
          - id: tb.payment
            direction: credit
            kind: card_payment
            account_type: card
            pattern: 'Rs\\.(?<amount>[\\d,.]+\\d) received for card (?<last4>\\d{4})'
            examples: [{text: "Rs.10 received for card 1234", expect: {amount: "10", card_kind: credit}}]
        """

    @Test("a parser's account_type names the kind, over the text; a payment made to a card pays a credit card")
    func declaredAndPayments() throws {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: try String(contentsOfFile: repositoryRoot + "/grammars/fields.yaml", encoding: .utf8),
                        path: "grammars/fields.yaml", into: &ruleSet, diagnostics: &diagnostics)
        RuleLoader.load(text: Self.bank, path: "banks/in/tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        let engine = RuleEngine(rules: RuleCompiler.compile(ruleSet).0)
        let report = RuleTestRunner.run(engine)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.passed == 2)
    }

    @Test("an account_type the language does not know is reported where it is written, with the ones it does")
    func unknownAccountType() {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        RuleLoader.load(text: Self.bank.replacingOccurrences(of: "account_type: debit_card", with: "account_type: debit"),
                        path: "banks/in/tb.yaml", into: &ruleSet, diagnostics: &diagnostics)
        let error = diagnostics.first { $0.severity == .error }
        #expect(error?.location.line == 8)
        #expect(error?.message.contains("debit_card") == true)
    }
}
