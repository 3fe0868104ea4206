import ArgumentParser
import SpendlexEngine

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show how one message is routed and parsed: every parser tried, every capture, the result."
    )

    @OptionGroup var rules: RuleOptions
    @OptionGroup var single: MessageOptions

    func validate() throws {
        if single.text == nil { throw ValidationError("give the message with --text TEXT") }
    }

    func run() throws {
        let engine = try rules.engine()
        guard let message = single.message else { return }
        print(engine.makeWorker().explain(message).render(), terminator: "")
    }
}
