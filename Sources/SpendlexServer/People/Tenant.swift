import Foundation
import SpendlexEngine
import SpendlexRules
import SpendlexStore
import Synchronization

/// One person's data as the routes see it: their ledger (messages, transactions, mappings,
/// wallet, preferences), their cached mappings, their budgets file, and the rules their messages
/// are parsed with: the shared set, or the shared set and their own rule files. A service
/// serving one ledger has one; a household one per person.
public final class Tenant: Sendable {
    /// The person's id; nil for a service serving one ledger.
    public let personID: String?
    /// Their ledger.
    public let ledger: Ledger
    let mappings: CategoryMappingCache
    /// Their budgets file (GET /budgets).
    let budgetsPath: String
    let maxMIMEDepth: Int
    /// The rules everyone shares.
    let shared: LiveRules
    /// Where their own rule files are (`PUT /rules/mine/{file}`); nil for a service serving one ledger.
    let ownFolder: URL?

    /// The rules their messages are parsed with (their own set, compiled over the shared set's
    /// paths and their folder; or the shared set when they have no file), with the shared set it was
    /// decided beside: a reload of the shared set makes it stale. nil until their first message.
    /// Their folder is read once then, and again only when a file of theirs changes through the
    /// service, not for every message.
    private struct Own {
        var rules: LiveRules
        var sharedLoadedAt: Date
    }

    private let own = Mutex<Own?>(nil)

    init(personID: String?, ledger: Ledger, rules: LiveRules, budgetsPath: String, maxMIMEDepth: Int, ownRules: URL? = nil) {
        self.personID = personID
        self.ledger = ledger
        self.budgetsPath = budgetsPath
        self.maxMIMEDepth = maxMIMEDepth
        shared = rules
        ownFolder = ownRules
        mappings = CategoryMappingCache(ledger: ledger)
    }

    /// The names of their own rule files, sorted.
    var ownFiles: [String] {
        guard let ownFolder else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: ownFolder.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    }

    /// The rules their messages are parsed with now: the shared set when they have no file of
    /// their own; else their set, compiled again when the shared set has been reloaded since (if
    /// their files no longer compile beside it, the shared set alone, until they fix them).
    var rules: LiveRules {
        guard ownFolder != nil else { return shared }
        let sharedLoadedAt = shared.current.loadedAt
        return own.withLock { own in
            if let current = own, current.sharedLoadedAt == sharedLoadedAt { return current.rules }
            let rules = ownFiles.isEmpty ? shared : (try? compileOwn()) ?? shared
            own = Own(rules: rules, sharedLoadedAt: sharedLoadedAt)
            return rules
        }
    }

    /// What the intake that parses and stores their messages uses.
    var intake: MessageIntake {
        MessageIntake(rules: rules, ledger: ledger, mappings: mappings, maxMIMEDepth: maxMIMEDepth)
    }

    private func compileOwn() throws(RuleLoadError) -> LiveRules {
        try LiveRules(paths: shared.paths + [ownFolder!.path], policy: shared.policy, matchLimit: shared.matchLimit)
    }

    /// Why a file of their own was refused.
    enum OwnRulesError: Error {
        /// The set with it has errors.
        case invalid(RuleLoadError)
        /// The file could not be written or removed.
        case io(String)
    }

    /// Saves (or, with `text` nil, removes) one of their rule files, if the set with the change
    /// compiles beside the shared one; else puts the file back as it was and throws its diagnostics.
    /// Returns false when removing a file that is not there.
    @discardableResult
    func changeOwnFile(_ name: String, to text: String?) throws(OwnRulesError) -> Bool {
        guard let ownFolder else { throw .io("no folder for rule files") }
        let file = ownFolder.appendingPathComponent(name)
        return try own.withLock { own throws(OwnRulesError) -> Bool in
            let before = try? Data(contentsOf: file)
            if text == nil && before == nil { return false }
            do {
                try FileManager.default.createDirectory(at: ownFolder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                if let text { try Data(text.utf8).write(to: file, options: .atomic) } else { try FileManager.default.removeItem(at: file) }
            } catch { throw .io("\(error)") }
            if ownFiles.isEmpty {
                own = Own(rules: shared, sharedLoadedAt: shared.current.loadedAt)
                return true
            }
            do throws(RuleLoadError) {
                let compiled = try compileOwn()
                own = Own(rules: compiled, sharedLoadedAt: shared.current.loadedAt)
                return true
            } catch {
                // Back as it was: a file that breaks their set is not kept.
                if let before { try? before.write(to: file, options: .atomic) } else { try? FileManager.default.removeItem(at: file) }
                throw .invalid(error)
            }
        }
    }
}
