import ArgumentParser
import Foundation
import SpendlexStore

struct CheckBalances: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-balances",
        abstract: "Check that the ledger's balances chain: a check of the parsing that needs no labels.",
        discussion: """
            Where a bank's messages state the balance after each transaction, consecutive transactions of \
            one account (bank, account, currency; in time order, duplicates left out) must chain: the \
            previous balance, less a debit or plus a credit, is the next one (for a card, the amount owed \
            may rise instead: the account's convention is the one most of its pairs follow). Prints, per \
            account, the share of consecutive pairs that chain and each break (a missing message, a fee, \
            or a field read wrong). Exits 0 whatever it finds.
            """
    )

    /// How the result is written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var range: LedgerRangeOptions

    @Option(name: .long, help: "Output format: text or json.")
    var format: Format = .text

    @Option(name: .long, help: "How many breaks to list per account in the text output.")
    var breaks: Int = 20

    func validate() throws {
        if breaks < 0 { throw ValidationError("--breaks must be at least 0") }
    }

    func run() throws {
        let chains = BalanceChains(transactions: try range.transactions())
        print(format == .json ? chains.json() : chains.text(limit: breaks), terminator: "")
    }
}
