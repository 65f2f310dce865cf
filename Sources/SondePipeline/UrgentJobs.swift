/// `WorkerThreads` seen as an executor whose jobs run before the others'.
final class UrgentJobs: TaskExecutor, Sendable {
    private let threads: WorkerThreads

    init(threads: WorkerThreads) {
        self.threads = threads
    }

    func enqueue(_ job: consuming ExecutorJob) {
        threads.enqueue(job, urgent: true)
    }
}
