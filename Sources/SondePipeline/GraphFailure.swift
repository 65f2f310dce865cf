import Synchronization

/// Stores the first error of a run and cancels every queue and every live input's ring
/// and tickets, so all stages end.
final class GraphFailure: Sendable {
    private let state = Mutex<(error: (any Error)?, live: [ObjectIdentifier: SourceStage])>((nil, [:]))
    private let opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>
    private let work: AsyncBoundedQueue<WorkItem>

    init(opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>, work: AsyncBoundedQueue<WorkItem>) {
        self.opened = opened
        self.work = work
    }

    var error: (any Error)? { state.withLock { $0.error } }

    /// Tracks a new input's stage until `retire`; false (and the stage cancelled) when
    /// the run has failed already.
    func admit(_ stage: SourceStage) -> Bool {
        let admitted = state.withLock { state -> Bool in
            guard state.error == nil else { return false }
            state.live[ObjectIdentifier(stage)] = stage
            return true
        }
        if !admitted { stage.cancel() }
        return admitted
    }

    func retire(_ stage: SourceStage) {
        _ = state.withLock { $0.live.removeValue(forKey: ObjectIdentifier(stage)) }
    }

    func fail(_ error: any Error) {
        let live = state.withLock { state -> [SourceStage]? in
            guard state.error == nil else { return nil }
            state.error = error
            return Array(state.live.values)
        }
        guard let live else { return }
        // Results nobody will compute: wake the exporter if it waits for one.
        for item in work.cancel() { item.result.abandon() }
        for slot in opened.cancel() { slot.abandon() }
        for stage in live { stage.cancel() }
    }
}
