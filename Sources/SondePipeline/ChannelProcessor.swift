import SondeCore
import SondeDSP

/// One channel's path through the pipeline: the filter, cut into pieces counted from the
/// input's frame 0 (`PiecewiseFilterCursor`), the samples of frames not yet complete, and a
/// feature extractor.
final class ChannelProcessor {
    /// nil without filters.
    private var filter: PiecewiseFilterCursor?
    private let extractor: FeatureExtractor?
    private let frameLength: Int
    private let hop: Int
    /// Where full blocks go to the workers and fresh ones come from.
    private let pool: Pool<SampleBlock>
    /// Filtered samples from `leading` samples before the next frame onward, in `history.samples`.
    private var history: SampleBlock
    private var historyCount = 0
    /// Samples kept before the next frame: a hop when the previous frame must travel with
    /// the next job (`keepsPreviousFrame`) and there is one, else 0.
    private var leading = 0
    private let keepsPreviousFrame: Bool

    /// The capacity of the sample blocks a processor with these settings needs (a hop more
    /// than the frames, for the previous frame's samples when it is kept).
    static func blockCapacity(frameLength: Int, hop: Int, maximumBlock: Int, framesHeld: Int) -> Int {
        Swift.max(framesHeld, 1) * hop + frameLength + maximumBlock
    }

    /// - Parameters:
    ///   - extractor: nil when frames are measured elsewhere (the graph's workers).
    ///   - framesHeld: complete frames the caller may leave buffered before taking them.
    ///   - pool: blocks of `blockCapacity(...)` samples; nil for a private one.
    ///   - keepsPreviousFrame: whether each block taken after the first starts a hop early,
    ///     with the frame before its first (see `SampleBlock.leadingSamples`).
    ///   - leadingFrames: samples the first block has before its first frame: a hop when
    ///     a segment after an input's first brings the frame before it, else 0.
    init(
        filter: PiecewiseFilterCursor?, extractor: FeatureExtractor?, frameLength: Int, hop: Int, maximumBlock: Int,
        framesHeld: Int = 1,
        pool: Pool<SampleBlock>? = nil, keepsPreviousFrame: Bool = false, leadingFrames: Int = 0
    ) {
        self.filter = filter
        leading = leadingFrames
        self.keepsPreviousFrame = keepsPreviousFrame
        self.extractor = extractor
        self.frameLength = frameLength
        self.hop = hop
        let capacity = Self.blockCapacity(
            frameLength: frameLength, hop: hop, maximumBlock: maximumBlock, framesHeld: framesHeld)
        let pool = pool ?? .sampleBlocks(capacity: capacity, limit: 1)
        self.pool = pool
        history = pool.take()
        precondition(history.samples.count >= capacity, "sample blocks too small for these settings")
    }

    /// Gathers this channel's samples out of an interleaved block and filters them.
    func append(interleaved block: UnsafeBufferPointer<Double>, channel: Int, channelCount: Int) {
        let samples = gather(interleaved: block, channel: channel, channelCount: channelCount)
        filter?.process(samples)
        historyCount += samples.count
    }

    /// `append` for two adjacent channels of the same block at once: their filters run side
    /// by side in one pass that reads the block directly (`PiecewiseFilterCursor.process(_:_:
    /// interleaved:...)`), for about the cost of one channel and no separate de-interleaving;
    /// without a filter, de-interleaved four frames a step.
    static func append(
        _ first: ChannelProcessor, _ second: ChannelProcessor, channel: Int,
        interleaved block: UnsafeBufferPointer<Double>, channelCount: Int
    ) {
        let frames = block.count / channelCount
        guard frames > 0, let base = block.baseAddress else { return }
        let a = first.reserve(frames)
        let b = second.reserve(frames)
        if var firstFilter = first.filter, var secondFilter = second.filter {
            // Moved out and back so each cursor's state stays uniquely referenced (no copy).
            first.filter = nil
            second.filter = nil
            PiecewiseFilterCursor.process(
                &firstFilter, &secondFilter, interleaved: base + channel, stride: channelCount, into: a, b)
            first.filter = firstFilter
            second.filter = secondFilter
        } else {
            var none = FilterChain([]), alsoNone = FilterChain([])
            FilterChain.process(&none, &alsoNone, interleaved: base + channel, stride: channelCount, into: a, b)
        }
        first.historyCount += frames
        second.historyCount += frames
    }

    /// Whether the next sample starts a piece whose start state the caller must give
    /// (`loadStartState`): a segment of a cut input, never a whole one.
    var needsStartState: Bool { filter?.needsStartState ?? false }

    /// The piece of the input the next sample is in.
    var filterPiece: Int { filter?.piece ?? 0 }

    /// Samples before the current piece ends: a block given to a segment's channel must not
    /// run past it (without a filter, no limit).
    var samplesToPieceEnd: Int { filter?.samplesToPieceEnd ?? Int.max }

    /// Gives the start state of the piece the next sample starts (`needsStartState`).
    func loadStartState(_ state: [Double]) {
        filter?.load(startState: state)
    }

    /// Filters this channel's samples of an interleaved block and drops them: the frames a
    /// segment reads from its piece's start before its own first frame.
    func filterAndDrop(interleaved block: UnsafeBufferPointer<Double>, channel: Int, channelCount: Int) {
        filter?.process(gather(interleaved: block, channel: channel, channelCount: channelCount))
    }

    /// The free samples after the history, at most `maximum`, for a mono source to decode
    /// into directly before framing starts (`commitDirect`).
    func directReadRegion(maximum: Int) -> UnsafeMutableBufferPointer<Double> {
        reserve(Swift.max(0, Swift.min(maximum, history.samples.count - historyCount)))
    }

    /// Takes `frames` samples a source decoded into `directReadRegion`, filtered in place:
    /// the same doubles as `append` gives them, without the copy out of the ring (9% of a
    /// run over 2,000 mono clips, perf).
    func commitDirect(_ frames: Int) {
        filter?.process(reserve(frames))
        historyCount += frames
    }

    /// The next `frames` free samples of the history.
    private func reserve(_ frames: Int) -> UnsafeMutableBufferPointer<Double> {
        precondition(historyCount + frames <= history.samples.count, "block larger than the processor was sized for")
        return UnsafeMutableBufferPointer(rebasing: history.samples[historyCount..<(historyCount + frames)])
    }

    /// Copies this channel's samples out of an interleaved block after the history, unfiltered.
    private func gather(
        interleaved block: UnsafeBufferPointer<Double>, channel: Int, channelCount: Int
    ) -> UnsafeMutableBufferPointer<Double> {
        let destination = reserve(block.count / channelCount)
        if channelCount == 1, let start = block.baseAddress, let target = destination.baseAddress {
            // Mono: one copy (a strided loop here was 7% of a mono run, perf).
            target.update(from: start, count: destination.count)
            return destination
        }
        var source = channel
        for i in 0..<destination.count {
            destination[i] = block[source]
            source += channelCount
        }
        return destination
    }

    /// How many whole frames the buffered samples hold.
    var completeFrames: Int {
        historyCount - leading < frameLength ? 0 : (historyCount - leading - frameLength) / hop + 1
    }

    /// Measures buffered frame `index` (0 = the oldest incomplete one) into `values`.
    func extractFrame(_ index: Int, into values: UnsafeMutableBufferPointer<Double>) {
        let start = index * hop
        extractor?.extract(UnsafeBufferPointer(rebasing: history.samples[start..<(start + frameLength)]), into: values)
    }

    /// Hands over the block holding the oldest `frames` complete frames (its first
    /// `(frames - 1) * hop + frameLength` samples) for a worker to measure, and carries on
    /// in a fresh block from the pool that starts with what follows them.
    ///
    /// Why not copy the frames out: the filter writes straight into the block that goes
    /// to the worker, so only the overlap and the part of a read block past the last
    /// frame are copied, not every frame's samples (perf: memmove was 8% of a run).
    func takeFrames(_ frames: Int) -> SampleBlock {
        precondition(frames >= 1 && leading + (frames - 1) * hop + frameLength <= historyCount)
        let taken = history
        taken.leadingSamples = leading
        // The next block starts at the next frame, or a hop earlier: at the last frame taken.
        let kept = keepsPreviousFrame ? hop : 0
        let drop = leading + frames * hop - kept
        leading = kept
        let remaining = historyCount - drop
        let next = pool.take()
        if remaining > 0, let source = taken.samples.baseAddress, let destination = next.samples.baseAddress {
            destination.update(from: source + drop, count: remaining)
        }
        history = next
        historyCount = remaining
        return taken
    }

    /// Gives the block of samples not taken back to the pool, at the end of the input (or
    /// segment): the next stage's channels take it instead of a new one. Without this, a
    /// file cut into 30 segments of 8 channels allocated 240 blocks of 0.9 MB, and the
    /// freed ones fragmented the heap (RSS 127 MB against 48 MB).
    /// The processor takes no more samples afterwards.
    func recycleHistory() {
        pool.recycle(history)
        history = Self.noBlock
        historyCount = 0
        leading = 0
    }

    /// The history of a processor that has given its block back.
    private static let noBlock = SampleBlock(capacity: 0)

    /// Forgets the first `frames` frames' hops once they are measured.
    func discardFrames(_ frames: Int) {
        let drop = Swift.min(frames * hop, historyCount)
        guard drop > 0 else { return }
        let remaining = historyCount - drop
        if remaining > 0, let base = history.samples.baseAddress {
            base.update(from: base + drop, count: remaining)
        }
        historyCount = remaining
    }
}
