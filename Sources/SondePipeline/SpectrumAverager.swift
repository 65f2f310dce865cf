public import SondeCore
import Synchronization

/// Welch's averaged spectrum of every input and channel (docs/features.md section 8): the mean
/// of `P[k]` over all complete frames, summed as the frames come through the graph's
/// spectrum tap, so it costs one pass and `channels x (N/2 + 1)` numbers per input.
public final class SpectrumAverager: SpectrumTap {
    /// One input's averaged spectrum.
    public struct Average: Sendable {
        public var inputName: String
        public var format: StreamFormat
        /// N, in samples.
        public var frameLength: Int
        /// Frames averaged per channel.
        public var frames: Int
        /// Per channel, `Pavg[k]` for `k = 0...N/2`, in units²/Hz.
        public var power: [[Double]]

        /// `f[k] = k * fs / N`, in Hz.
        public var frequencies: [Double] {
            let count = frameLength / 2 + 1
            return (0..<count).map { Double($0) * format.sampleRate / Double(frameLength) }
        }
    }

    private let sums = Mutex<[Int: Average]>([:])

    public init() {}

    public func receive(_ spectra: FrameSpectra) {
        sums.withLock { sums in
            var average =
                sums.removeValue(forKey: spectra.input)
                ?? Average(
                    inputName: spectra.inputName, format: spectra.format, frameLength: spectra.frameLength, frames: 0,
                    power: Array(
                        repeating: Array(repeating: 0, count: spectra.binCount), count: spectra.format.channelCount))
            average.power[spectra.channel].withUnsafeMutableBufferPointer { total in
                for offset in 0..<spectra.frameCount {
                    let row = spectra.frame(offset)
                    for k in 0..<total.count { total[k] += row[k] }
                }
            }
            // Every channel gets the same frames: count them once.
            if spectra.channel == 0 { average.frames += spectra.frameCount }
            sums[spectra.input] = average
        }
    }

    /// Input `input`'s averaged spectrum, and forgets it (memory stays bounded over many
    /// inputs); nil when no complete frame of it came through.
    public func take(input: Int) -> Average? {
        guard var average = sums.withLock({ $0.removeValue(forKey: input) }), average.frames > 0 else { return nil }
        let scale = 1 / Double(average.frames)
        for channel in average.power.indices {
            for k in average.power[channel].indices { average.power[channel][k] *= scale }
        }
        return average
    }
}
