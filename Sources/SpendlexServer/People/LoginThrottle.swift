import Foundation
import Synchronization

/// Limits failed logins: at most `limit` failures for one account, and `addressLimit` from one
/// client address, within `window`; past that, every attempt is refused (429 with
/// `Retry-After`) without checking any password until the window that began with the first
/// failure has passed. An address that does not exist counts as an account like any other, so
/// the limit does not tell registered addresses apart. Kept in memory: a restart forgets it.
public final class LoginThrottle: Sendable {
    /// Failures one account may have within a window.
    public let limit: Int
    /// Failures one client address may have within a window (over all accounts).
    public let addressLimit: Int
    /// How long a window lasts from its first failure.
    public let window: Duration

    private struct Count {
        var first: ContinuousClock.Instant
        var failures: Int
    }

    private let counts = Mutex<[String: Count]>([:])
    /// The most keys kept; beyond it, finished windows are dropped.
    private static let maxKeys = 100_000
    /// What time it is (tests move it on instead of waiting).
    private let clock: @Sendable () -> ContinuousClock.Instant

    /// A throttle; by default 10 failures an account and 100 an address in 15 minutes.
    public init(limit: Int = 10, addressLimit: Int = 100, window: Duration = .seconds(15 * 60),
                clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.limit = limit
        self.addressLimit = addressLimit
        self.window = window
        self.clock = clock
    }

    /// How long to wait before this account may try again from this address; nil: it may now.
    public func wait(account: String, address: String) -> Duration? {
        let now = clock()
        return counts.withLock { counts in
            var longest: Duration?
            for (key, allowed) in [(Self.accountKey(account), limit), ("address:" + address, addressLimit)] {
                guard let count = counts[key] else { continue }
                let end = count.first.advanced(by: window)
                if now >= end {
                    counts[key] = nil
                } else if count.failures >= allowed {
                    let left = end - now
                    longest = max(longest ?? .zero, left)
                }
            }
            return longest
        }
    }

    /// Records a failed attempt.
    public func failed(account: String, address: String) {
        let now = clock()
        counts.withLock { counts in
            if counts.count >= Self.maxKeys {
                counts = counts.filter { now < $0.value.first.advanced(by: window) }
            }
            for key in [Self.accountKey(account), "address:" + address] {
                if var count = counts[key], now < count.first.advanced(by: window) {
                    count.failures += 1
                    counts[key] = count
                } else {
                    counts[key] = Count(first: now, failures: 1)
                }
            }
        }
    }

    /// Forgets an account's failures after it logged in.
    public func succeeded(account: String) {
        counts.withLock { $0[Self.accountKey(account)] = nil }
    }

    private static func accountKey(_ email: String) -> String { "account:" + email.lowercased() }
}
