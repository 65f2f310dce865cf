import Foundation
public import SondePipeline

/// A running capture's newest signal as a live screen draws it: per channel the last
/// samples (a waveform) and the latest frame's spectrum in dB, both thinned to a size a
/// page can take several times a second.
public struct LiveSignal: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        public var name: String
        /// The newest samples, oldest first, evenly spaced over `waveformSeconds`; thinned as
        /// `LiveSignal.waveform` says.
        public var waveform: [Double]
        /// The latest frame's `P[k]` in dB (10 log10, floor -200 dB), one value per entry of
        /// `frequencies`; empty before the first frame.
        public var spectrumDB: [Double]
        /// The frequency of the latest frame's strongest bin past DC's lobe (`peak`), in Hz (bin resolution,
        /// from the full spectrum before thinning); nil before the first frame.
        public var peakHz: Double?
    }

    /// Seconds of signal the waveforms span.
    public var waveformSeconds: Double
    /// Hz of each spectrum value (the centre of the bins it stands for).
    public var frequencies: [Double]
    public var channels: [Channel]

    /// Points of a waveform at most, and values of a spectrum at most (N/2 + 1 for the
    /// default 1,024-sample window, so its spectrum goes whole): about one per pixel of a
    /// desktop plot, 10-20 KiB of JSON per update.
    public static let maxPoints = 1000
    public static let maxBins = 513

    /// The signal from a capture's taps.
    public init(
        names: [String], sampleRate: Double, samples: RecentSamples.Snapshot, spectra: LatestSpectra.Latest?,
        maxPoints: Int = Self.maxPoints, maxBins: Int = Self.maxBins
    ) {
        let count = samples.channels.first?.count ?? 0
        waveformSeconds = sampleRate > 0 ? Double(count) / sampleRate : 0
        let binCount = spectra?.power.first(where: { !$0.isEmpty })?.count ?? 0
        let binWidth = spectra?.binWidth ?? 0
        frequencies = Self.groups(count: binCount, limit: maxBins).map { range in
            (Double(range.lowerBound + range.upperBound - 1) / 2) * binWidth
        }
        channels = names.enumerated().map { index, name in
            let power = spectra.flatMap { $0.power.indices.contains(index) ? $0.power[index] : nil } ?? []
            return Channel(
                name: name,
                waveform: samples.channels.indices.contains(index)
                    ? Self.waveform(samples.channels[index], maxPoints: maxPoints) : [],
                spectrumDB: power.count == binCount ? Self.spectrumDB(power, maxBins: maxBins) : [],
                peakHz: Self.peak(power).map { Double($0) * binWidth })
        }
    }

    /// `samples` as they are when there are at most `maxPoints`, else each of `maxPoints / 2`
    /// equal runs as its minimum and maximum in time order: a tone's peaks stay in the
    /// picture, where keeping every n-th sample would alias them away.
    public static func waveform(_ samples: [Double], maxPoints: Int) -> [Double] {
        guard samples.count > maxPoints, maxPoints >= 2 else { return samples }
        var points: [Double] = []
        points.reserveCapacity(maxPoints)
        for range in groups(count: samples.count, limit: maxPoints / 2) {
            var low = range.lowerBound, high = range.lowerBound
            for index in range {
                if samples[index] < samples[low] { low = index }
                if samples[index] > samples[high] { high = index }
            }
            points.append(samples[Swift.min(low, high)])
            points.append(samples[Swift.max(low, high)])
        }
        return points
    }

    /// `power` in dB, each run of bins (`groups`) as its strongest: a narrow peak keeps its height.
    public static func spectrumDB(_ power: [Double], maxBins: Int) -> [Double] {
        groups(count: power.count, limit: maxBins).map { range in
            10 * log10(Swift.max(power[range].max() ?? 0, 1e-20))
        }
    }

    /// The strongest bin past DC's lobe: bin 0 holds the offset, and the window spreads it
    /// into the bins after, falling (a sensor riding on 9.81 m/s² showed a 25 Hz "tone" in
    /// bin 1), so the search starts where that fall ends.
    static func peak(_ power: [Double]) -> Int? {
        guard power.count > 1 else { return nil }
        var start = 1
        while start + 1 < power.count, power[start + 1] < power[start] { start += 1 }
        var best = start
        for k in start..<power.count where power[k] > power[best] { best = k }
        return power[best] > 0 ? best : nil
    }

    /// `count` indices cut into at most `limit` consecutive runs of equal length (the last
    /// may be shorter).
    static func groups(count: Int, limit: Int) -> [Range<Int>] {
        guard count > 0, limit > 0 else { return [] }
        let size = (count + limit - 1) / limit
        return stride(from: 0, to: count, by: size).map { $0..<Swift.min($0 + size, count) }
    }
}
