import Synchronization

/// Admission for password hashing (each scrypt hash takes 128 MiB): at most `capacity`
/// logins run at once, at most `maxWaiting` more wait their turn, and anyone beyond is
/// refused at once with a time to retry (the web answers 503 with Retry-After), so a burst
/// of logins costs neither gigabytes nor the pages of those already signed in.
final class LoginGate: Sendable {
    let capacity: Int
    let maxWaiting: Int
    /// Seconds one hash takes, roughly: what Retry-After is computed from.
    let secondsPerLogin: Double

    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    init(capacity: Int, maxWaiting: Int, secondsPerLogin: Double = 0.5) {
        self.capacity = max(1, capacity)
        self.maxWaiting = max(0, maxWaiting)
        self.secondsPerLogin = secondsPerLogin
    }

    /// Too many logins at once: try again after `retryAfter` seconds.
    struct Busy: Error, Equatable {
        var retryAfter: Int
    }

    /// Runs `body` when a place is free.
    /// - Throws: `Busy` when `maxWaiting` are waiting already; whatever `body` throws.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        enum Admission {
            case now
            case wait
            case refused(Int)
        }
        // Decided under the lock, then the continuation is queued under it too (below).
        let admission: Admission = state.withLock { state in
            if state.running < capacity {
                state.running += 1
                return .now
            }
            if state.waiting.count >= maxWaiting {
                let queued = Double(state.waiting.count + state.running) / Double(capacity)
                return .refused(max(1, Int((queued * secondsPerLogin).rounded(.up))))
            }
            return .wait
        }
        switch admission {
        case .now:
            return
        case .refused(let seconds):
            throw Busy(retryAfter: seconds)
        case .wait:
            await withCheckedContinuation { continuation in
                let admitted: Bool = state.withLock { state in
                    if state.running < capacity {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        }
    }

    /// Hands the place to the first waiter, or frees it.
    private func leave() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
