import ArgumentParser
import SpendlexEngine

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how one message is parsed, or how a card is chosen for one purchase.",
        discussion: """
            --text: how the message is routed and parsed: every parser tried, every capture, the normalized \
            result, its category (which row decided and why) and its confidence part by part. \
            --purchase QUERY: every wallet card's reward rows and values, the winner and the losers with why \
            (the same as spendlex recommend QUERY --explain).
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

    func validate() throws {
        if (single.text == nil) == (purchase == nil) {
            throw ValidationError("give the message with --text TEXT, or a purchase with --purchase QUERY")
        }
    }

    func run() throws {
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
}
