import Synchronization

/// A one-way switch that wakes every blocking call waiting on it (`BlockingThread`).
public final class StopSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [ObjectIdentifier: any Stoppable])>((false, [:]))

    public init() {}

    public var hasFired: Bool { state.withLock { $0.fired } }

    public func fire() {
        let waiters = state.withLock { state -> [any Stoppable] in
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.stop() }
    }

    /// Returns false if the signal has already fired.
    func register(_ waiter: any Stoppable) -> Bool {
        state.withLock { state in
            guard !state.fired else { return false }
            state.waiters[ObjectIdentifier(waiter)] = waiter
            return true
        }
    }

    func unregister(_ waiter: any Stoppable) {
        _ = state.withLock { $0.waiters.removeValue(forKey: ObjectIdentifier(waiter)) }
    }
}
