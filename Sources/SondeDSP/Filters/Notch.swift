import Foundation

/// A second-order IIR notch, exactly `scipy.signal.iirnotch(frequency, quality, fs=sampleRate)`
/// (Orfanidis' design with -3 dB band edges), as one biquad.
public enum Notch {
    /// Designs the notch.
    /// - Parameters:
    ///   - frequency: the frequency removed, in Hz, 0 < frequency < sampleRate/2.
    ///   - quality: Q = frequency / (-3 dB bandwidth), > 0; higher is narrower.
    ///   - sampleRate: in Hz, > 0.
    /// - Throws: `SondeError` `.invalidArgument`, message starting "notch: ".
    public static func design(frequency: Double, quality: Double, sampleRate: Double) throws -> SecondOrderSections {
        try FilterDesignCheck.inContext("notch") {
            try checkedDesign(frequency: frequency, quality: quality, sampleRate: sampleRate)
        }
    }

    /// The design without context on its errors, for `FilterSpec` to add its own.
    static func checkedDesign(frequency: Double, quality: Double, sampleRate: Double) throws -> SecondOrderSections {
        try FilterDesignCheck.sampleRate(sampleRate)
        try FilterDesignCheck.frequency(frequency, named: "frequency", sampleRate: sampleRate)
        try FilterDesignCheck.quality(quality)
        // scipy's `_design_notch_peak_filter`, operation for operation.
        let w0 = 2 * frequency / sampleRate
        let bandwidth = (w0 / quality) * Double.pi
        let center = w0 * Double.pi
        let beta = tan(bandwidth / 2.0)
        let gain = 1.0 / (1.0 + beta)
        let cosine = cos(center)
        return SecondOrderSections(uncheckedCoefficients: [
            gain * 1.0, gain * (-2.0 * cosine), gain * 1.0,
            1.0, -2.0 * gain * cosine, 2.0 * gain - 1.0,
        ])
    }
}
