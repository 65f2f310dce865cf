import SondeCore

extension PipelineGraph {
    /// The segments after the first of a cut input (`InputSegments`): each opened again at
    /// its first frame, read on the workers' threads (a regular file never waits on another
    /// process) and framed by a stage of its own, side by side, while the exporter takes
    /// their stages in order from `first.followers`, at most its capacity ahead.
    func runSegments(
        after first: SourceStage, sizes: StageSizes, bufferPool: StageBufferPool, work: AsyncBoundedQueue<WorkItem>,
        failure: GraphFailure, urgent: UrgentJobs
    ) async {
        guard let followers = first.followers, let segments = first.segments, let reopening = first.reopening else {
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for ordinal in 1..<segments.count {
                guard !stopSignal.hasFired, !followers.isCancelled else { break }
                let slot = ResultSlot<OpenedStage>()
                guard await followers.queue.send(slot) else { break }
                let segment = segments.segment(ordinal)
                group.addTask { [self] in
                    await runSegment(
                        segment, of: first, reopening: reopening, slot: slot, sizes: sizes, bufferPool: bufferPool,
                        work: work, failure: failure, urgent: urgent)
                }
            }
            followers.queue.finish()
        }
    }

    /// One segment: opened and read first on this thread, then read to its end beside its
    /// framer. Its errors wait in its slot or its stage for the exporter (input order).
    private func runSegment(
        _ segment: InputSegment, of first: SourceStage, reopening: SourceReopening, slot: ResultSlot<OpenedStage>,
        sizes: StageSizes, bufferPool: StageBufferPool, work: AsyncBoundedQueue<WorkItem>, failure: GraphFailure,
        urgent: UrgentJobs
    ) async {
        guard let followers = first.followers else { return }
        let stage: SourceStage
        do {
            let input = Input(name: first.name, source: try reopening.open(segment.readStart), clock: first.clock)
            stage = try makeStage(
                index: first.index, input: input, segment: segment, first: first, sizes: sizes, bufferPool: bufferPool)
        } catch {
            slot.fulfil(.failed(index: first.index, name: first.name, error: error))
            return
        }
        guard followers.admit(stage) else {
            slot.abandon()
            return
        }
        slot.fulfil(.stage(stage))
        do {
            try await readAndCut(stage, on: nil, work: work, urgent: urgent)
        } catch {
            // A segment defers its read errors to the exporter; anything else ends the run.
            failure.fail(error)
        }
    }
}
