import Synchronization

/// At most `limit` exports written at once; the rest wait their turn (a waiter holds only
/// its connection). An export holds one measurement's records in memory while it writes
/// them to disk, so 20 users exporting at once cannot take 20 measurements' worth.
final class ExportSlots: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` in a slot, waiting for one first if all are taken.
    func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.running < limit else {
                    state.waiters.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives the slot to the longest waiter, else back to the pool.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
