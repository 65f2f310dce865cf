import Foundation

/// Runs one blocking call (a file read, a write to a pipe) again and again on a thread of
/// its own, so it never occupies one of the cooperative pool's threads, which are as many
/// as the cores. The call can be replaced between runs, so one thread serves input after
/// input of a dataset.
///
/// Why a thread of its own rather than a dispatch queue: each `queue.async` with a closure,
/// and the continuation around it, allocated (perf's malloc probe: seven allocations per
/// read and per written batch). Here the call is made once and each `run()` only hands
/// the thread an unsafe continuation, which lives in the task's own frame.
///
/// A call that is still blocked when `stop()` comes (a read from a quiet pipe or terminal)
/// is abandoned: `run()` returns nil at once, and the call finishes, or not, on its own.
final class BlockingThread<Value: Sendable>: Stoppable, @unchecked Sendable {
    // @unchecked: `requested`, `waiter`, `stopped`, `running` and `clock` are only touched
    // with `condition` locked.
    private let condition = NSCondition()
    private var call: @Sendable () throws -> Value
    private var requested = false
    private var waiter: UnsafeContinuation<Value?, any Error>?
    private var stopped = false
    private var running = true
    /// The thread's CPU clock, once it has started (`cpuNanoseconds`).
    private var clock: ThreadClock?

    /// Starts the thread. It keeps `call`, and what that holds, until `shutdown()`.
    init(name: String, call: @escaping @Sendable () throws -> Value) {
        self.call = call
        let thread = Thread { [self] in serve() }
        thread.name = name
        thread.start()
    }

    /// CPU time the thread has used so far; call it before `shutdown()` (an ended thread's
    /// clock reads 0).
    var cpuNanoseconds: UInt64 {
        condition.lock()
        let clock = self.clock
        condition.unlock()
        return clock?.nanoseconds ?? 0
    }

    /// Makes `call` the one later `run()`s make. Not while a `run()` is waiting.
    func replaceCall(_ call: @escaping @Sendable () throws -> Value) {
        condition.lock()
        self.call = call
        condition.unlock()
    }

    /// Runs the call once on the thread and returns its value; nil once `stop()` has
    /// come. One `run()` at a time.
    /// - Throws: what the call threw.
    func run() async throws -> Value? {
        try await withUnsafeThrowingContinuation { continuation in
            condition.lock()
            guard !stopped else {
                condition.unlock()
                continuation.resume(returning: nil)
                return
            }
            waiter = continuation
            requested = true
            condition.signal()
            condition.unlock()
        }
    }

    /// Makes the waiting `run()`, and every later one, return nil.
    func stop() {
        condition.lock()
        stopped = true
        let abandoned = waiter
        waiter = nil
        condition.unlock()
        abandoned?.resume(returning: nil)
    }

    /// Lets the thread end once its current call, if any, returns.
    func shutdown() {
        condition.lock()
        running = false
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        condition.lock()
        clock = ThreadClock.current()
        condition.unlock()
        while true {
            condition.lock()
            while !requested, running { condition.wait() }
            guard requested else {
                condition.unlock()
                return
            }
            requested = false
            let call = self.call
            condition.unlock()
            let result = Result { try call() }
            condition.lock()
            let continuation = waiter
            waiter = nil
            condition.unlock()
            continuation?.resume(with: result.map { Optional($0) })
        }
    }
}
