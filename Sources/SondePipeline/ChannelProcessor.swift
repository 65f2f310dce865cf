import SondeCore
import SondeDSP

/// One channel's path through the pipeline: filter chain with carried state, the samples
/// of frames not yet complete, and a feature extractor.
final class ChannelProcessor {
    private var filter: FilterChain
    private let extractor: FeatureExtractor
    private let frameLength: Int
    private let hop: Int
    /// Filtered samples from the start of the next frame onward.
    private var history: UnsafeMutableBufferPointer<Double>
    private var historyCount = 0

    init(filter: FilterChain, extractor: FeatureExtractor, hop: Int, maximumBlock: Int) {
        self.filter = filter
        self.extractor = extractor
        frameLength = extractor.configuration.frameLength
        self.hop = hop
        history = .allocate(capacity: frameLength + maximumBlock)
    }

    deinit { history.deallocate() }

    /// Gathers this channel's samples out of an interleaved block and filters them.
    func append(interleaved block: UnsafeBufferPointer<Double>, channel: Int, channelCount: Int) {
        let frames = block.count / channelCount
        precondition(historyCount + frames <= history.count, "block larger than the processor was sized for")
        let destination = UnsafeMutableBufferPointer(rebasing: history[historyCount..<(historyCount + frames)])
        var source = channel
        for i in 0..<frames {
            destination[i] = block[source]
            source += channelCount
        }
        filter.process(destination)
        historyCount += frames
    }

    /// How many whole frames the buffered samples hold.
    var completeFrames: Int {
        historyCount < frameLength ? 0 : (historyCount - frameLength) / hop + 1
    }

    /// Measures buffered frame `index` (0 = the oldest incomplete one) into `values`.
    func extractFrame(_ index: Int, into values: UnsafeMutableBufferPointer<Double>) {
        let start = index * hop
        extractor.extract(UnsafeBufferPointer(rebasing: history[start..<(start + frameLength)]), into: values)
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
