import DequeModule
import Foundation

/// A task executor with exactly `count` threads: everything the graph computes (framing,
/// filtering, features, assembling batches) runs on them, so `--jobs J` means at most J
/// cores computing, whatever the number of stages. Blocking reads and writes stay on
/// `BlockingThread`s.
///
/// Jobs run in FIFO order, except that jobs of tasks that prefer `urgent` (the framers) go
/// before the rest: a framer that waits behind the workers' jobs leaves them without work,
/// and with a filter at long windows `--jobs 2` then gained nothing over `--jobs 1`. The
/// threads end when `shutdown()` is called.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `urgent`, `running` and `clocks` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs = Deque<Entry>()
    private var urgentJobs = Deque<Entry>()
    private var running = true
    /// Each thread's CPU clock, once it has started (`cpuNanoseconds`).
    private var clocks: [ThreadClock] = []

    init(count: Int, name: String = "sonde.worker") {
        for index in 0..<Swift.max(1, count) {
            let thread = Thread { [self] in
                if let clock = ThreadClock.current() {
                    condition.lock()
                    clocks.append(clock)
                    condition.unlock()
                }
                work()
            }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(job, urgent: false)
    }

    /// Queues `job` behind the other urgent ones, before every other job.
    func enqueue(_ job: consuming ExecutorJob, urgent isUrgent: Bool) {
        let job = UnownedJob(job)
        condition.lock()
        if isUrgent { urgentJobs.append(.job(job)) } else { jobs.append(.job(job)) }
        condition.signal()
        condition.unlock()
    }

    /// Suspends the calling task behind every job queued so far, as `Task.yield()` does,
    /// but without allocating: `Task.yield()` makes a new job each call, two per pipeline
    /// job (perf's malloc probe), where this queues the task's own continuation.
    /// Call it only from a task that runs on these threads.
    func yieldToQueuedJobs() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            condition.lock()
            jobs.append(.resume(continuation))
            condition.signal()
            condition.unlock()
        }
    }

    /// CPU time the threads have used so far; call it before `shutdown()` (an ended
    /// thread's clock reads 0).
    var cpuNanoseconds: UInt64 {
        condition.lock()
        let clocks = self.clocks
        condition.unlock()
        return clocks.reduce(0) { $0 + $1.nanoseconds }
    }

    /// Lets the threads finish once the queue is empty.
    func shutdown() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while let entry = next() {
            switch entry {
            case .job(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .resume(let continuation):
                // The task is enqueued again (at the back) and runs when its turn comes.
                continuation.resume()
            }
        }
    }

    private enum Entry {
        case job(UnownedJob)
        /// A task that yielded, to be resumed in its turn.
        case resume(UnsafeContinuation<Void, Never>)
    }

    private func next() -> Entry? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && urgentJobs.isEmpty {
            guard running else { return nil }
            condition.wait()
        }
        return urgentJobs.popFirst() ?? jobs.popFirst()
    }
}
