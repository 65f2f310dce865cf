import SondeCore
import Synchronization

extension PipelineGraph {
    /// The exporter: inputs in order, and each input's results in output order,
    /// regardless of which worker finished first. Writes run on a thread of their own.
    func export(
        _ opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>, sink: any PipelineSink, bufferPool: StageBufferPool,
        record: SummaryRecorder, failure: GraphFailure
    ) async throws -> Int {
        var records = 0
        // Reused from batch to batch, like everything else a job needs.
        var perChannel: [MeasuredFrames] = []
        let handOver = ExportHandOver(times: stageTimes, sink: sink)
        let writes = BlockingThread(name: "sonde.export") { try handOver.write() }
        defer {
            threadTimes.add(.writer, writes.cpuNanoseconds)
            writes.shutdown()
        }
        // Records handed over since the last trip to the writing thread.
        var pendingRecords = 0
        while let slot = await opened.next() {
            // An input abandoned at a stop (it was never opened); later ones may have been.
            guard let openedStage = await slot.value() else { continue }
            let stage: SourceStage
            switch openedStage {
            case .failed(let index, let name, let error):
                record.failed(index)
                handOver.put(.end(index: index, name: name, outcome: .failed(error)))
                inputsDone.add(1, ordering: .relaxed)
                continue
            case .stage(let opened):
                stage = opened
            }
            // Begin and end ride with the next batch's hand-over: one trip to the writing
            // thread per batch, which for a short clip is one per input instead of three.
            handOver.put(.begin(index: stage.index, name: stage.name, format: stage.format))
            var stageRecords = 0
            while var ticket = await stage.tickets.next() {
                perChannel.removeAll(keepingCapacity: true)
                for result in ticket.results {
                    guard let values = await result.value() else { return records }
                    if let failure = values.failure { throw failure }
                    perChannel.append(values)
                }
                let results = ticket.results
                ticket.results = []
                stage.recycle(consume results)
                if let tap = options.spectrumTap {
                    stage.tapSpectra(
                        &perChannel, firstFrame: ticket.firstFrame, frameCount: ticket.frameCount, into: tap)
                }
                let batch = stage.batch(
                    firstFrame: ticket.firstFrame, frameCount: ticket.frameCount, perChannel: &perChannel)
                stageRecords += batch.recordCount
                // Handed over in a box the writing thread empties: the batch it writes and
                // then recycles is then the only reference to its buffers (a shared copy
                // would make the pool copy them). The previous write has returned by now,
                // so one box serves every batch.
                handOver.put(.batch(batch, stage))
                pendingRecords += batch.recordCount
                if pendingRecords >= options.recordsPerWrite {
                    _ = try await writes.run()
                    pendingRecords = 0
                }
            }
            if stage.isCancelled { return records }
            records += stageRecords
            let outcome: InputOutcome
            if let error = stage.failure {
                record.failed(stage.index)
                outcome = .failed(error)
            } else {
                let summary = InputSummary(
                    samplesPerChannel: stage.samplesPerChannel.load(ordering: .relaxed),
                    frames: stage.framesCut.load(ordering: .relaxed), records: stageRecords, notes: stage.notes,
                    interrupted: stage.interrupted)
                record.finished(stage.index, summary)
                outcome = .finished(summary)
            }
            handOver.put(.end(index: stage.index, name: stage.name, outcome: outcome))
            inputsDone.add(1, ordering: .relaxed)
            // Reader, framer and workers are done with it, and so is the writing thread
            // (the end it has yet to see needs no buffers).
            failure.retire(stage)
            bufferPool.recycle(stage.stageBuffers)
        }
        _ = try await writes.run()
        return records
    }
}
