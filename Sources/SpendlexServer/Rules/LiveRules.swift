import Foundation
import SpendlexEngine
import SpendlexRules
import Synchronization

/// A compiled rule set as the service serves it: the engine, what loading it said (its
/// warnings: a set with errors is never served), and when it was loaded.
public struct RuleSnapshot: Sendable {
    /// The engine over the compiled rules.
    public let engine: RuleEngine
    /// The set's diagnostics (warnings and notes only), sorted by location.
    public let diagnostics: [Diagnostic]
    /// When it was compiled.
    public let loadedAt: Date
    /// The rule files as they were just before they were read (`RuleFiles.fingerprint`): the
    /// watcher's starting point, so that an edit made before it starts is not missed.
    let files: [String]

    /// The ids of the set's banks, in load order (fallback files included).
    public var bankIDs: [String] { engine.rules.banks.map(\.id) }
    /// How many parsers the set has.
    public var parserCount: Int { engine.rules.parserCount }
}

/// A rule set that was compiled after an edit and refused: it had errors, so the set before
/// it kept serving.
public struct RejectedRules: Sendable {
    /// When the reload was tried.
    public let at: Date
    /// Every diagnostic of the refused set, sorted by location.
    public let diagnostics: [Diagnostic]
    /// The diagnostics as `file:line:col: severity: message [id]` with their source lines.
    public let formatted: String
}

/// Why the first load failed: the rule files have errors.
public struct RuleLoadError: Error, CustomStringConvertible {
    /// The diagnostics, formatted with their source lines.
    public let formatted: String
    /// Every diagnostic, sorted by location.
    public var diagnostics: [Diagnostic] = []
    /// The formatted diagnostics.
    public var description: String { formatted }
}

/// The rules the service parses with, replaced whole while it runs.
///
/// A reload compiles the files off to the side; the new set is swapped in only when it has
/// no errors, in one step under a lock, so that each request sees either the old set or the
/// new one, never a mix. Requests in flight keep the snapshot they took.
public final class LiveRules: Sendable {
    /// What happened to a reload.
    public enum Reload: Sendable {
        /// The new set serves from now on.
        case swapped(RuleSnapshot)
        /// The new set has errors; the old one keeps serving.
        case rejected(RejectedRules)
    }

    /// The rule files and folders (bank files, grammars, categories).
    public let paths: [String]
    /// Thresholds of the engines made.
    public let policy: ConfidencePolicy
    /// The PCRE2 match limit of the engines made.
    public let matchLimit: UInt32
    /// What is watched for changes: the paths, and the grammars folder that loading finds beside them.
    let watchedPaths: [String]

    private struct State {
        var current: RuleSnapshot
        var rejected: RejectedRules?
    }

    private let state: Mutex<State>
    /// Held while a set compiles, so that two reloads (a signal and a file change) do not
    /// race to swap in their sets out of order. Readers never take it.
    private let reloading: Mutex<Void>

    /// Loads and compiles the rules at `paths`; throws when they have errors.
    public init(paths: [String], policy: ConfidencePolicy = ConfidencePolicy(),
                matchLimit: UInt32 = RuleEngine.defaultMatchLimit) throws(RuleLoadError) {
        // Compiled and checked before any stored property is set: throwing from a partly
        // initialized class whose properties include a Mutex crashed Swift 6.3.1's optimizer
        // (CopyPropagation, "Found outside of lifetime use") in release builds.
        let watched = paths + [RuleLoader.grammarFolder(near: paths)].compactMap { $0 }
        let snapshot: RuleSnapshot
        switch Self.compile(paths: paths, watched: watched, policy: policy, matchLimit: matchLimit) {
        case .swapped(let compiled): snapshot = compiled
        case .rejected(let rejected): throw RuleLoadError(formatted: rejected.formatted, diagnostics: rejected.diagnostics)
        }
        self.paths = paths
        self.policy = policy
        self.matchLimit = matchLimit
        watchedPaths = watched
        state = Mutex(State(current: snapshot))
        reloading = Mutex(())
    }

    /// The set serving now.
    public var current: RuleSnapshot { state.withLock { $0.current } }

    /// The last refused reload, if the last reload was refused; nil once a reload succeeds.
    public var rejected: RejectedRules? { state.withLock { $0.rejected } }

    /// Compiles the files again and swaps the new set in if it has no errors.
    @discardableResult
    public func reload() -> Reload {
        reloading.withLock { _ in
            let result = Self.compile(paths: paths, watched: watchedPaths, policy: policy, matchLimit: matchLimit)
            state.withLock { state in
                switch result {
                case .swapped(let snapshot):
                    state.current = snapshot
                    state.rejected = nil
                case .rejected(let rejected):
                    state.rejected = rejected
                }
            }
            return result
        }
    }

    private static func compile(paths: [String], watched: [String], policy: ConfidencePolicy, matchLimit: UInt32) -> Reload {
        let files = RuleFiles.fingerprint(of: watched)
        let (compiled, diagnostics) = RuleCompiler.load(paths: paths, findingGrammars: true)
        let sorted = diagnostics.sortedByLocation()
        guard !diagnostics.containsErrors else {
            // Formatted with their source lines, which may quote an example's text: card numbers masked.
            let formatted = CardNumberMasker.mask(
                DiagnosticFormatter(sources: compiled.rules.sources).format(sorted.filter { $0.severity == .error }))
            return .rejected(RejectedRules(at: Date(), diagnostics: sorted, formatted: formatted))
        }
        return .swapped(RuleSnapshot(engine: RuleEngine(rules: compiled, policy: policy, matchLimit: matchLimit), diagnostics: sorted,
                                     loadedAt: Date(), files: files))
    }
}
