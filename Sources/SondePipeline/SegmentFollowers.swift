/// The stages of a cut input's segments after its first, as the exporter receives them:
/// in order, at most `capacity` ahead of it (which bounds the segments in flight and their
/// memory). Cancelling the input's first stage cancels every one of them.
final class SegmentFollowers: Sendable {
    let queue: AsyncBoundedQueue<ResultSlot<OpenedStage>>
    private let stages = LiveStages()

    init(capacity: Int) {
        queue = AsyncBoundedQueue(capacity: Swift.max(1, capacity))
    }

    var isCancelled: Bool { stages.isClosed }

    /// Tracks a segment's stage until `retire`; false (and the stage cancelled) once the
    /// input is cancelled.
    func admit(_ stage: SourceStage) -> Bool { stages.admit(stage) }

    func retire(_ stage: SourceStage) { stages.retire(stage) }

    /// Ends the input's remaining segments: the run failed, or the input did (`keepGoing`),
    /// or it ended.
    func cancel() {
        guard stages.close() else { return }
        for slot in queue.cancel() { slot.abandon() }
    }
}
