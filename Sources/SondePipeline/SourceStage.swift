import SondeCore
import SondeDSP
import Synchronization

/// The per-input part of the graph: a reader filling a ring, and a framer that filters each
/// channel and cuts jobs for the workers. A long input cut into segments (`InputSegments`)
/// has a stage per segment: the first is the input's, and hands the exporter the others
/// (`followers`) in order.
final class SourceStage: @unchecked Sendable {
    // @unchecked: the mutable parts each belong to one task: `source`, `notes` and
    // `readTarget` to the reader (and its thread, one call at a time, ordered by that
    // thread's lock), `channels` to the framer, `failure` is written by the reader before
    // it closes the ring and read by the exporter after the framer has finished. What they
    // share is thread-safe: the SPSC ring, the ticket queue, and atomics.
    let index: Int
    let name: String
    let format: StreamFormat
    let configuration: FeatureConfiguration
    let clock: RecordClock
    let tickets: AsyncBoundedQueue<BlockTicket>
    let samplesPerChannel = Atomic<Int>(0)
    /// Buffers of this input's jobs, reused from job to job (and input to input).
    let buffers: JobBuffers
    let framesCut = Atomic<Int>(0)
    let stageBuffers: StageBuffers
    /// The source's notes, once reading has ended.
    private(set) var notes: [String] = []
    /// Why reading stopped early, when the run goes on after a failed input (`keepGoing`),
    /// or for a segment, why its pieces' start states never came.
    var failure: (any Error)? { readFailure ?? filterFailure }
    /// Written by the reader before it closes the ring.
    private var readFailure: (any Error)?
    /// Written by the framer before it finishes the tickets.
    private var filterFailure: (any Error)?
    /// The reader stopped at `stop()` before the input's end (set once reading is over).
    private(set) var interrupted = false
    /// The part of the input this stage reads (`.whole`, unless the input is cut).
    let segment: InputSegment
    /// How the input is cut, on its first stage when it is (with `reopening`).
    let segments: InputSegments?
    let reopening: SourceReopening?
    /// The stages of the segments after the first, on the first stage of a cut input.
    let followers: SegmentFollowers?
    /// The start states of a cut filtered input's pieces, shared by its segments' stages.
    let pieceStates: PieceStates?
    /// Frames the framer still filters and drops before the segment's first (framer only).
    private var discardLeft: Int
    /// A read error ends this stage only and waits in `failure` for the exporter, which
    /// reports it in input order: set for `keepGoing` and for the segments of a cut input
    /// (a later segment must not report its error before an earlier one's).
    private let defersFailure: Bool
    /// Frames the source has delivered to this stage, counted on the reading side.
    private var framesDelivered = 0

    /// Released when reading ends, which closes the file: a dataset run keeps only the
    /// inputs in flight open.
    private var source: (any SampleSource)?
    private let ring: RingBuffer
    private let channels: [ChannelProcessor]
    private let hop: Int
    private let framesPerJob: Int
    private let readBlock: UnsafeMutableBufferPointer<Double>
    private let cutBlock: UnsafeMutableBufferPointer<Double>
    /// Where the next read decodes to: free ring slots, or `readBlock`.
    private var readTarget = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    private let times: StageTimes
    private let encoder: (any RecordEncoder)?
    /// Each channel's fixed record text, encoded once for the input (with an encoder).
    private let recordFields: [RecordFields]

    /// Frames the framer filters at a time. 16 Ki frames of two channels (256 KiB) stay in
    /// L2 through filtering and hand-over; with 64 Ki frames the whole run was 40% slower
    /// (`sonde bench`). Reads may be larger: fewer reads mean fewer hand-offs per frame.
    static let framerBlockFrames = 16_384

    /// What a lane's reading thread runs before its first input and between inputs:
    /// nothing, so it holds no stage (and no source, whose file is then closed).
    @Sendable static func idleLane() -> Int { 0 }

    /// Designs the filters for the input's rate, and cuts the input into segments when it
    /// can be reopened (`reopening`) and is long enough.
    /// - Parameters:
    ///   - stageBuffers: buffers for the input's channel count, idle until now.
    ///   - segment: the segment this stage reads, for a segment after an input's first
    ///     (`first`, whose job buffers it shares); nil for an input's first stage.
    /// - Throws: `SondeError(.invalidArgument)` for filters or bands that do not fit it.
    init(
        index: Int, input: PipelineGraph.Input, settings: PipelineSettings, sizes: StageSizes,
        encoder: (any RecordEncoder)?,
        jobs: Int, times: StageTimes, stageBuffers: StageBuffers, keepGoing: Bool = false,
        segment: InputSegment? = nil, first: SourceStage? = nil, reopening: SourceReopening? = nil
    ) throws {
        self.index = index
        self.times = times
        self.encoder = encoder
        let format = input.source.format
        precondition(stageBuffers.channelCount == format.channelCount, "buffers for another channel count")
        name = input.name
        self.format = format
        recordFields =
            encoder.map { encoder in format.channelNames.map { encoder.fields(fileName: input.name, channel: $0) } }
            ?? []
        source = input.source
        clock = input.clock ?? .seconds(sampleRate: format.sampleRate, offset: format.timeOffset)
        configuration = try settings.featureConfiguration(sampleRate: format.sampleRate)
        let pieceFilter = try settings.pieceFilter(sampleRate: format.sampleRate)
        self.stageBuffers = stageBuffers
        ring = stageBuffers.ring
        readBlock = stageBuffers.readBlock
        cutBlock = stageBuffers.cutBlock
        // A segment's jobs share the input's pools: one high-water mark of blocks in flight
        // per input, not one per segment (at 16 jobs, 250 MB against 45 before).
        buffers = first?.buffers ?? stageBuffers.jobs
        hop = settings.hop
        framesPerJob = sizes.framesPerJob
        // Enough tickets in flight to keep every worker busy, few enough to bound memory.
        tickets = AsyncBoundedQueue(capacity: 4 * jobs + 4)
        let cutFrames = cutBlock.count / format.channelCount
        let keepsPreviousFrame = configuration.needsPreviousFrame
        if let segment {
            segments = nil
            self.segment = segment
        } else {
            let cuts = pieceFilter == nil || jobs >= PipelineSettings.filteredCutMinimumJobs
            segments = reopening.flatMap { reopening in
                guard cuts else { return nil }
                return InputSegments(
                    frameCount: reopening.frameCount, channelCount: format.channelCount,
                    frameLength: settings.frameLength, hop: settings.hop, needsPreviousFrame: keepsPreviousFrame,
                    jobs: jobs, pieceLength: pieceFilter?.pieceLength, segmentSamples: sizes.segmentSamples)
            }
            self.segment = segments?.segment(0) ?? .whole
        }
        self.reopening = segments == nil ? nil : reopening
        followers =
            segments == nil
            ? nil
            : SegmentFollowers(
                capacity: InputSegments.segmentsAhead(
                    jobs: jobs, stageBytes: sizes.stageBytes(channelCount: format.channelCount)))
        defersFailure = keepGoing || segments != nil || segment != nil
        // A cut input's segments are given their pieces' start states; a whole input's
        // channels derive them as they go. The same doubles either way.
        pieceStates =
            first?.pieceStates
            ?? (segments == nil ? nil : pieceFilter.map { PieceStates(design: $0, channelCount: format.channelCount) })
        discardLeft = self.segment.discardedFrames
        let readStart = self.segment.readStart
        let givenStates = pieceStates != nil
        let leading = self.segment.leadingFrames
        let samplePool = buffers.samples
        channels = (0..<format.channelCount).map { _ in
            ChannelProcessor(
                filter: pieceFilter.map {
                    PiecewiseFilterCursor($0, startFrame: readStart, computesStartStates: !givenStates)
                }, extractor: nil, frameLength: settings.frameLength, hop: settings.hop,
                maximumBlock: cutFrames, framesHeld: sizes.framesPerJob, pool: samplePool,
                keepsPreviousFrame: keepsPreviousFrame, leadingFrames: leading
            )
        }
    }

    /// Reader: blocking reads on `thread` (the run's thread for this lane of inputs; nil
    /// to read on the calling task's thread, for a segment of a regular file), decoded
    /// straight into the ring's free slots (waiting when it is full), then published. Only
    /// a frame that would straddle the ring's wrap goes through `readBlock` and a copy.
    /// A read error with `defersFailure` ends this stage only (`failure`).
    func read(on thread: BlockingThread<Int>?, stop: StopSignal, samplesRead: borrowing Atomic<Int>) async throws {
        defer {
            notes = source?.notes ?? []
            // Drop the thread's hold on this stage, then the source: that closes the file.
            thread?.replaceCall(Self.idleLane)
            source = nil
            ring.close()
            // Progress counts what the neighbouring segments read twice once only.
            samplesRead.subtract(
                (samplesPerChannel.load(ordering: .relaxed) - ownFrames) * format.channelCount, ordering: .relaxed)
        }
        let channelCount = format.channelCount
        if firstReadFrames > 0 {
            samplesPerChannel.add(firstReadFrames, ordering: .relaxed)
            samplesRead.add(firstReadFrames * channelCount, ordering: .relaxed)
            if !firstReadIsFramed { ring.commit(firstReadFrames * channelCount) }
        }
        if endReached { return }
        let readSamples = readSampleCount
        let readOnce: @Sendable () throws -> Int = { [self] in
            guard let source else { return 0 }
            return try times.time(.read) { try readConfirmingEnd(source) }
        }
        thread?.replaceCall(readOnce)
        while !stop.hasFired, !ring.isCancelled {
            // Room for a whole read first: waiting for any room at all would make many small reads.
            await ring.waitForSpace(readSamples)
            if ring.isCancelled { break }
            let free = ring.withWritableRegions { first, _ in first }
            let inPlace = Swift.min(free.count, readSamples) / channelCount * channelCount
            readTarget = inPlace > 0 ? UnsafeMutableBufferPointer(rebasing: free[0..<inPlace]) : readBlock
            let read: Int?
            do {
                if let thread { read = try await thread.run() } else { read = try readOnce() }
            } catch  where defersFailure {
                readFailure = error
                break
            }
            guard let frames = read, frames > 0 else { break }
            samplesPerChannel.add(frames, ordering: .relaxed)
            samplesRead.add(frames * channelCount, ordering: .relaxed)
            if inPlace > 0 {
                ring.commit(frames * channelCount)
            } else {
                await ring.writeAll(UnsafeBufferPointer(rebasing: readBlock[0..<(frames * channelCount)]))
            }
            if endReached { break }
        }
        interrupted = stop.hasFired && !endReached && readFailure == nil
    }

    /// The frames of the input this stage accounts for, once reading has ended.
    var ownFrames: Int { segment.ownFrames(read: samplesPerChannel.load(ordering: .relaxed)) }

    /// Set on the reading thread when a read in `readConfirmingEnd` found the end.
    private var endReached = false
    /// Frames the first read put in the ring, not yet published.
    private var firstReadFrames = 0
    /// The first read went straight to the channel's samples, not to the ring.
    private var firstReadIsFramed = false

    /// Samples a read asks for: whole frames, at most a read block and the ring.
    private var readSampleCount: Int {
        Swift.min(readBlock.count, ring.capacity - ring.capacity % format.channelCount)
    }

    /// The first read, on the lane's thread right after the input was opened, straight into
    /// the empty ring; `read(on:...)` publishes it. A short clip is then read, to its end,
    /// in the same hand-off as its opening. One channel is read straight into its block of
    /// samples instead (the framer has not started): a clip that fits is never copied.
    func readFirst() throws {
        guard let source else { return }
        let channelCount = format.channelCount
        // A segment's channel waits for its pieces' start states: read through the ring.
        if channelCount == 1, pieceStates == nil, let channel = channels.first {
            readTarget = channel.directReadRegion(maximum: readSampleCount)
            guard !readTarget.isEmpty else { return }
            firstReadFrames = try times.time(.read) { try readConfirmingEnd(source) }
            times.time(.filter) { channel.commitDirect(firstReadFrames) }
            firstReadIsFramed = true
            return
        }
        let free = ring.withWritableRegions { first, _ in first }
        let inPlace = Swift.min(free.count, readSampleCount) / channelCount * channelCount
        guard inPlace > 0 else { return }
        readTarget = UnsafeMutableBufferPointer(rebasing: free[0..<inPlace])
        firstReadFrames = try times.time(.read) { try readConfirmingEnd(source) }
    }

    /// One read into `readTarget` (no further than the segment's end); when the source
    /// knows its length and has now delivered all of it, also the read that finds the end,
    /// in the same call: one hand-off to the reading thread fewer per input, which is most
    /// of a short clip's reading.
    /// - Throws: the source's error; `SondeError(.io)` when a segment's file ends before
    ///   the segment does (it was cut short while being read).
    private func readConfirmingEnd(_ source: any SampleSource) throws -> Int {
        let channelCount = format.channelCount
        let limit = segment.frameLimit ?? Int.max
        let wanted = Swift.min(readTarget.count / channelCount, limit - framesDelivered) * channelCount
        if wanted == 0 {
            endReached = true
            return 0
        }
        let target = UnsafeMutableBufferPointer(rebasing: readTarget[0..<wanted])
        var frames = try source.read(into: target)
        if frames == 0 { try reachEnd() }
        guard frames > 0, let expected = segment.frameLimit ?? source.expectedFrames else {
            framesDelivered += frames
            return frames
        }
        while framesDelivered + frames >= expected, frames * channelCount < target.count {
            let more = try source.read(into: UnsafeMutableBufferPointer(rebasing: target[(frames * channelCount)...]))
            if more == 0 {
                try reachEnd()
                break
            }
            frames += more
        }
        framesDelivered += frames
        if framesDelivered == limit { endReached = true }
        return frames
    }

    /// The source has no more frames: the input's end, or for a segment that should have
    /// had more, a file cut short under sonde.
    private func reachEnd() throws {
        endReached = true
        if let limit = segment.frameLimit, framesDelivered < limit {
            throw SondeError(
                .io,
                "\(name): the file ended at frame \(segment.readStart + framesDelivered) while sonde read it, before the length it had when opened; expected it unchanged until the run ends"
            )
        }
    }

    /// Framer: de-interleaves and filters each channel, then sends complete frames to the
    /// workers, `framesPerJob` at a time (the rest at the end of the input).
    func cut(into work: AsyncBoundedQueue<WorkItem>) async {
        defer {
            tickets.finish()
            for channel in channels { channel.recycleHistory() }
        }
        var nextFrame = segment.firstWindow
        while true {
            // Whole jobs first: of the last block, or of the first read when it went
            // straight to the channel's samples (`readFirst`), so a block always fits.
            while let complete = channels.first?.completeFrames, complete >= framesPerJob {
                guard await send(frames: framesPerJob, first: nextFrame, to: work) else { return }
                nextFrame += framesPerJob
            }
            let (block, consumeAfter) = await nextBlock()
            if block.isEmpty { break }
            let appended = await append(block)
            if consumeAfter { ring.consume(block.count) }
            guard appended else {
                await drain()
                return
            }
        }
        if ring.isCancelled { return }
        if let complete = channels.first?.completeFrames, complete > 0 {
            _ = await send(frames: complete, first: nextFrame, to: work)
        }
    }

    /// Filters a block into the channels: whole, or for a segment of a cut filtered input,
    /// in parts that end at its pieces' ends (each piece after its start state has come)
    /// and dropping the frames before the segment's first. False when the states never
    /// come (`filterFailure` says why, unless the input was cancelled).
    private func append(_ block: UnsafeBufferPointer<Double>) async -> Bool {
        guard let pieceStates, let lead = channels.first else {
            await appendFrames(block)
            return true
        }
        let channelCount = format.channelCount
        var offset = 0
        while offset < block.count {
            if lead.needsStartState {
                switch await pieceStates.startStates(piece: lead.filterPiece) {
                case .states(let states):
                    for (channel, state) in zip(channels, states) { channel.loadStartState(state) }
                case .failed(let error):
                    filterFailure = error
                    return false
                case .cancelled:
                    return false
                }
            }
            var frames = Swift.min((block.count - offset) / channelCount, lead.samplesToPieceEnd)
            if discardLeft > 0 { frames = Swift.min(frames, discardLeft) }
            let part = UnsafeBufferPointer(rebasing: block[offset..<(offset + frames * channelCount)])
            if discardLeft > 0 {
                times.time(.filter) {
                    for (index, channel) in channels.enumerated() {
                        channel.filterAndDrop(interleaved: part, channel: index, channelCount: channelCount)
                    }
                }
                discardLeft -= frames
            } else {
                await appendFrames(part)
            }
            offset += frames * channelCount
        }
        return true
    }

    /// Channels are filtered two at a time in one pass (the de-interleaving reads both
    /// with one load), and the pairs side by side in child tasks.
    private func appendFrames(_ block: UnsafeBufferPointer<Double>) async {
        let channelCount = format.channelCount
        if channelCount <= 2 {
            ChannelAppend(channels: channels, first: 0, block: block, times: times).run()
        } else {
            await withTaskGroup(of: Void.self) { group in
                for first in stride(from: 0, to: channelCount, by: 2) {
                    let pair = ChannelAppend(channels: channels, first: first, block: block, times: times)
                    group.addTask { pair.run() }
                }
            }
        }
    }

    /// Takes what the reader still delivers, unfiltered, so that it reaches its end (or
    /// its own error) after the framer gave up on a segment.
    private func drain() async {
        while true {
            let (block, consumeAfter) = await nextBlock()
            if block.isEmpty { return }
            if consumeAfter { ring.consume(block.count) }
        }
    }

    private func send(frames: Int, first: Int, to work: AsyncBoundedQueue<WorkItem>) async -> Bool {
        var results = buffers.results.take()
        results.reserveCapacity(channels.count)
        let assembly = channels.count > 1 && encoder != nil ? buffers.assemblies.take() : nil
        for (index, channel) in channels.enumerated() {
            let result = buffers.slots.take()
            results.append(result)
            let item = WorkItem(
                samples: channel.takeFrames(frames), buffers: buffers, frameCount: frames, hop: hop,
                configuration: configuration, result: result, assembly: assembly, channel: index,
                encoder: encoder, fields: recordFields.isEmpty ? nil : recordFields[index], fileName: name,
                channelName: format.channelNames[index], firstFrame: first, clock: clock
            )
            guard await work.send(item) else { return false }
        }
        framesCut.add(frames, ordering: .relaxed)
        // Work first, then the ticket: a ticket the exporter holds always has its work queued.
        return await tickets.send(
            BlockTicket(firstFrame: first, frameCount: frames, results: results, assembly: assembly))
    }

    /// Waits for whole interleaved frames and returns up to a block of them: in place in the
    /// ring when they lie before its wrap (the usual case; `consumeAfter` is then true and
    /// the caller releases them once filtered), else copied out into `cutBlock`. Returns
    /// an empty block at the end of the input.
    ///
    /// Why in place: copying every sample out of the ring before filtering it was a pass
    /// over all the data for nothing (perf: a quarter of the run's memmove).
    private func nextBlock() async -> (block: UnsafeBufferPointer<Double>, consumeAfter: Bool) {
        let channelCount = format.channelCount
        let maximumFrames = cutBlock.count / channelCount
        while true {
            let available = Swift.min(ring.readableCount / channelCount, maximumFrames)
            if available > 0 {
                let region = ring.withReadableRegions { first, _ in first }
                let contiguous = Swift.min(region.count / channelCount, available)
                if contiguous > 0 {
                    return (UnsafeBufferPointer(rebasing: region[0..<(contiguous * channelCount)]), true)
                }
                // A frame straddles the wrap (channel counts that do not divide the ring).
                let read = ring.read(
                    into: UnsafeMutableBufferPointer(rebasing: cutBlock[0..<(available * channelCount)]))
                return (UnsafeBufferPointer(rebasing: cutBlock[0..<read]), false)
            }
            if ring.isClosed, ring.readableCount < channelCount {
                return (UnsafeBufferPointer(start: nil, count: 0), false)
            }
            await ring.waitForData(channelCount)
        }
    }

    /// The records of `frameCount` frames, channels interleaved frame by frame. The
    /// per-channel values go back to the pool; `recycle(_:)` takes the batch's buffers
    /// once it is written.
    func batch(firstFrame: Int, frameCount: Int, perChannel: inout [MeasuredFrames]) -> RecordBatch {
        let columns = configuration.columnCount
        let channelCount = perChannel.count
        var values = buffers.values.take()
        values.append(contentsOf: repeatElement(0, count: frameCount * channelCount * columns))
        // The records in output order, from the channel that finished last (`RecordAssembly`).
        var encoded: EncodedRecords?
        for channel in 0..<channelCount {
            perChannel[channel].values.withUnsafeBufferPointer { source in
                for frame in 0..<frameCount {
                    let destination = (frame * channelCount + channel) * columns
                    for column in 0..<columns { values[destination + column] = source[frame * columns + column] }
                }
            }
            var measured = MeasuredFrames(values: [])
            swap(&measured, &perChannel[channel])
            // Moved, not copied, so the pool holds the only reference.
            let measuredValues = measured.values
            measured.values = []
            buffers.values.recycle(consume measuredValues)
            if encoder != nil, measured.carriesRecords {
                var records = EncodedRecords(bytes: [], ends: [])
                swap(&records.bytes, &measured.bytes)
                swap(&records.ends, &measured.ends)
                encoded = records
            }
        }
        return RecordBatch(
            fileName: name, channelNames: format.channelNames, columnCount: columns, firstFrame: firstFrame,
            frameCount: frameCount, hop: hop, clock: clock,
            values: values,
            encoded: encoded
        )
    }

    /// Hands each channel's spectra of a block to `tap`, in channel order, and takes their
    /// buffers back for later jobs.
    func tapSpectra(_ perChannel: inout [MeasuredFrames], firstFrame: Int, frameCount: Int, into tap: any SpectrumTap) {
        for channel in perChannel.indices {
            let spectra = perChannel[channel].spectra
            perChannel[channel].spectra = []
            spectra.withUnsafeBufferPointer { power in
                tap.receive(
                    FrameSpectra(
                        input: index, inputName: name, format: format, channel: channel, firstFrame: firstFrame,
                        frameCount: frameCount, frameLength: configuration.frameLength, hop: hop, power: power))
            }
            buffers.values.recycle(consume spectra)
        }
    }

    /// Takes back a written batch's buffers for later jobs.
    func recycle(_ batch: consuming RecordBatch) {
        var batch = batch
        let values = batch.values
        batch.values = []
        buffers.values.recycle(consume values)
        guard var encoded = batch.encoded else { return }
        batch.encoded = nil
        let bytes = encoded.bytes, ends = encoded.ends
        encoded.bytes = []
        encoded.ends = []
        buffers.bytes.recycle(consume bytes)
        buffers.ends.recycle(consume ends)
    }

    /// Takes back a ticket's result slots, and their list, once the exporter has read them.
    func recycle(_ results: consuming [ResultSlot<MeasuredFrames>]) {
        let results = results
        for slot in results { buffers.slots.recycle(slot) }
        buffers.results.recycle(consume results)
    }

    var isCancelled: Bool { ring.isCancelled }

    func cancel() {
        pieceStates?.end(.cancelled)
        followers?.cancel()
        ring.cancel()
        for ticket in tickets.cancel() {
            for result in ticket.results { result.abandon() }
        }
    }
}
