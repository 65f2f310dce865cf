import Dispatch
import Synchronization

/// Runs blocking system calls (file reads, writes to a pipe) on a dedicated thread, so they
/// never occupy one of the cooperative pool's threads, which are as many as the cores.
///
/// Continuations are unsafe ones, which do not allocate a canary per call as checked ones
/// do; each is resumed exactly once (`OnceContinuation` guards the two-sided case).
struct BlockingIO: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withUnsafeThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// Like `run`, but returns nil as soon as `stop` fires, without waiting for `body`: a
    /// read from a pipe or terminal may block until the user types, and SIGINT must not.
    /// The abandoned call finishes (or not) on its own thread; its result is dropped.
    func run<T: Sendable>(until stop: StopSignal, _ body: @escaping @Sendable () throws -> T) async throws -> T? {
        let once = OnceContinuation<T>()
        return try await withUnsafeThrowingContinuation { continuation in
            once.set(continuation)
            guard stop.register(once) else {
                once.resume(with: .success(nil))
                return
            }
            queue.async {
                once.resume(with: Result { try Optional(body()) })
                stop.unregister(once)
            }
        }
    }
}

/// A one-way switch that wakes every `BlockingIO.run(until:)` waiting on it.
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
    fileprivate func register(_ waiter: any Stoppable) -> Bool {
        state.withLock { state in
            guard !state.fired else { return false }
            state.waiters[ObjectIdentifier(waiter)] = waiter
            return true
        }
    }

    fileprivate func unregister(_ waiter: any Stoppable) {
        _ = state.withLock { $0.waiters.removeValue(forKey: ObjectIdentifier(waiter)) }
    }
}

public protocol Stoppable: AnyObject, Sendable {
    func stop()
}

/// A continuation that may be resumed from two places (the finished call with its value,
/// the stop signal with nil); the first wins and the second is ignored.
private final class OnceContinuation<T: Sendable>: Stoppable {
    private let state = Mutex<UnsafeContinuation<T?, any Error>?>(nil)

    func set(_ continuation: UnsafeContinuation<T?, any Error>) {
        state.withLock { $0 = continuation }
    }

    func resume(with result: Result<T?, any Error>) {
        let continuation = state.withLock { state -> UnsafeContinuation<T?, any Error>? in
            defer { state = nil }
            return state
        }
        continuation?.resume(with: result)
    }

    func stop() {
        resume(with: .success(nil))
    }
}
