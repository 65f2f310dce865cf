import SondeCore
import Synchronization

extension PipelineGraph {
    /// The exporter: inputs in order, and each input's results in output order,
    /// regardless of which worker finished first. Writes run on a thread of their own.
    func export(
        _ opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>, sink: any PipelineSink, bufferPool: StageBufferPool,
        record: SummaryRecorder, failure: GraphFailure, work: ParallelWork
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
        // Records and their bytes handed over since the last trip to the writing thread.
        var pending = PendingWrite()
        handOver.put(.lend(work))
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
            var totals = InputSummary.empty
            var inputFailure: (any Error)?
            // The input's stage, then those of its other segments when it is cut.
            var segment = stage
            while true {
                guard
                    let segmentRecords = try await exportTickets(
                        of: segment, perChannel: &perChannel, handOver: handOver, writes: writes,
                        pending: &pending)
                else { return records }
                totals.records += segmentRecords
                records += segmentRecords
                if let error = segment.failure {
                    inputFailure = error
                    break
                }
                totals.samplesPerChannel += segment.ownFrames
                totals.frames += segment.framesCut.load(ordering: .relaxed)
                totals.notes += segment.notes
                totals.interrupted = segment.interrupted
                if segment !== stage {
                    stage.followers?.retire(segment)
                    bufferPool.recycle(segment.stageBuffers)
                }
                // After an interrupted segment the input's records stop: they are a prefix.
                guard !segment.interrupted, let followers = stage.followers, let slot = await followers.queue.next()
                else { break }
                guard let next = await slot.value() else {
                    // Abandoned: the run stopped before the segment opened.
                    totals.interrupted = true
                    break
                }
                switch next {
                case .failed(_, _, let error):
                    inputFailure = error
                case .stage(let opened):
                    segment = opened
                }
                if inputFailure != nil { break }
            }
            stage.followers?.cancel()
            let outcome: InputOutcome
            if let inputFailure {
                // A cut input's segments defer their errors to here, to be thrown in input order.
                guard options.keepGoing else { throw inputFailure }
                record.failed(stage.index)
                outcome = .failed(inputFailure)
            } else {
                record.finished(stage.index, totals)
                outcome = .finished(totals)
            }
            handOver.put(.end(index: stage.index, name: stage.name, outcome: outcome))
            inputsDone.add(1, ordering: .relaxed)
            // Reader, framer and workers are done with it, and so is the writing thread
            // (the end it has yet to see needs no buffers).
            failure.retire(stage)
            bufferPool.recycle(stage.stageBuffers)
        }
        handOver.put(.lend(nil))
        _ = try await writes.run()
        return records
    }

    /// Hands over one stage's batches as its tickets come, trips to the writing thread
    /// every `recordsPerWrite` records or `PendingWrite.bytesPerWrite` bytes; nil when the
    /// stage was cancelled (the run is ending).
    private func exportTickets(
        of stage: SourceStage, perChannel: inout [MeasuredFrames], handOver: ExportHandOver,
        writes: BlockingThread<Void>, pending: inout PendingWrite
    ) async throws -> Int? {
        var stageRecords = 0
        while var ticket = await stage.tickets.next() {
            perChannel.removeAll(keepingCapacity: true)
            for result in ticket.results {
                guard let values = await result.value() else { return nil }
                if let failure = values.failure { throw failure }
                perChannel.append(values)
            }
            let results = ticket.results
            ticket.results = []
            stage.recycle(consume results)
            // Every job has left its records (before its result): the assembly is free.
            if let assembly = ticket.assembly { stage.buffers.assemblies.recycle(assembly) }
            if let tap = options.spectrumTap {
                stage.tapSpectra(&perChannel, firstFrame: ticket.firstFrame, frameCount: ticket.frameCount, into: tap)
            }
            let batch = stage.batch(
                firstFrame: ticket.firstFrame, frameCount: ticket.frameCount, perChannel: &perChannel)
            stageRecords += batch.recordCount
            // Handed over in a box the writing thread empties: the batch it writes and
            // then recycles is then the only reference to its buffers (a shared copy
            // would make the pool copy them). The previous write has returned by now,
            // so one box serves every batch.
            handOver.put(.batch(batch, stage))
            pending.add(batch)
            if pending.records >= options.recordsPerWrite || pending.bytes >= PendingWrite.bytesPerWrite {
                _ = try await writes.run()
                pending = PendingWrite()
            }
        }
        return stage.isCancelled ? nil : stageRecords
    }
}

/// What the exporter has handed over since its last trip to the writing thread.
struct PendingWrite {
    var records = 0
    /// The batches' values and encoded records.
    var bytes = 0

    /// Bytes gathered for one trip at most: a trip costs the writing thread a wake-up
    /// (10-20 µs), which at 1,024 records of 25 bytes was most of its CPU in a
    /// `--features rms` run; 128 mel columns make 3.5 KB a record, and 8,192 of them would
    /// hold 29 MB.
    static let bytesPerWrite = 1 << 20

    mutating func add(_ batch: RecordBatch) {
        records += batch.recordCount
        bytes += batch.values.count * MemoryLayout<Double>.stride
        if let encoded = batch.encoded { bytes += encoded.ends.last ?? 0 }
    }
}
