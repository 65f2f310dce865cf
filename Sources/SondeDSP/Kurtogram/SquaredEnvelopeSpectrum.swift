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
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
        let scale = 1 / (band.sampleRate * window.reduce(0) { $0 + $1 * $1 })
        let step = length / 2
        let segments = (count - length) / step + 1
        let fft = RadixTwoFFT(length: length)
        var buffer = [SIMD2<Double>](repeating: .zero, count: length)
        var density = [Double](repeating: 0, count: length / 2 + 1)
        // Two segments per transform (the envelope is real): one as the real part, one as the
        // imaginary; their powers add up to (|Z[k]|² + |Z[P-k]|²)/2 bin by bin, so half the
        // transforms. An odd last segment goes alone.
        for pair in stride(from: 0, to: segments, by: 2) {
            let a = pair * step
            let b = pair + 1 < segments ? a + step : -1
            var sumA = 0.0
            var sumB = 0.0
            for i in 0..<length {
                sumA += envelope[a + i]
            }
            if b >= 0 {
                for i in 0..<length {
                    sumB += envelope[b + i]
                }
            }
            let meanA = sumA / Double(length)
            let meanB = sumB / Double(length)
            for i in 0..<length {
                let imaginary = b >= 0 ? (envelope[b + i] - meanB) * window[i] : 0
                buffer[i] = SIMD2((envelope[a + i] - meanA) * window[i], imaginary)
            }
            fft.transform(&buffer)
            for bin in density.indices {
                let x = buffer[bin]
                let y = buffer[(length - bin) % length]
                let power =
                    b >= 0 ? (x.x * x.x + x.y * x.y + y.x * y.x + y.y * y.y) / 2 : x.x * x.x + x.y * x.y
                let onesided = bin == 0 || bin == length / 2 ? 1.0 : 2.0
                density[bin] += onesided * power * scale
            }
        }
        for bin in density.indices {
            density[bin] /= Double(segments)
        }
        self.sampleRate = band.sampleRate
        self.segmentLength = length
        self.segmentCount = segments
        self.density = density
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
