import Foundation
public import SondeCore
import SondeDSP
import Synchronization

/// The streaming engine: source → ring buffer → framer/filter → feature workers →
/// in-order exporter, with bounded queues between stages.
///
/// - Inputs are opened when the graph reaches them, up to `jobs` at once, each on a
///   reading thread of the run (one per lane, reused input after input), and closed when
///   read; their buffers come from a pool and go back to it once the input is written.
///   So memory and open files stay bounded whatever the number of inputs.
/// - A framer per input de-interleaves, filters each channel (state carried), and cuts
///   jobs of `framesPerJob` frames per channel for the worker pool.
/// - `jobs` workers measure frames with their own `FeatureExtractor`s.
/// - The exporter awaits each job's result in output order (input, frame, channel) and
///   hands batches to the sink, so output is identical whatever `jobs` or the ring size.
///
/// Every queue is bounded, so a slow exporter slows the readers and memory does not grow
/// with input length. The first error cancels the whole graph and is thrown once (with
/// `keepGoing`, an input's own error is reported to the sink and the run goes on).
///
/// This file reads top-down: `run(_:sink:)` starts the tasks; `runInputs` and `runInput`
/// open inputs on their lanes and hand each to its `SourceStage` (reader and framer);
/// `measure` is a worker. The exporter is in `PipelineGraph+Export.swift`, the sizes in
/// `PipelineGraph+Options.swift`, the input types in `PipelineGraph+Inputs.swift`.
public final class PipelineGraph: Sendable {
    /// What a run did.
    public struct Summary: Sendable {
        /// Samples per channel read from each input, in input order.
        public var samplesPerChannel: [Int]
        /// Frames measured for each input.
        public var frames: [Int]
        /// Records handed to the sink.
        public var records: Int
        /// Inputs that failed (only with `keepGoing`).
        public var failedInputs: Int
        /// Whether `stop()` ended the run early.
        public var stopped: Bool
    }

    public let settings: PipelineSettings
    public let options: Options
    let stopSignal = StopSignal()
    /// Busy time per stage, for benchmarks.
    public let stageTimes = StageTimes()
    /// CPU time per kind of thread, for the serial share (filled as each run ends).
    public let threadTimes = ThreadTimes()
    let samplesRead = Atomic<Int>(0)
    let inputsDone = Atomic<Int>(0)

    public init(settings: PipelineSettings, options: Options) {
        self.settings = settings
        self.options = options
    }

    /// Ends the run gracefully (SIGINT): readers stop, no further input is opened, and
    /// every record already complete is measured and emitted before `run` returns.
    public func stop() {
        stopSignal.fire()
    }

    /// Samples (all channels) read so far, for progress reports.
    public var progress: Int { samplesRead.load(ordering: .relaxed) }

    /// Inputs whose records are all written (or that failed), for progress reports.
    public var inputsCompleted: Int { inputsDone.load(ordering: .relaxed) }

    /// Runs inputs opened already, calling `emit` with batches in output order from one
    /// thread at a time.
    /// - Throws: the first error of any stage (bad input, a failed write); the others stop.
    public func run(inputs: [Input], emit: @escaping @Sendable (RecordBatch) throws -> Void) async throws -> Summary {
        try await run(Inputs(opened: inputs), sink: EmittingSink(emit: emit))
    }

    /// Runs every input to its end (or to `stop()`), opening each when the graph reaches
    /// it, and hands the sink each input's records in output order.
    /// - Throws: the first error of any stage (bad input, a failed write); the others stop.
    public func run(_ inputs: Inputs, sink: any PipelineSink) async throws -> Summary {
        let sizes = StageSizes(options: options, frameLength: settings.frameLength, hop: settings.hop)
        let inputsInFlight = sizes.inputsInFlight(
            jobs: options.jobs, cores: ProcessInfo.processInfo.activeProcessorCount)
        // Inputs opened ahead of the exporter: enough to keep every lane busy while the
        // exporter writes one, few enough to bound memory and open files (lanes + 2).
        let opened = AsyncBoundedQueue<ResultSlot<OpenedStage>>(capacity: inputsInFlight + 1)
        // The stages of a cut input's segments come and go too: their buffers are kept as well.
        let bufferPool = StageBufferPool(sizes: sizes, limit: inputsInFlight + 2 + InputSegments.maximumAhead)
        let work = AsyncBoundedQueue<WorkItem>(capacity: sizes.workQueueCapacity(jobs: options.jobs))
        let failure = GraphFailure(opened: opened, work: work)
        let processStarted = ThreadClock.processNanoseconds()
        let lanes = (0..<inputsInFlight).map { _ in
            BlockingThread<Int>(name: "sonde.read", call: SourceStage.idleLane)
        }
        defer {
            for lane in lanes {
                threadTimes.add(.reader, lane.cpuNanoseconds)
                lane.shutdown()
            }
        }
        for lane in lanes { _ = stopSignal.register(lane) }
        defer { for lane in lanes { stopSignal.unregister(lane) } }
        let record = SummaryRecorder(count: inputs.count)
        let sink = UncheckedSink(sink)

        let threads = WorkerThreads(count: options.jobs)
        defer {
            threadTimes.add(.worker, threads.cpuNanoseconds)
            threads.shutdown()
            threadTimes.add(.process, ThreadClock.processNanoseconds() &- processStarted)
        }
        let urgent = UrgentJobs(threads: threads)
        // The workers, lent to the sink's writer; closed before they go.
        let lent = ParallelWork(lanes: options.jobs) { piece in
            Task(executorPreference: threads) { piece() }
        }
        defer { lent.close() }
        let extractors = ExtractorPool(
            jobs: options.jobs, frameLength: settings.frameLength, keepsSpectra: options.spectrumTap != nil)
        let records = try await withTaskExecutorPreference(threads) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<options.jobs {
                    group.addTask { [stageTimes, options] in
                        await Self.measure(
                            work, times: stageTimes, threads: threads, extractors: extractors,
                            keepsSpectra: options.spectrumTap != nil)
                        return 0
                    }
                }
                group.addTask { [self] in
                    do {
                        try await runInputs(
                            inputs, lanes: lanes, sizes: sizes, bufferPool: bufferPool, opened: opened, work: work,
                            failure: failure, urgent: urgent)
                        opened.finish()
                        work.finish()
                    } catch {
                        failure.fail(error)
                    }
                    return 0
                }
                group.addTask { [self] in
                    do {
                        return try await export(
                            opened, sink: sink.sink, bufferPool: bufferPool, record: record, failure: failure,
                            work: lent)
                    } catch {
                        failure.fail(error)
                        return 0
                    }
                }
                var records = 0
                for try await count in group { records += count }
                // Every stage has ended: the work queue will get no more jobs.
                return records
            }
        }
        if let error = failure.error { throw error }
        let totals = record.totals
        return Summary(
            samplesPerChannel: totals.samples, frames: totals.frames, records: records, failedInputs: totals.failed,
            stopped: stopSignal.hasFired
        )
    }

    /// Opens and runs at most one input a lane at once, in order (fill the lanes, then one
    /// per lane that frees), each after its slot has joined the exporter's queue.
    private func runInputs(
        _ inputs: Inputs, lanes: [BlockingThread<Int>], sizes: StageSizes, bufferPool: StageBufferPool,
        opened: AsyncBoundedQueue<ResultSlot<OpenedStage>>, work: AsyncBoundedQueue<WorkItem>, failure: GraphFailure,
        urgent: UrgentJobs
    ) async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var next = 0
            func start(lane: Int) async -> Bool {
                guard next < inputs.count, !stopSignal.hasFired, failure.error == nil else { return false }
                let index = next
                next += 1
                let slot = ResultSlot<OpenedStage>()
                guard await opened.send(slot) else { return false }
                group.addTask { [self] in
                    try await runInput(
                        index, of: inputs, on: lanes[lane], sizes: sizes, bufferPool: bufferPool, slot: slot,
                        work: work,
                        failure: failure, urgent: urgent)
                    return lane
                }
                return true
            }
            for lane in lanes.indices where await !start(lane: lane) { break }
            while let lane = try await group.next() { _ = await start(lane: lane) }
        }
    }

    /// One input: opened on its lane's thread (on this one when it `opensQuickly`), its
    /// stage made and its first read done in the same call (a short clip is then read
    /// whole), then read there to its end and cut into jobs.
    private func runInput(
        _ index: Int, of inputs: Inputs, on lane: BlockingThread<Int>, sizes: StageSizes, bufferPool: StageBufferPool,
        slot: ResultSlot<OpenedStage>, work: AsyncBoundedQueue<WorkItem>, failure: GraphFailure, urgent: UrgentJobs
    ) async throws {
        let stage: SourceStage
        do {
            let box = OpenedBox()
            let openStage: @Sendable () throws -> Int = { [self] in
                box.stage = try makeStage(
                    index: index, input: try inputs.open(index), sizes: sizes, bufferPool: bufferPool)
                return 0
            }
            if inputs.opensQuickly(index) {
                _ = try openStage()
            } else {
                lane.replaceCall(openStage)
                guard try await lane.run() != nil else {
                    slot.abandon()
                    return
                }
            }
            guard let opened = box.stage else {
                slot.abandon()
                return
            }
            stage = opened
        } catch  where options.keepGoing {
            slot.fulfil(.failed(index: index, name: inputs.name(index), error: error))
            return
        } catch {
            slot.abandon()
            throw error
        }
        guard failure.admit(stage) else {
            slot.abandon()
            return
        }
        slot.fulfil(.stage(stage))
        guard stage.followers != nil else {
            return try await readAndCut(stage, on: lane, work: work, urgent: urgent)
        }
        // A cut input is a regular file: its first segment is read on the workers too.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in try await readAndCut(stage, on: nil, work: work, urgent: urgent) }
            group.addTask { [self] in
                await runSegments(
                    after: stage, sizes: sizes, bufferPool: bufferPool, work: work, failure: failure, urgent: urgent)
            }
            // A filtered one also has its pieces' zero-state pass, which gives the segments
            // their start states.
            if let states = stage.pieceStates, let reopening = stage.reopening, let followers = stage.followers {
                group.addTask { [self] in
                    await computePieceStates(
                        of: stage, reopening: reopening, states: states, followers: followers, failure: failure)
                }
            }
            try await group.waitForAll()
        }
    }

    /// A stage for `input` (or one of its segments, `segment` of `first`) in buffers from
    /// the pool, its first read done; the buffers go back to the pool if either fails.
    func makeStage(
        index: Int, input: Input, segment: InputSegment? = nil, first: SourceStage? = nil, sizes: StageSizes,
        bufferPool: StageBufferPool
    ) throws -> SourceStage {
        let buffers = bufferPool.take(channelCount: input.source.format.channelCount)
        do {
            let stage = try SourceStage(
                index: index, input: input, settings: settings, sizes: sizes, encoder: options.encoder,
                jobs: options.jobs, times: stageTimes, stageBuffers: buffers, keepGoing: options.keepGoing,
                segment: segment, first: first, reopening: segment == nil ? input.source.reopening : nil)
            try stage.readFirst()
            return stage
        } catch {
            bufferPool.recycle(buffers)
            throw error
        }
    }

    /// A stage's reader (on `lane`, or on the workers when nil) beside its framer, to the end.
    func readAndCut(
        _ stage: SourceStage, on lane: BlockingThread<Int>?, work: AsyncBoundedQueue<WorkItem>, urgent: UrgentJobs
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in try await stage.read(on: lane, stop: stopSignal, samplesRead: samplesRead) }
            // The framer before the workers' jobs (`WorkerThreads`): it feeds them.
            group.addTask(executorPreference: urgent) { await stage.cut(into: work) }
            try await group.waitForAll()
        }
    }

    /// A worker: measures jobs until the queue ends, each in a slot of `extractors` taken
    /// before the job (extractors own FFT buffers and are not thread-safe). With
    /// `keepsSpectra`, each job's result also carries its frames' `P[k]`.
    private static func measure(
        _ work: AsyncBoundedQueue<WorkItem>, times: StageTimes, threads: WorkerThreads, extractors: ExtractorPool,
        keepsSpectra: Bool
    ) async {
        while true {
            let slot = await extractors.acquire()
            guard let item = await work.next() else {
                extractors.release(slot)
                break
            }
            let extractor = slot.extractor(for: item.configuration)
            measure(consume item, with: extractor, times: times, keepsSpectra: keepsSpectra)
            extractors.release(slot)
            // Let the framer and exporter in between jobs: a worker that always finds
            // work would otherwise keep its thread and starve the stages that feed it.
            await threads.yieldToQueuedJobs()
        }
    }

    /// One job, synchronously: its buffers are released here, before the worker suspends,
    /// so the exporter's copies are the only ones and go back to the pools without a copy.
    private static func measure(
        _ item: consuming WorkItem, with extractor: FeatureExtractor, times: StageTimes, keepsSpectra: Bool
    ) {
        let columns = item.configuration.columnCount
        let length = item.configuration.frameLength
        var values = item.buffers.values.take()
        values.append(contentsOf: repeatElement(0, count: item.frameCount * columns))
        let bins = length / 2 + 1
        var spectra: [Double] = []
        if keepsSpectra {
            spectra = item.buffers.values.take()
            spectra.reserveCapacity(item.frameCount * bins)
        }
        let started = MonotonicClock.now()
        let samples = item.samples.samples
        // Spectral flux: a job carries the frame before its first (a hop of leading
        // samples) unless it starts its input, so values do not depend on the split.
        let leading = item.samples.leadingSamples
        if extractor.dependsOnPreviousFrame {
            if leading > 0 {
                extractor.prime(
                    UnsafeBufferPointer(rebasing: samples[(leading - item.hop)..<(leading - item.hop + length)]))
            } else {
                extractor.resetSequence()
            }
        }
        values.withUnsafeMutableBufferPointer { values in
            for frame in 0..<item.frameCount {
                let start = leading + frame * item.hop
                extractor.extract(
                    UnsafeBufferPointer(rebasing: samples[start..<(start + length)]),
                    into: UnsafeMutableBufferPointer(rebasing: values[(frame * columns)..<((frame + 1) * columns)])
                )
                if keepsSpectra { spectra.append(contentsOf: extractor.power) }
            }
        }
        times.add(.measure, MonotonicClock.now() &- started)
        item.buffers.samples.recycle(item.samples)
        var measured = MeasuredFrames(values: consume values, spectra: consume spectra)
        measured.failure = FiniteValues.firstFailure(in: measured.values, of: item)
        if let encoder = item.encoder, measured.failure == nil {
            let encodeStarted = MonotonicClock.now()
            measured.bytes = item.buffers.bytes.take()
            measured.ends = item.buffers.ends.take()
            measured.encode(item, with: encoder)
            if let assembly = item.assembly {
                var part = RecordAssembly.Part()
                swap(&part.bytes, &measured.bytes)
                swap(&part.ends, &measured.ends)
                if let records = assembly.deposit(
                    part, channel: item.channel, frameCount: item.frameCount, buffers: item.buffers)
                {
                    measured.bytes = records.bytes
                    measured.ends = records.ends
                    measured.carriesRecords = true
                }
            } else {
                measured.carriesRecords = true
            }
            times.add(.export, MonotonicClock.now() &- encodeStarted)
        }
        item.result.fulfil(measured)
    }
}
