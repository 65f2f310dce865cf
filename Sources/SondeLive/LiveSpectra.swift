import SondeCore
import SondePipeline
import Synchronization

/// The graph's spectrum tap for the live page: keeps each channel's latest frame spectrum
/// (one copy of N/2 + 1 values per block of frames, on the exporter), nothing older.
final class LiveSpectra: SpectrumTap {
    /// The latest spectrum of each channel, as the page draws it.
    struct Latest: Sendable {
        var channels: [String]
        var sampleRate: Double
        var frameLength: Int
        /// Per channel, `P[k]` of its latest frame (empty until one came).
        var power: [[Double]]
    }

    private let latest = Mutex<Latest?>(nil)

    func receive(_ spectra: FrameSpectra) {
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

    func snapshot() -> Latest? {
        latest.withLock { $0 }
    }
}
