import Synchronization

/// A value computed by one task and awaited by another: a worker fills it, the exporter
/// waits for it. The exporter awaits slots in output order, which is how results computed
/// out of order come out in order without a separate reorder buffer.
///
/// The waiter is an `UnsafeContinuation` (no allocation per wait, unlike a checked one);
/// the state machine resumes it exactly once, from `fulfil` or `abandon`.
final class ResultSlot<Value: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(UnsafeContinuation<Value?, Never>)
        case ready(Value)
        case abandoned
    }

    private let state = Mutex<State>(.pending)

    func fulfil(_ value: Value) {
        let waiter: UnsafeContinuation<Value?, Never>? = state.withLock { state in
            switch state {
            case .waiting(let continuation):
                state = .abandoned
                return continuation
            case .pending:
                state = .ready(value)
                return nil
            case .ready, .abandoned:
                return nil
            }
        }
        waiter?.resume(returning: value)
    }

    /// Wakes a waiter with nil: the graph was cancelled before the value was computed.
    func abandon() {
        let waiter: UnsafeContinuation<Value?, Never>? = state.withLock { state in
            defer { state = .abandoned }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: nil)
    }

    /// Makes a slot whose value has been read ready for another job (`Pool.resultSlots`).
    /// Only its reader may call this, after `value()` returned: the worker that filled it
    /// no longer touches it then.
    func reset() {
        state.withLock { $0 = .pending }
    }

    /// The value, once fulfilled; nil if the slot was abandoned.
    func value() async -> Value? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Value?, Never>) in
            let immediate: Value?? = state.withLock { state in
                switch state {
                case .ready(let value):
                    state = .abandoned
                    return .some(value)
                case .abandoned:
                    return .some(nil)
                case .pending:
                    state = .waiting(continuation)
                    return nil
                case .waiting:
                    preconditionFailure("a result slot has one reader")
                }
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }
}

extension Pool {
    /// Result slots handed back by the exporter once read, and handed out again for later
    /// jobs: a slot per channel per job was an allocation per job (perf's malloc probe).
    static func resultSlots<Value>(limit: Int) -> Pool<ResultSlot<Value>> where Item == ResultSlot<Value> {
        Pool(limit: limit, make: { ResultSlot() }, reset: { $0.reset() })
    }
}
