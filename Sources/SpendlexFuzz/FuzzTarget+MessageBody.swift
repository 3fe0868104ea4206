import Foundation
import SpendlexEngine
import SpendlexMail

extension FuzzTarget {
    /// The bundled rules (`rules`, `grammars` under the working directory, the repository's root
    /// when run by `scripts/fuzz.sh`), compiled once: what the service parses posted messages with.
    private static let postedMessageEngine: RuleEngine = {
        let (compiled, diagnostics) = RuleCompiler.load(paths: ["rules", "grammars"], findingGrammars: true)
        if diagnostics.containsErrors {
            FuzzCheck.printError("spendlex-fuzz: the bundled rules do not compile; run from the repository's root")
            exit(64)
        }
        return RuleEngine(rules: compiled)
    }()

    /// Compiles the bundled rules now (`FuzzTarget.prepare`).
    static func preparePostedMessages() {
        _ = postedMessageEngine
    }

    /// A `POST /messages` body: decoded into `MessageInput` with `JSONDecoder`, as the service
    /// decodes it, then read as the service reads it (`PostedMessage.read`: its checks, an SMS or a
    /// raw email through the MIME decoder, the bundled rules). A refusal must say why; a message
    /// read has an id, and a transaction from it an amount.
    static func messageBody(_ bytes: [UInt8]) {
        guard let input = try? JSONDecoder().decode(MessageInput.self, from: Data(bytes)) else { return }
        do {
            let (message, outcome) = try PostedMessage.read(input, worker: postedMessageEngine.makeWorker())
            FuzzCheck.expect(!message.id.isEmpty, "a posted message read without an id")
            if let transaction = outcome.transaction {
                FuzzCheck.expect(transaction.amount != nil, "a transaction without an amount from \(transaction.rule)")
            }
        } catch {
            switch error {
            case .invalidMessage(let reason), .invalidEmail(let reason):
                FuzzCheck.expect(!reason.isEmpty, "a posted message refused without a reason")
            }
        }
    }
}
