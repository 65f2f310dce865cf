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
        var welch = PairedSegmentWelch(length: length)
        let scale = 2 / (sampleRate * welch.windowPower)
        // Bins inside (0, fs/2) are doubled in the one-sided density; fs/2 itself is never
        // below `high` for a useful band, and 0 never at or above `low` > 0.
        let weights = (lowBin...highBin).map { bin in
            let omega = 2 * Double.pi * Double(bin) * df
            return scale / (omega * omega)
        }
        var sum = 0.0
        let segments = welch.accumulate(samples, bins: lowBin...highBin) { bin, power in
            sum += power * weights[bin - lowBin]
        }
        return (sum * df / Double(segments)).squareRoot()
    }
}
