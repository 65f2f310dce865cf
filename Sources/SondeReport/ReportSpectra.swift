public import SondeCore
public import SondePipeline
public import SondePlots
import Synchronization

/// The spectra a report draws, gathered from the graph's spectrum tap in one pass: per
/// input and channel the Welch sum (docs/features.md section 8) and a bounded `Spectrogram`.
public final class ReportSpectra: SpectrumTap {
    /// One input's spectra.
    public struct Input: Sendable {
        public var format: StreamFormat
        public var frameLength: Int
        public var hop: Int
        public var frames = 0
        /// Per channel, the mean `P[k]` once taken (the sum until then).
        public var average: [[Double]]
        public var spectrograms: [Spectrogram]
    }

    private let inputs = Mutex<[Int: Input]>([:])
    private let spectrogramRows: Int
    private let spectrogramColumns: Int

    /// - Parameters:
    ///   - spectrogramRows, spectrogramColumns: the spectrogram's size at most, in pixels.
    public init(spectrogramRows: Int = 256, spectrogramColumns: Int = 512) {
        self.spectrogramRows = spectrogramRows
        self.spectrogramColumns = spectrogramColumns
    }

    public func receive(_ spectra: FrameSpectra) {
        inputs.withLock { inputs in
            var input =
                inputs.removeValue(forKey: spectra.input)
                ?? Input(
                    format: spectra.format, frameLength: spectra.frameLength, hop: spectra.hop,
                    average: Array(
                        repeating: Array(repeating: 0, count: spectra.binCount), count: spectra.format.channelCount),
                    spectrograms: Array(
                        repeating: Spectrogram(
                            binCount: spectra.binCount, maximumRows: spectrogramRows, capacity: spectrogramColumns),
                        count: spectra.format.channelCount))
            let channel = spectra.channel
            input.average[channel].withUnsafeMutableBufferPointer { total in
                for offset in 0..<spectra.frameCount {
                    let row = spectra.frame(offset)
                    for k in 0..<total.count { total[k] += row[k] }
                }
            }
            for offset in 0..<spectra.frameCount { input.spectrograms[channel].append(spectra.frame(offset)) }
            if channel == 0 { input.frames += spectra.frameCount }
            inputs[spectra.input] = input
        }
    }

    /// Input `index`'s spectra, averaged, and forgets them; nil when no frame came through.
    public func take(input index: Int) -> Input? {
        guard var input = inputs.withLock({ $0.removeValue(forKey: index) }), input.frames > 0 else { return nil }
        let scale = 1 / Double(input.frames)
        for channel in input.average.indices {
            for k in input.average[channel].indices { input.average[channel][k] *= scale }
        }
        return input
    }
}
