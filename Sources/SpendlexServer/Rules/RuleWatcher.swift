import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Reloads the live rules when their files change and on SIGHUP, for as long as the service runs.
///
/// Changes are found by polling: once a second, every file under the rule paths is listed
/// with its size, modification time and inode, and a different list triggers a reload once it
/// has held still for one more second.
/// Polling was chosen over inotify because Foundation has no inotify API (it would be a C
/// shim and a watch per folder, re-added as folders come and go), because editors that save
/// by writing a new file and renaming it over the old one are seen the same way as in-place
/// writes, and because a few dozen `stat` calls a second cost nothing next to serving requests.
public struct RuleWatcher: Service {
    let rules: LiveRules
    let interval: Duration?
    let logger: Logger

    /// Watches `rules`' paths every `interval` (nil: only SIGHUP reloads).
    public init(rules: LiveRules, interval: Duration? = .seconds(1), logger: Logger) {
        self.rules = rules
        self.interval = interval
        self.logger = logger
    }

    /// Polls and listens for SIGHUP until the service shuts down.
    public func run() async throws {
        let subscription = HangupSignal.subscribe { [rules, logger] in
            Self.report(rules.reload(), cause: "SIGHUP", logger: logger)
        }
        defer { HangupSignal.unsubscribe(subscription) }
        let watched = rules.watchedPaths
        await cancelWhenGracefulShutdown {
            // From the files as the serving set read them: an edit made before now is seen too.
            var seen = rules.current.files
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval ?? .seconds(3600)) } catch { return }
                var now = RuleFiles.fingerprint(of: watched)
                guard now != seen, let interval else { continue }
                // A file caught half-written (an editor or a copy still at work) would be refused
                // for nothing: wait until the listing holds still for one more interval.
                while true {
                    do { try await Task.sleep(for: interval) } catch { return }
                    let again = RuleFiles.fingerprint(of: watched)
                    if again == now { break }
                    now = again
                }
                seen = now
                Self.report(rules.reload(), cause: "rule files changed", logger: logger)
            }
        }
    }

    /// Logs a reload: the new set's size, or the refused set's diagnostics in `file:line:col` form.
    static func report(_ reload: LiveRules.Reload, cause: String, logger: Logger) {
        switch reload {
        case .swapped(let snapshot):
            logger.notice("rules reloaded (\(cause)): \(snapshot.bankIDs.count) banks, \(snapshot.parserCount) parsers")
        case .rejected(let rejected):
            logger.error("rules reload refused (\(cause)); the previous rule set keeps serving:\n\(rejected.formatted)")
        }
    }
}

/// SIGHUP, taken once per process from one dispatch source that is never cancelled, and
/// passed on to every subscriber. (A source per watcher, cancelled when its service stopped,
/// lost the signal for the watchers still running in the same process.)
enum HangupSignal {
    private static let subscribers = Mutex<[Int: @Sendable () -> Void]>([:])
    private static let nextID = Mutex(0)
    // Set once, never mutated or cancelled: safe to share.
    nonisolated(unsafe) private static let source: any DispatchSourceSignal = {
        // SIGHUP's default action ends the process: ignore it and take it from the source.
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler {
            for handler in subscribers.withLock({ Array($0.values) }) { handler() }
        }
        source.resume()
        return source
    }()

    /// Calls `handler` on every SIGHUP until unsubscribed; returns the subscription's id.
    static func subscribe(_ handler: @escaping @Sendable () -> Void) -> Int {
        _ = source
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        subscribers.withLock { $0[id] = handler }
        return id
    }

    /// Stops calling a subscription's handler.
    static func unsubscribe(_ id: Int) {
        _ = subscribers.withLock { $0.removeValue(forKey: id) }
    }
}

/// The rule files' identities, to tell when any changed.
enum RuleFiles {
    /// One line per regular file under `paths` (recursively): path, size, modification time
    /// in nanoseconds, inode. Missing paths give nothing, so a removed folder is a change too.
    static func fingerprint(of paths: [String]) -> [String] {
        var lines: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                lines.append(line(path))
                continue
            }
            guard let files = manager.enumerator(atPath: path) else { continue }
            for case let relative as String in files {
                let full = (path as NSString).appendingPathComponent(relative)
                var stats = stat()
                if stat(full, &stats) == 0, (stats.st_mode & S_IFMT) == S_IFREG { lines.append(line(full, stats)) }
            }
        }
        return lines.sorted()
    }

    private static func line(_ path: String, _ known: stat? = nil) -> String {
        var stats = known ?? stat()
        if known == nil, stat(path, &stats) != 0 { return path }
        #if os(Linux)
        let modified = stats.st_mtim
        #else
        let modified = stats.st_mtimespec
        #endif
        let nanoseconds = Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec)
        return "\(path)\t\(stats.st_size)\t\(nanoseconds)\t\(stats.st_ino)"
    }
}
