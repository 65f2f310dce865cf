import Synchronization

/// The stages of a cut input's segments after its first, as the exporter receives them:
/// in order, at most `capacity` ahead of it (which bounds the segments in flight and their
/// memory). Cancelling the input's first stage cancels every one of them.
final class SegmentFollowers: Sendable {
    let queue: AsyncBoundedQueue<ResultSlot<OpenedStage>>
    private let state = Mutex<(cancelled: Bool, live: [ObjectIdentifier: SourceStage])>((false, [:]))

    init(capacity: Int) {
        queue = AsyncBoundedQueue(capacity: Swift.max(1, capacity))
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Tracks a segment's stage until `retire`; false (and the stage cancelled) once the
    /// input is cancelled.
    func admit(_ stage: SourceStage) -> Bool {
        let admitted = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.live[ObjectIdentifier(stage)] = stage
            return true
        }
        if !admitted { stage.cancel() }
        return admitted
    }

    func retire(_ stage: SourceStage) {
        _ = state.withLock { $0.live.removeValue(forKey: ObjectIdentifier(stage)) }
    }

    /// Ends the input's remaining segments: the run failed, or the input did (`keepGoing`),
    /// or it stopped.
    func cancel() {
        let live = state.withLock { state -> [SourceStage] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.live = [:] }
            return Array(state.live.values)
        }
        for slot in queue.cancel() { slot.abandon() }
        for stage in live { stage.cancel() }
    }
}
