import ArgumentParser
import Foundation
import SpendlexEngine
import SpendlexStore

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how one message is parsed, how a stored transaction got its category, or how a card is chosen.",
        discussion: """
            --text: how the message is routed and parsed: every parser tried, every capture, the normalized \
            result, its category (which row decided and why) and its confidence part by part. \
            --purchase QUERY: every wallet card's reward rows and values, the winner and the losers with why \
            (the same as spendlex recommend QUERY --explain). --transaction ID: who set a stored transaction's \
            category (a person, the decision tables, the learned model), and what the model learned from the \
            ledger says about it: its guess, how sure, the runner-up, and the features that pulled most toward \
            the guess against the runner-up.
            """
    )

    @OptionGroup var rules: RuleOptions
    @OptionGroup var single: MessageOptions

    @Option(name: .long, help: ArgumentHelp("A purchase to explain the card choice for: \"groceries at Whole Foods for $150\".",
                                            valueName: "query"))
    var purchase: String?

    @Option(name: .long, help: ArgumentHelp("With --purchase: the wallet file.", valueName: "file"))
    var wallet: String?

    @Option(name: .long, help: ArgumentHelp("With --purchase: the day of the purchase.", valueName: "yyyy-mm-dd"))
    var date: String?

    @Option(name: .long, help: ArgumentHelp("A stored transaction's ledger id: how it got its category.", valueName: "id"))
    var transaction: Int64?

    @OptionGroup var store: StoreOption

    func validate() throws {
        if [single.text != nil, purchase != nil, transaction != nil].filter({ $0 }).count != 1 {
            throw ValidationError("give the message with --text TEXT, a purchase with --purchase QUERY, or --transaction ID")
        }
    }

    func run() throws {
        if let transaction {
            let ledger = try store.open()
            guard let t = try ledger.transaction(id: transaction) else {
                Stderr.write("error: the ledger has no transaction \(transaction)\n")
                throw ExitStatus.badInput
            }
            print(Self.categoryExplanation(t, prediction: try ledger.explainCategory(of: transaction)), terminator: "")
            return
        }
        if let purchase {
            // One implementation of the card decision: recommend's, with its explanation.
            var arguments = [purchase, "--explain"]
            if let wallet { arguments += ["--wallet", wallet] }
            if let date { arguments += ["--date", date] }
            let recommend = try Recommend.parse(arguments)
            try recommend.run()
            return
        }
        let engine = try rules.engine()
        guard let message = single.message else { return }
        print(engine.makeWorker().explain(message).render(), terminator: "")
    }

    /// Who set `t`'s category and what the learned model says about it.
    static func categoryExplanation(_ t: StoredTransaction, prediction: CategoryModel.Prediction?) -> String {
        let current = [t.categoryName, t.subcategory].compactMap { $0 }.joined(separator: " / ")
        var out = "transaction \(t.id): \(t.merchant ?? "no merchant"), \(t.amountText ?? "?") \(t.currency ?? "")\n"
        let who: String
        if t.categorySource == "user" {
            who = "set by hand"
        } else if let probability = t.categoryProbability {
            who = "by the learned model, \(String(format: "%.2f", probability)) sure"
        } else if t.category == nil || t.category == StoredTransaction.uncategorized {
            who = t.learned.map { "no table row decided; the learned model guessed \($0.label), only \(String(format: "%.2f", $0.probability)) sure: for review" }
                ?? "no table row decided"
        } else {
            who = "by the decision tables (spendlex explain --text shows the row)"
        }
        out += "category: \(current), \(who)\n"
        guard let prediction else { return out + "the learned model: nothing to learn from yet\n" }
        out += "the learned model, trained on the ledger without this transaction: \(prediction.label), "
            + "\(String(format: "%.2f", prediction.probability)) sure"
            + (prediction.runnerUp.map { "; runner-up \($0)" } ?? "") + "\n"
        if !prediction.evidence.isEmpty { out += "features that decided:\n" }
        for (feature, pull) in prediction.evidence {
            out += "  \(Self.describe(feature))  \(String(format: "+%.2f", pull))\n"
        }
        return out
    }

    /// A model feature in words: "merchant word SWIGGY", "amount 100 to 316".
    static func describe(_ feature: String) -> String {
        let value = String(feature.dropFirst(2))
        switch feature.prefix(2) {
        case "w:": return "merchant word \(value)"
        case "l:": return "merchant's last word \(value)"
        case "g:": return "merchant letters \(value.replacingOccurrences(of: "^", with: "⟨").replacingOccurrences(of: "$", with: "⟩"))"
        case "b:": return "bank \(value)"
        case "c:": return "channel \(value)"
        case "k:": return "direction/kind \(value)"
        case "a:":
            guard let bucket = Int(value) else { return "amount \(value)" }
            func bound(_ half: Int) -> String { "\(Int(pow(10, Double(half) / 2).rounded()))" }
            return "amount \(bound(bucket)) to \(bound(bucket + 1))"
        case "d:":
            let days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
            return "on a \(Int(value).map { days[($0 - 1) % 7] } ?? value)"
        default: return feature
        }
    }
}
