import ArgumentParser
import Foundation
import SpendlexMeaning
import SpendlexStore

/// The ledger's search indexes from the command line: the vectors brought up to date at the end of
/// a run that stored messages (when the embedding model is installed, so that the first search by
/// meaning does not wait for them; the words are indexed by the next search, all together), both
/// rebuilt by `spendlex reindex`.
enum SearchIndexing {
    /// The embedding model when installed; nil (and the reason) when not.
    static func model() -> (EmbeddingModel?, EmbeddingModel.LoadError?) {
        switch EmbeddingModel.installed() {
        case .success(let model): return (model, nil)
        case .failure(let error): return (nil, error)
        }
    }

    /// After a run stored messages: their transactions' meanings embedded, with a progress line on
    /// a terminal. Without the model nothing is done; a failure is a warning, since what the run
    /// stored is stored.
    static func afterStoring(_ ledger: Ledger, quiet: Bool) {
        guard let model = model().0 else { return }
        let progress = ProgressPrinter(enabled: !quiet && isatty(STDERR_FILENO) == 1, what: "embedding meanings for search (messages)")
        do {
            let started = Date()
            let made = try ledger.updateMeaningIndex(embedder: model, progress: progress.show)
            progress.clear()
            if !quiet, made > 0 {
                let seconds = Date().timeIntervalSince(started)
                Stderr.write(String(format: "search: %d new meaning%@ embedded in %.1f s\n", made, made == 1 ? "" : "s", seconds))
            }
        } catch {
            progress.clear()
            Stderr.write("warning: the search indexes were not brought up to date (the next search does it): \(error)\n")
        }
    }

    /// "what: done/total" rewritten in place on stderr, when enabled.
    final class ProgressPrinter: @unchecked Sendable {
        let enabled: Bool
        let what: String
        private var shown = false

        init(enabled: Bool, what: String) {
            self.enabled = enabled
            self.what = what
        }

        func show(_ done: Int, _ total: Int) {
            guard enabled, total > 0 else { return }
            Stderr.write("\r\u{1B}[K\(what): \(done)/\(total)")
            shown = true
        }

        func clear() {
            if shown { Stderr.write("\r\u{1B}[K") }
            shown = false
        }
    }
}

struct Reindex: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild the ledger's search indexes: the full-text index and the vectors for search by meaning.",
        discussion: """
            Both are kept in step as the ledger changes and catch up by themselves (at the end of a run that \
            stores, or at the next search); this throws them away and builds them again from the stored messages \
            and transactions, with a progress line on a terminal. Without the embedding model (scripts/dev model) \
            only the full-text index is rebuilt.
            """
    )

    @OptionGroup var store: StoreOption

    @Flag(name: .long, help: "No progress line or summary.")
    var quiet = false

    func run() throws {
        let ledger = try store.open()
        let (model, missing) = SearchIndexing.model()
        if let missing { Stderr.write("note: only the full-text index is rebuilt: \(missing)\n") }
        let progress = SearchIndexing.ProgressPrinter(enabled: !quiet && isatty(STDERR_FILENO) == 1, what: "embedding meanings")
        let started = Date()
        do {
            try ledger.rebuildSearchIndexes(embedder: model, progress: progress.show)
        } catch {
            progress.clear()
            Stderr.write("error: rebuilding the search indexes failed: \(error)\n")
            throw ExitStatus.internalError
        }
        progress.clear()
        if !quiet {
            let size = try ledger.meaningIndexSize()
            var line = String(format: "reindexed in %.1f s: the full-text index", Date().timeIntervalSince(started))
            if model != nil { line += ", \(size.messages) messages' meanings (\(size.documents) distinct)" }
            print(line)
        }
    }
}
