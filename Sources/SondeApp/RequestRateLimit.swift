import Foundation
import Synchronization

/// At most `limit` requests per key in any `window` (a sliding window of timestamps), for
/// the credential forms (issue 44): a flood of reset messages for one address, or password
/// spraying across accounts from one client, is answered 429 with Retry-After. Memory is
/// bounded: at most `maximumKeys` keys; past that the one idle longest is forgotten.
final class RequestRateLimit: Sendable {
    let limit: Int
    let window: Double
    let maximumKeys: Int
    private let recent = Mutex<[String: [Double]]>([:])

    init(limit: Int, window: Double, maximumKeys: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maximumKeys = maximumKeys
    }

    /// Counts a request for `key` at `now` (seconds); nil when allowed, else the seconds
    /// until the oldest counted request leaves the window (and this one is not counted).
    func retryAfter(_ key: String, now: Double = Date().timeIntervalSince1970) -> Int? {
        if let wait = blocked(key, now: now) { return wait }
        record(key, now: now)
        return nil
    }

    /// The seconds until `key` may try again, or nil when it may now; counts nothing (for
    /// limits on failures, counted by `record` once the outcome is known).
    func blocked(_ key: String, now: Double = Date().timeIntervalSince1970) -> Int? {
        recent.withLock { recent in
            let times = (recent[key] ?? []).filter { now - $0 < window }
            guard times.count >= limit, let oldest = times.first else { return nil }
            recent[key] = times
            return max(1, Int((window - (now - oldest)).rounded(.up)))
        }
    }

    /// Counts one event for `key` at `now`.
    func record(_ key: String, now: Double = Date().timeIntervalSince1970) {
        recent.withLock { recent in
            var times = (recent[key] ?? []).filter { now - $0 < window }
            times.append(now)
            if recent[key] == nil, recent.count >= maximumKeys,
                let idlest = recent.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key
            {
                recent.removeValue(forKey: idlest)
            }
            recent[key] = times
        }
    }
}
