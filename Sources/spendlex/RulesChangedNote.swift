import Foundation
import SpendlexStore
import Synchronization

/// What a command that reads the ledger says, once, on stderr, when the rule files that parsed
/// some of its messages have changed since: what it shows is what the rules then read, and
/// `parse --reprocess` reads them again. (`parse` itself compares with the rules it loaded.)
enum RulesChangedNote {
    private static let said = Atomic<Bool>(false)

    /// Checks `ledger` (at `path`); a failed check is not worth a command's failure, and says nothing.
    static func check(_ ledger: Ledger, path: String) {
        guard !said.exchange(true, ordering: .relaxed) else { return }
        guard let changed = try? ledger.messagesParsedWithChangedRules(), changed > 0 else { return }
        Stderr.write("note: the rule files changed since \(changed) of the ledger's messages were parsed; they show what "
                     + "the rules then read: run 'spendlex parse INPUT... --store \(path) --reprocess' to read them again\n")
    }
}
