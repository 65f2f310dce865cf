import Dispatch
import Synchronization

/// At most `limit` password hashes at once; callers over the limit wait in order (at most
/// `queueLimit` of them: the next is refused at once), or give up with `AccountError.busy`
/// after `waitLimit`.
///
/// Each scrypt hash takes 128 MiB: twenty logins at once must not take 2.5 GB, and the
/// ones beyond the cores' capacity would only slow each other down.
final class HashingSlots: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// A moving average of one hash's seconds, for `retryAfter`; 1 s until measured.
        var meanSeconds = 1.0
    }

    let limit: Int
    let waitLimit: Duration?
    let queueLimit: Int
    private let state = Mutex(State())

    init(limit: Int, waitLimit: Duration?, queueLimit: Int = .max) {
        self.limit = max(1, limit)
        self.waitLimit = waitLimit
        self.queueLimit = max(0, queueLimit)
    }

    /// Callers waiting for a slot now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Takes a slot, waiting for one if needed; `release` gives it back.
    /// - Throws: `AccountError.busy` when `waitLimit` passes first.
    func acquire() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Turn { case now, queued(UInt64), refused(retryAfter: Int) }
            let turn: Turn = state.withLock { state in
                if state.running < limit {
                    state.running += 1
                    return .now
                }
                guard state.waiters.count < queueLimit else {
                    let turns = Double(state.waiters.count / limit + 1)
                    return .refused(retryAfter: max(1, Int((turns * state.meanSeconds).rounded(.up))))
                }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, continuation: continuation))
                return .queued(state.nextID)
            }
            let id: UInt64
            switch turn {
            case .now: return continuation.resume()
            case .refused(let retryAfter):
                return continuation.resume(throwing: AccountError.busy(retryAfter: retryAfter))
            case .queued(let queued): id = queued
            }
            guard let waitLimit else { return }
            // A Dispatch timer, not a sleeping task: the limit must hold while the
            // cooperative pool is saturated, which is when callers queue up. A waiter served
            // before it fires is simply not found then.
            let (seconds, attoseconds) = waitLimit.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
                self?.expire(id)
            }
        }
    }

    /// Gives a slot back: to the longest waiter, else to the pool.
    /// - Parameter seconds: how long the hash took, for the next `retryAfter` estimate.
    func release(after seconds: Double) {
        let next: Waiter? = state.withLock { state in
            state.meanSeconds = 0.8 * state.meanSeconds + 0.2 * seconds
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }

    /// Fails a waiter whose wait limit passed, if it is still waiting.
    private func expire(_ id: UInt64) {
        let expired: (Waiter, Int)? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            // The slots free in turns of one hash each; this waiter was `index` places from the front.
            let turns = Double(index / limit + 1)
            return (state.waiters.remove(at: index), Int((turns * state.meanSeconds).rounded(.up)))
        }
        guard let (waiter, retryAfter) = expired else { return }
        waiter.continuation.resume(throwing: AccountError.busy(retryAfter: max(1, retryAfter)))
    }
}
