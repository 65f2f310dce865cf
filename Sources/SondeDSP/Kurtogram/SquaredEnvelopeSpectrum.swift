import Foundation

/// The Welch-averaged spectrum of a band's squared envelope, where bearing defects show as
/// lines at their fault frequency and its harmonics.
///
/// e = |c|² - mean |c|² of the band signal c, then exactly `scipy.signal.welch(e, fs,
/// window='hann', nperseg=P, noverlap=P/2, nfft=P, detrend='constant', return_onesided=True,
/// scaling='density', average='mean')`: periodic Hann window, segments starting every P/2
/// samples while they fit, each segment's mean removed, |FFT|² / (fs · Σw²), doubled except at
/// 0 and fs/2, averaged over segments.
public struct SquaredEnvelopeSpectrum: Sendable, Equatable {
    /// Sample rate of the band signal, Hz.
    public let sampleRate: Double
    /// Welch segment length P (a power of two).
    public let segmentLength: Int
    /// Segments averaged.
    public let segmentCount: Int
    /// Power spectral density of the squared envelope, P/2 + 1 bins; bin i is at
    /// i · `resolution` Hz. Unit: (signal unit)⁴/Hz.
    public let density: [Double]

    /// Bin spacing, Hz: sampleRate / segmentLength.
    public var resolution: Double { sampleRate / Double(segmentLength) }

    /// Default segment length for `count` samples: the largest power of two ≤ count/2 (at
    /// least three half-overlapping segments), and at least 8.
    public static func defaultSegmentLength(count: Int) -> Int {
        var length = 8
        while 2 * length <= count / 2 {
            length *= 2
        }
        return length
    }

    /// - Parameters:
    ///   - band: the band signal (`FastKurtogram.bandSignal`).
    ///   - segmentLength: P, a power of two in 8...band.samples.count; nil: `defaultSegmentLength`.
    /// - Throws: `KurtogramError.invalidSegmentLength`.
    public init(_ band: KurtogramBandSignal, segmentLength: Int? = nil) throws {
        let count = band.samples.count
        let length = segmentLength ?? Self.defaultSegmentLength(count: count)
        guard length >= 8, length <= count, length & (length - 1) == 0 else {
            throw KurtogramError.invalidSegmentLength(length, count: count)
        }
        var envelope = band.samples.map { $0.x * $0.x + $0.y * $0.y }
        let mean = envelope.reduce(0, +) / Double(count)
        for index in envelope.indices {
            envelope[index] -= mean
        }
        var welch = PairedSegmentWelch(length: length)
        let weights = Self.densityWeights(welch, sampleRate: band.sampleRate)
        var density = [Double](repeating: 0, count: length / 2 + 1)
        let segments = envelope.withUnsafeBufferPointer { envelope in
            weights.withUnsafeBufferPointer { weights in
                density.withUnsafeMutableBufferPointer { density in
                    Self.accumulateDensity(envelope, welch: &welch, weights: weights, into: density)
                }
            }
        }
        self.sampleRate = band.sampleRate
        self.segmentLength = length
        self.segmentCount = segments
        self.density = density
    }

    /// What each bin's segment power is multiplied by: scipy's density scale 1 / (fs · Σw²),
    /// doubled except at 0 and fs/2 (one-sided), P/2 + 1 values.
    static func densityWeights(_ welch: PairedSegmentWelch, sampleRate: Double) -> [Double] {
        let scale = 1 / (sampleRate * welch.windowPower)
        let half = welch.length / 2
        return (0...half).map { bin in (bin == 0 || bin == half ? 1.0 : 2.0) * scale }
    }

    /// The Welch density of `envelope` (the squared envelope with its mean removed, at least P
    /// samples) into `density` (P/2 + 1 bins, overwritten): Σ over segments of power × weight,
    /// over the segment count. No allocation: per-frame callers keep `welch` and the buffers.
    /// - Returns: the number of segments.
    static func accumulateDensity(
        _ envelope: UnsafeBufferPointer<Double>, welch: inout PairedSegmentWelch,
        weights: UnsafeBufferPointer<Double>, into density: UnsafeMutableBufferPointer<Double>
    ) -> Int {
        density.update(repeating: 0)
        let segments = welch.accumulate(envelope, bins: 0...(welch.length / 2)) { bin, power in
            density[bin] += power * weights[bin]
        }
        for bin in density.indices {
            density[bin] /= Double(segments)
        }
        return segments
    }

    /// The largest bin whose frequency lies in `range` (Hz), the first on ties; nil if none does.
    public func peak(in range: ClosedRange<Double>) -> (frequency: Double, density: Double)? {
        var best: (frequency: Double, density: Double)?
        for (bin, value) in density.enumerated() {
            let frequency = Double(bin) * resolution
            guard range.contains(frequency) else { continue }
            if best == nil || value > (best?.density ?? 0) {
                best = (frequency, value)
            }
        }
        return best
    }
}
