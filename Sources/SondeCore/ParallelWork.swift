import Dispatch
import Synchronization

/// Runs independent pieces of work side by side on a run's workers and returns when all
/// are done: the pipeline lends it to its sink's writer for work that would otherwise run
/// on the one writing thread (issue 30: encoding Parquet's column chunks). Once the run has
/// ended (`close()`), the pieces run one after the other on the caller's thread.
public final class ParallelWork: Sendable {
    /// Pieces worth running at once.
    public let lanes: Int
    private let start: @Sendable (_ piece: @escaping @Sendable () -> Void) -> Void
    private let open = Atomic<Bool>(true)

    /// - Parameter start: starts one piece on the workers and returns at once.
    public init(lanes: Int, start: @escaping @Sendable (_ piece: @escaping @Sendable () -> Void) -> Void) {
        self.lanes = Swift.max(1, lanes)
        self.start = start
    }

    /// Calls `body` for `0..<count`, side by side while the run lasts, and returns when
    /// every call has. Call it from a thread that may block (the writing thread), never
    /// from a worker: it waits for them.
    public func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1, open.load(ordering: .acquiring) else {
            for index in 0..<count { body(index) }
            return
        }
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            start {
                body(index)
                done.signal()
            }
        }
        for _ in 0..<count { done.wait() }
    }

    /// The run has ended: its workers are going away, later pieces run on the caller's thread.
    public func close() {
        open.store(false, ordering: .releasing)
    }
}
