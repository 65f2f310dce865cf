import Foundation

/// The r.m.s. vibration velocity of a whole recording from its acceleration, the number
/// ISO 20816-3's zones are read from.
public enum RecordingVelocity {
    /// sqrt(Σ Pavg[k] / (2π f[k])² · df) over `low` ≤ f[k] < `high`, Pavg the Welch average
    /// (periodic Hann, segment P = the largest power of two ≤ min(count, sampleRate), hop P/2,
    /// each segment's mean removed, one-sided density): the root mean square over segments of
    /// `velocity_rms` (docs/features.md section 7) with N = P, H = P/2.
    /// - Parameters:
    ///   - samples: acceleration; the result is in its unit × s (m/s² in, m/s out).
    ///   - sampleRate: Hz, > 0.
    ///   - low, high: the band, Hz, 0 < low < high (ISO 20816-1's 10-1000 by default).
    /// - Returns: nil when fewer than 8 samples, or no bin lies in the band.
    public static func rms(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, low: Double = 10, high: Double = 1000
    ) -> Double? {
        var length = 8
        while 2 * length <= min(samples.count, Int(sampleRate)) {
            length *= 2
        }
        guard samples.count >= length, low > 0, low < high else { return nil }
        let df = sampleRate / Double(length)
        let bins = (0...(length / 2)).filter { Double($0) * df >= low && Double($0) * df < high }
        guard let lowBin = bins.first, let highBin = bins.last else { return nil }
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
        let scale = 2 / (sampleRate * window.reduce(0) { $0 + $1 * $1 })
        // Bins inside (0, fs/2) are doubled in the one-sided density; fs/2 itself is never
        // below `high` for a useful band, and 0 never at or above `low` > 0.
        let weights = (lowBin...highBin).map { bin in
            let omega = 2 * Double.pi * Double(bin) * df
            return scale / (omega * omega)
        }
        let fft = RadixTwoFFT(length: length)
        var buffer = [SIMD2<Double>](repeating: .zero, count: length)
        let step = length / 2
        let segments = (samples.count - length) / step + 1
        var sum = 0.0
        // Two segments per transform, one as the real part and one as the imaginary: their
        // powers add up to (|Z[k]|² + |Z[N-k]|²)/2, so half the transforms (0.15 -> 0.08 s of
        // CPU for a minute at 48 kHz). An odd last segment goes alone (imaginary part 0).
        for pair in stride(from: 0, to: segments, by: 2) {
            let a = pair * step
            let b = pair + 1 < segments ? a + step : -1
            var meanA = 0.0
            var meanB = 0.0
            for i in 0..<length {
                meanA += samples[a + i]
            }
            if b >= 0 {
                for i in 0..<length {
                    meanB += samples[b + i]
                }
            }
            meanA /= Double(length)
            meanB /= Double(length)
            for i in 0..<length {
                let imaginary = b >= 0 ? samples[b + i] - meanB : 0
                buffer[i] = SIMD2(samples[a + i] - meanA, imaginary) * window[i]
            }
            fft.transform(&buffer)
            for (offset, weight) in weights.enumerated() {
                let x = buffer[lowBin + offset]
                let y = buffer[length - lowBin - offset]
                let power = b >= 0 ? (x.x * x.x + x.y * x.y + y.x * y.x + y.y * y.y) / 2 : x.x * x.x + x.y * x.y
                sum += power * weight
            }
        }
        return (sum * df / Double(segments)).squareRoot()
    }
}
