import Synchronization

/// Stores the first error of a run and cancels every queue and every live input's ring
/// and tickets, so all stages end.
final class GraphFailure: Sendable {
    private let firstError = Mutex<(any Error)?>(nil)
    private let stages = LiveStages()
    private let opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>
    private let work: AsyncBoundedQueue<WorkItem>

    init(opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>, work: AsyncBoundedQueue<WorkItem>) {
        self.opened = opened
        self.work = work
    }

    var error: (any Error)? { firstError.withLock { $0 } }

    /// Tracks a new input's stage until `retire`; false (and the stage cancelled) when
    /// the run has failed already.
    func admit(_ stage: SourceStage) -> Bool { stages.admit(stage) }

    func retire(_ stage: SourceStage) { stages.retire(stage) }

    func fail(_ error: any Error) {
        let first = firstError.withLock { first -> Bool in
            guard first == nil else { return false }
            first = error
            return true
        }
        guard first else { return }
        // Results nobody will compute: wake the exporter if it waits for one.
        for item in work.cancel() { item.result.abandon() }
        for slot in opened.cancel() { slot.abandon() }
        stages.close()
    }
}
