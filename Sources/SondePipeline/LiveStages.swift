import Synchronization

/// Stages in flight until `close()` ends them all: the run's (closed by its first error,
/// `GraphFailure`) and a cut input's segments' (closed when the input ends or fails,
/// `SegmentFollowers`). A stage admitted after the close is cancelled at once.
final class LiveStages: Sendable {
    private let state = Mutex<(closed: Bool, live: [ObjectIdentifier: SourceStage])>((false, [:]))

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Tracks `stage` until `retire`; false (and the stage cancelled) once closed.
    func admit(_ stage: SourceStage) -> Bool {
        let admitted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.live[ObjectIdentifier(stage)] = stage
            return true
        }
        if !admitted { stage.cancel() }
        return admitted
    }

    func retire(_ stage: SourceStage) {
        _ = state.withLock { $0.live.removeValue(forKey: ObjectIdentifier(stage)) }
    }

    /// Closes, and cancels the stages live until now; false when it was closed already.
    @discardableResult
    func close() -> Bool {
        let live = state.withLock { state -> [SourceStage]? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.live = [:] }
            return Array(state.live.values)
        }
        guard let live else { return false }
        for stage in live { stage.cancel() }
        return true
    }
}
