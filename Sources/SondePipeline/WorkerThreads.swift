import DequeModule
import Foundation

/// A task executor with exactly `count` threads: everything the graph computes (framing,
/// filtering, features, assembling batches) runs on them, so `--jobs J` means at most J
/// cores computing, whatever the number of stages. Blocking reads and writes stay on
/// `BlockingIO`'s own threads.
///
/// Jobs run in FIFO order. The threads end when `shutdown()` is called.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `running` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs = Deque<UnownedJob>()
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
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads finish once the queue is empty.
    func shutdown() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while let job = next() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func next() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty {
            guard running else { return nil }
            condition.wait()
        }
        return jobs.popFirst()
    }
}
