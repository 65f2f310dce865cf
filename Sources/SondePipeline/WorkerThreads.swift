import DequeModule
import Foundation

/// A task executor with exactly `count` threads: everything the graph computes (framing,
/// filtering, features, assembling batches) runs on them, so `--jobs J` means at most J
/// cores computing, whatever the number of stages. Blocking reads and writes stay on
/// `BlockingThread`s.
///
/// Jobs run in FIFO order. The threads end when `shutdown()` is called.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `running` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs = Deque<Entry>()
    private var running = true

    init(count: Int, name: String = "sonde.worker") {
        for index in 0..<Swift.max(1, count) {
            let thread = Thread { [self] in work() }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(.job(job))
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
        while jobs.isEmpty {
            guard running else { return nil }
            condition.wait()
        }
        return jobs.popFirst()
    }
}
