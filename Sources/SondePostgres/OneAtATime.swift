import Synchronization

/// Turns at one connection: operations that share it wait in order for the one before to
/// finish (PostgreSQL runs one query at a time on a connection, and a transaction's
/// statements must not interleave with another's).
final class OneAtATime: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits for the turn; `end` passes it on.
    func begin() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = state.withLock { state in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Passes the turn to the longest waiter, if any.
    func end() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` in its turn.
    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await begin()
        defer { end() }
        return try await body()
    }
}
