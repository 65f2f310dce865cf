import SondeCore
import Synchronization

/// A spectrum tap that keeps each channel's latest frame spectrum (one copy of N/2 + 1
/// values per block of frames, on the exporter), nothing older: what a live page draws.
/// Shared by `sonde stream --serve`'s page and the app's New measurement screen.
public final class LatestSpectra: SpectrumTap {
    /// The latest spectrum of each channel.
    public struct Latest: Sendable {
        public var channels: [String]
        public var sampleRate: Double
        public var frameLength: Int
        /// Per channel, `P[k]` of its latest frame (empty until one came).
        public var power: [[Double]]

        public init(channels: [String], sampleRate: Double, frameLength: Int, power: [[Double]]) {
            self.channels = channels
            self.sampleRate = sampleRate
            self.frameLength = frameLength
            self.power = power
        }

        /// Hz between bins: `sampleRate / frameLength`.
        public var binWidth: Double { sampleRate / Double(frameLength) }
    }

    private let latest = Mutex<Latest?>(nil)

    public init() {}

    public func receive(_ spectra: FrameSpectra) {
        guard spectra.frameCount > 0 else { return }
        let last = spectra.frame(spectra.frameCount - 1)
        latest.withLock { latest in
            if latest == nil || latest?.frameLength != spectra.frameLength
                || latest?.channels != spectra.format.channelNames
            {
                latest = Latest(
                    channels: spectra.format.channelNames, sampleRate: spectra.format.sampleRate,
                    frameLength: spectra.frameLength,
                    power: Array(repeating: [], count: spectra.format.channelCount)
                )
            }
            // In place once the channel has a spectrum: no allocation per block.
            if latest?.power[spectra.channel].count != last.count {
                latest?.power[spectra.channel] = [Double](repeating: 0, count: last.count)
            }
            for k in 0..<last.count { latest?.power[spectra.channel][k] = last[k] }
        }
    }

    /// The latest spectra, or nil before the first frame.
    public func snapshot() -> Latest? {
        latest.withLock { $0 }
    }
}
