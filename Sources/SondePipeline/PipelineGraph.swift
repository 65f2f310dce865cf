public import SondeCore
import SondeDSP
import Synchronization

/// The streaming engine: source → ring buffer → framer/filter → feature workers →
/// in-order exporter, with bounded queues between stages.
///
/// - Readers run their blocking reads on a dedicated thread and write interleaved samples
///   into a `RingBuffer` per source.
/// - A framer per source de-interleaves, filters each channel (state carried), and cuts
///   jobs of `framesPerJob` frames per channel for the worker pool.
/// - `jobs` workers measure frames with their own `FeatureExtractor`s.
/// - The exporter awaits each job's result in output order (file, frame, channel) and
///   hands batches to `emit`, so output is identical whatever `jobs` or the ring size.
///
/// Every queue is bounded, so a slow exporter slows the readers and memory does not grow
/// with input length. The first error cancels the whole graph and is thrown once.
public final class PipelineGraph: Sendable {
    /// Sizes that bound concurrency and memory.
    public struct Options: Sendable {
        /// Feature workers, and files worked on at once.
        public var jobs: Int
        /// Samples (all channels together) each source's ring holds.
        public var ringCapacity: Int
        /// Frames measured per job; 1 for the lowest latency (live), more for throughput.
        public var framesPerJob: Int
        /// Interleaved frames a reader asks its source for at a time.
        public var readFrames: Int

        /// When set, workers also encode their records in the output format, in parallel,
        /// and batches carry the bytes (`RecordBatch.encoded`).
        public var encoder: (any RecordEncoder)?

        public init(
            jobs: Int, ringCapacity: Int = 1 << 18, framesPerJob: Int = 128, readFrames: Int = 65_536,
            encoder: (any RecordEncoder)? = nil
        ) {
            self.encoder = encoder
            self.jobs = Swift.max(1, jobs)
            self.ringCapacity = ringCapacity
            self.framesPerJob = Swift.max(1, framesPerJob)
            self.readFrames = Swift.max(1, readFrames)
        }
    }

    /// One input of a run, opened and checked before the graph starts.
    public struct Input: @unchecked Sendable {
        // @unchecked: the source is used by its reader stage only, one call at a time.
        public var name: String
        public var source: any SampleSource
        /// How records get their `time`; seconds from the start (plus the source's time
        /// offset) unless a live source gives a wall clock.
        public var clock: RecordClock?

        public init(name: String, source: any SampleSource, clock: RecordClock? = nil) {
            self.name = name
            self.source = source
            self.clock = clock
        }
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Samples per channel read from each input, in input order.
        public var samplesPerChannel: [Int]
        /// Frames measured for each input.
        public var frames: [Int]
        /// Records handed to `emit`.
        public var records: Int
        /// Whether `stop()` ended the run early.
        public var stopped: Bool
    }

    public let settings: PipelineSettings
    public let options: Options
    private let stopSignal = StopSignal()
    /// Busy time per stage, for benchmarks.
    public let stageTimes = StageTimes()
    private let samplesRead = Atomic<Int>(0)

    public init(settings: PipelineSettings, options: Options) {
        self.settings = settings
        self.options = options
    }

    /// Ends the run gracefully (SIGINT): readers stop, and every record already complete
    /// is measured and emitted before `run` returns.
    public func stop() {
        stopSignal.fire()
    }

    /// Samples (all channels) read so far, for progress reports.
    public var progress: Int { samplesRead.load(ordering: .relaxed) }

    /// Runs every input to its end (or to `stop()`), calling `emit` with batches in output
    /// order from one task at a time.
    /// - Throws: the first error of any stage (bad input, a failed write); the others stop.
    public func run(inputs: [Input], emit: @escaping @Sendable (RecordBatch) throws -> Void) async throws -> Summary {
        let stages = try inputs.map { input in
            try SourceStage(input: input, settings: settings, options: options, times: stageTimes)
        }
        let work = AsyncBoundedQueue<WorkItem>(capacity: 4 * options.jobs)
        let failure = GraphFailure(stages: stages, work: work)

        let threads = WorkerThreads(count: options.jobs)
        defer { threads.shutdown() }
        let records = try await withTaskExecutorPreference(threads) {
            try await runStages(stages, work: work, failure: failure, threads: threads, emit: emit)
        }
        if let error = failure.error { throw error }
        return Summary(
            samplesPerChannel: stages.map { $0.samplesPerChannel.load(ordering: .relaxed) },
            frames: stages.map { $0.framesCut.load(ordering: .relaxed) },
            records: records,
            stopped: stopSignal.hasFired
        )
    }

    /// Every stage as a child task: workers, the source runner and the exporter.
    private func runStages(
        _ stages: [SourceStage], work: AsyncBoundedQueue<WorkItem>, failure: GraphFailure, threads: WorkerThreads,
        emit: @escaping @Sendable (RecordBatch) throws -> Void
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<options.jobs {
                group.addTask { [stageTimes] in
                    await Self.measure(work, times: stageTimes, threads: threads)
                    return 0
                }
            }
            group.addTask { [self] in
                do {
                    try await runSources(stages, work: work)
                    work.finish()
                } catch {
                    failure.fail(error)
                }
                return 0
            }
            group.addTask { [stageTimes] in
                do {
                    return try await Self.export(stages, times: stageTimes, emit: emit)
                } catch {
                    failure.fail(error)
                    return 0
                }
            }
            var records = 0
            for try await count in group { records += count }
            return records
        }
    }

    /// Runs at most `jobs` sources at once, in argument order (fill, then one per finish).
    private func runSources(_ stages: [SourceStage], work: AsyncBoundedQueue<WorkItem>) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func startNext() {
                guard next < stages.count else { return }
                let stage = stages[next]
                next += 1
                group.addTask { [self] in try await run(stage, work: work) }
            }
            for _ in 0..<options.jobs { startNext() }
            while try await group.next() != nil { startNext() }
        }
    }

    private func run(_ stage: SourceStage, work: AsyncBoundedQueue<WorkItem>) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in try await stage.read(stop: stopSignal, samplesRead: samplesRead) }
            group.addTask { await stage.cut(into: work) }
            try await group.waitForAll()
        }
    }

    /// A worker: measures jobs until the queue ends. Each worker keeps its own extractors
    /// (they own FFT buffers and are not thread-safe), one per configuration it has met.
    private static func measure(_ work: AsyncBoundedQueue<WorkItem>, times: StageTimes, threads: WorkerThreads) async {
        var extractors: [FeatureConfiguration: FeatureExtractor] = [:]
        while let item = await work.next() {
            let extractor: FeatureExtractor
            if let existing = extractors[item.configuration] {
                extractor = existing
            } else {
                extractor = FeatureExtractor(configuration: item.configuration)
                extractors[item.configuration] = extractor
            }
            measure(consume item, with: extractor, times: times)
            // Let the framer and exporter in between jobs: a worker that always finds
            // work would otherwise keep its thread and starve the stages that feed it.
            await threads.yieldToQueuedJobs()
        }
    }

    /// One job, synchronously: its buffers are released here, before the worker suspends,
    /// so the exporter's copies are the only ones and go back to the pools without a copy.
    private static func measure(_ item: consuming WorkItem, with extractor: FeatureExtractor, times: StageTimes) {
        let columns = item.configuration.columnCount
        let length = item.configuration.frameLength
        var values = item.buffers.values.take()
        values.append(contentsOf: repeatElement(0, count: item.frameCount * columns))
        let started = MonotonicClock.now()
        let samples = item.samples.samples
        values.withUnsafeMutableBufferPointer { values in
            for frame in 0..<item.frameCount {
                let start = frame * item.hop
                extractor.extract(
                    UnsafeBufferPointer(rebasing: samples[start..<(start + length)]),
                    into: UnsafeMutableBufferPointer(rebasing: values[(frame * columns)..<((frame + 1) * columns)])
                )
            }
        }
        times.add(.measure, MonotonicClock.now() &- started)
        item.buffers.samples.recycle(item.samples)
        var measured = MeasuredFrames(values: consume values)
        measured.failure = FiniteValues.firstFailure(in: measured.values, of: item)
        if let encoder = item.encoder, measured.failure == nil {
            let encodeStarted = MonotonicClock.now()
            measured.bytes = item.buffers.bytes.take()
            measured.ends = item.buffers.ends.take()
            measured.encode(item, with: encoder)
            times.add(.export, MonotonicClock.now() &- encodeStarted)
        }
        item.result.fulfil(measured)
    }

    /// The exporter: results in output order, regardless of which worker finished first.
    private static func export(
        _ stages: [SourceStage], times: StageTimes, emit: @escaping @Sendable (RecordBatch) throws -> Void
    ) async throws -> Int {
        var records = 0
        // Reused from batch to batch, like everything else a job needs.
        var perChannel: [MeasuredFrames] = []
        let handOver = BatchHandOver(times: times, emit: emit)
        let writes = BlockingThread(name: "sonde.export") { try handOver.write() }
        defer { writes.shutdown() }
        for stage in stages {
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
                let batch = stage.batch(firstFrame: ticket.firstFrame, frameCount: ticket.frameCount, perChannel: &perChannel)
                records += batch.recordCount
                // Handed over in a box the writing thread empties: the batch it writes and
                // then recycles is then the only reference to its buffers (a shared copy
                // would make the pool copy them). The previous write has returned by now,
                // so one box serves every batch.
                handOver.put(batch, from: stage)
                _ = try await writes.run()
            }
        }
        return records
    }
}

/// Moves batches from the exporter's task to the writing thread, one at a time, and
/// writes them there.
private final class BatchHandOver: @unchecked Sendable {
    // @unchecked: put before each hand-over and taken once on the writing thread; the
    // thread's lock and the exporter's await of each write order every access.
    private var batch: RecordBatch?
    private var stage: SourceStage?
    private let times: StageTimes
    private let emit: @Sendable (RecordBatch) throws -> Void

    init(times: StageTimes, emit: @escaping @Sendable (RecordBatch) throws -> Void) {
        self.times = times
        self.emit = emit
    }

    func put(_ batch: consuming RecordBatch, from stage: SourceStage) {
        self.batch = batch
        self.stage = stage
    }

    /// Writes the batch put last, then gives its buffers back to its stage.
    func write() throws {
        guard let batch = take(), let stage else { return }
        try times.time(.export) { try emit(batch) }
        stage.recycle(batch)
    }

    private func take() -> RecordBatch? {
        defer { batch = nil }
        return batch
    }
}

/// Stores the first error of a run and cancels every queue and ring so all stages end.
private final class GraphFailure: Sendable {
    private let first = Mutex<(any Error)?>(nil)
    private let stages: [SourceStage]
    private let work: AsyncBoundedQueue<WorkItem>

    init(stages: [SourceStage], work: AsyncBoundedQueue<WorkItem>) {
        self.stages = stages
        self.work = work
    }

    var error: (any Error)? { first.withLock { $0 } }

    func fail(_ error: any Error) {
        let isFirst = first.withLock { first -> Bool in
            guard first == nil else { return false }
            first = error
            return true
        }
        guard isFirst else { return }
        // Results nobody will compute: wake the exporter if it waits for one.
        for item in work.cancel() { item.result.abandon() }
        for stage in stages { stage.cancel() }
    }
}

/// One channel's frames for a worker to measure.
struct WorkItem: Sendable {
    /// The job's frames: its first `(frameCount - 1) * hop + frameLength` samples.
    var samples: SampleBlock
    /// Where `samples` goes back to, and the worker's values and bytes come from.
    var buffers: JobBuffers
    var frameCount: Int
    var hop: Int
    var configuration: FeatureConfiguration
    var result: ResultSlot<MeasuredFrames>
    /// What the encoder needs besides the values.
    var encoder: (any RecordEncoder)?
    var fileName: String
    var channelName: String
    var firstFrame: Int
    var clock: RecordClock
}

/// The jobs of one block of frames, one result per channel, in the order the exporter needs.
struct BlockTicket: Sendable {
    var firstFrame: Int
    var frameCount: Int
    var results: [ResultSlot<MeasuredFrames>]
}

/// A worker's result for one channel's frames: the values, and their records' bytes when
/// the graph has an encoder.
struct MeasuredFrames: Sendable {
    var values: [Double]
    var bytes: [UInt8] = []
    var ends: [Int] = []
    /// A value that is not finite (`FiniteValues`): the exporter throws it, which stops the run.
    var failure: SondeError?

    mutating func encode(_ item: WorkItem, with encoder: any RecordEncoder) {
        let columns = item.configuration.columnCount
        ends.reserveCapacity(item.frameCount)
        values.withUnsafeBufferPointer { values in
            for offset in 0..<item.frameCount {
                let frame = item.firstFrame + offset
                encoder.encode(
                    fileName: item.fileName, channel: item.channelName, frame: frame, start: frame * item.hop, clock: item.clock,
                    values: UnsafeBufferPointer(rebasing: values[(offset * columns)..<((offset + 1) * columns)]), into: &bytes
                )
                ends.append(bytes.count)
            }
        }
    }
}
