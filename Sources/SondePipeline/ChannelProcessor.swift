import SondeCore
import SondeDSP

/// One channel's path through the pipeline: filter chain with carried state, the samples
/// of frames not yet complete, and a feature extractor.
final class ChannelProcessor {
    private var filter: FilterChain
    private let extractor: FeatureExtractor?
    private let frameLength: Int
    private let hop: Int
    /// Filtered samples from the start of the next frame onward.
    private var history: UnsafeMutableBufferPointer<Double>
    private var historyCount = 0

    /// - Parameters:
    ///   - extractor: nil when frames are measured elsewhere (the graph's workers).
    ///   - framesHeld: complete frames the caller may leave buffered before taking them.
    init(filter: FilterChain, extractor: FeatureExtractor?, frameLength: Int, hop: Int, maximumBlock: Int, framesHeld: Int = 1) {
        self.filter = filter
        self.extractor = extractor
        self.frameLength = frameLength
        self.hop = hop
        history = .allocate(capacity: (Swift.max(framesHeld, 1) - 1) * hop + frameLength + maximumBlock)
    }

    deinit { history.deallocate() }

    /// Gathers this channel's samples out of an interleaved block and filters them.
    func append(interleaved block: UnsafeBufferPointer<Double>, channel: Int, channelCount: Int) {
        let samples = gather(interleaved: block, channel: channel, channelCount: channelCount)
        filter.process(samples)
        historyCount += samples.count
    }

    /// `append` for two channels of the same block at once: their filters run side by side
    /// in one pass (`FilterChain.process(_:_:_:_:)`), for about the cost of one.
    static func append(
        _ first: ChannelProcessor, channel: Int, _ second: ChannelProcessor, channel secondChannel: Int,
        interleaved block: UnsafeBufferPointer<Double>, channelCount: Int
    ) {
        let a = first.gather(interleaved: block, channel: channel, channelCount: channelCount)
        let b = second.gather(interleaved: block, channel: secondChannel, channelCount: channelCount)
        FilterChain.process(&first.filter, a, &second.filter, b)
        first.historyCount += a.count
        second.historyCount += b.count
    }

    /// Copies this channel's samples out of an interleaved block after the history, unfiltered.
    private func gather(interleaved block: UnsafeBufferPointer<Double>, channel: Int, channelCount: Int) -> UnsafeMutableBufferPointer<Double> {
        let frames = block.count / channelCount
        precondition(historyCount + frames <= history.count, "block larger than the processor was sized for")
        let destination = UnsafeMutableBufferPointer(rebasing: history[historyCount..<(historyCount + frames)])
        var source = channel
        for i in 0..<frames {
            destination[i] = block[source]
            source += channelCount
        }
        return destination
    }

    /// How many whole frames the buffered samples hold.
    var completeFrames: Int {
        historyCount < frameLength ? 0 : (historyCount - frameLength) / hop + 1
    }

    /// Measures buffered frame `index` (0 = the oldest incomplete one) into `values`.
    func extractFrame(_ index: Int, into values: UnsafeMutableBufferPointer<Double>) {
        let start = index * hop
        extractor?.extract(UnsafeBufferPointer(rebasing: history[start..<(start + frameLength)]), into: values)
    }

    /// Copies the samples of the oldest `frames` complete frames, `(frames - 1) * hop +
    /// frameLength` of them, into `samples` (emptied first), for a worker to measure.
    func copyFrames(_ frames: Int, into samples: inout [Double]) {
        let count = (frames - 1) * hop + frameLength
        precondition(frames >= 1 && count <= historyCount)
        samples.removeAll(keepingCapacity: true)
        samples.append(contentsOf: UnsafeBufferPointer(rebasing: history[0..<count]))
    }

    /// Forgets the first `frames` frames' hops once they are measured.
    func discardFrames(_ frames: Int) {
        let drop = Swift.min(frames * hop, historyCount)
        guard drop > 0 else { return }
        let remaining = historyCount - drop
        if remaining > 0, let base = history.baseAddress {
            base.update(from: base + drop, count: remaining)
        }
        historyCount = remaining
    }
}
