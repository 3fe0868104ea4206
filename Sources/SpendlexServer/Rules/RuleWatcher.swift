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
    let requests: ReloadRequests
    let logger: Logger

    /// Watches `rules`' paths every `interval` (nil: only requests reload) and reloads on
    /// every request from `requests` (SIGHUP by default).
    public init(rules: LiveRules, interval: Duration? = .seconds(1), requests: ReloadRequests,
                logger: Logger) {
        self.rules = rules
        self.interval = interval
        self.requests = requests
        self.logger = logger
    }

    /// Polls and listens for reload requests until the service shuts down.
    public func run() async throws {
        let cause = requests.cause
        let subscription = requests.listen { [rules, logger] in
            Self.report(rules.reload(), cause: cause, logger: logger)
        }
        defer { requests.stopListening(subscription) }
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

/// Requests to reload the rules now, passed on to every rule watcher listening to them.
///
/// The service listens to ``hangup`` (SIGHUP) unless its configuration names another
/// source: tests give each service its own, so that a reload asked of one service never
/// reaches another test's service (whose rule folder may already be gone).
public final class ReloadRequests: Sendable {
    private let listeners = Mutex<(next: Int, handlers: [Int: @Sendable () -> Void])>((0, [:]))
    /// What the log names as a reload's cause.
    let cause: String

    /// A source of reload requests that only ``send()`` feeds.
    public convenience init() { self.init(cause: "reload request") }

    init(cause: String) { self.cause = cause }

    /// SIGHUP, for the whole process. The first use installs the signal handler.
    public static var hangup: ReloadRequests { HangupSignal.requests }

    /// Asks every listener to reload, on the caller's thread, one after the other; returns
    /// how many listened.
    @discardableResult
    public func send() -> Int {
        let handlers = listeners.withLock { Array($0.handlers.values) }
        for handler in handlers { handler() }
        return handlers.count
    }

    /// How many watchers listen now.
    public var listenerCount: Int { listeners.withLock { $0.handlers.count } }

    /// Calls `handler` on every request until `stopListening`; returns the subscription's id.
    public func listen(_ handler: @escaping @Sendable () -> Void) -> Int {
        listeners.withLock { state in
            state.next += 1
            state.handlers[state.next] = handler
            return state.next
        }
    }

    /// Stops calling a subscription's handler.
    public func stopListening(_ id: Int) {
        _ = listeners.withLock { $0.handlers.removeValue(forKey: id) }
    }
}

#if os(Linux)
/// The semaphore the SIGHUP handler posts; set once, before the handler is installed.
nonisolated(unsafe) private var hangupSemaphore: UnsafeMutablePointer<sem_t>?
#else
/// The write end of the SIGHUP pipe; set once, before the handler is installed.
nonisolated(unsafe) private var hangupPipe: Int32 = -1
#endif

/// SIGHUP, taken by a signal handler that wakes a thread, which sends a reload request.
///
/// A dispatch signal source was used before: on Linux it reads the signal through a
/// signalfd, which only sees a signal that every thread blocks. A process-wide SIGHUP went to
/// whichever thread did not block it (a NIO or test thread) and was discarded there, so a
/// reload happened or not depending on the load. A handler runs on whichever thread takes the
/// signal, so none is lost (a burst of signals may merge into fewer reloads, which is enough).
///
/// On Linux the handler posts a process-private POSIX semaphore (`sem_post` is
/// async-signal-safe). It wrote a byte to a pipe before (the self-pipe trick, kept for macOS,
/// which has no unnamed semaphores): a pipe is two file descriptors, and in the test process a
/// stray close of a recycled descriptor number elsewhere broke it now and then, so that the
/// SIGHUP test waited in vain. A semaphore has no descriptor to lose.
enum HangupSignal {
    static let requests: ReloadRequests = {
        let requests = ReloadRequests(cause: "SIGHUP")
        #if os(Linux)
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        guard sem_init(semaphore, 0, 0) == 0 else { fatalError("cannot create the SIGHUP semaphore: errno \(errno)") }
        hangupSemaphore = semaphore
        let thread = Thread {
            while let semaphore = hangupSemaphore {
                if sem_wait(semaphore) == 0 {
                    requests.send()
                } else if errno != EINTR {
                    return
                }
            }
        }
        #else
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot create the SIGHUP pipe: errno \(errno)") }
        // The handler must never block: a full pipe already holds a pending reload.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        hangupPipe = ends[1]
        let reader = ends[0]
        let thread = Thread {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(reader, &bytes, bytes.count)
                if count > 0 {
                    requests.send()
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        #endif
        thread.name = "spendlex-sighup"
        thread.start()
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        let handler: @convention(c) (Int32) -> Void = { _ in
            // Only async-signal-safe calls here, errno saved and restored.
            let saved = errno
            #if os(Linux)
            if let semaphore = hangupSemaphore { sem_post(semaphore) }
            #else
            var byte: UInt8 = 1
            _ = write(hangupPipe, &byte, 1)
            #endif
            errno = saved
        }
        #if os(Linux)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigaction(SIGHUP, &action, nil)
        return requests
    }()
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
