/// The sample values and rates sonde measures: inside these, every feature of
/// docs/features.md sections 4-5 is a finite Double for any window, hop and filter.
///
/// Beyond them a frame's power spectrum overflows: |X|² reaches 1e308 for samples near
/// 1e148 at N = 2^20 (1e153 at N = 16), and the PSD divides by the rate. Samples are
/// checked where they are read, so the error names the file, line and column (or the
/// sample index); rates where they are given or measured.
public enum SampleLimits {
    /// Largest sample magnitude read from a CSV cell, a raw f64 sample or a sound file:
    /// 1e100, forty-eight orders of magnitude short of the spectrum's overflow and far
    /// beyond any sensor. (i16, i32 and f32 samples are always within it.)
    public static let largestMagnitude = 1e100

    /// Sample rates in Hz, from `--rate`, a CSV time column or a file header: 1e-9 Hz
    /// (one sample in 31 years) to 1e12 Hz. Outside, `time` and the PSD leave Double's range.
    public static let rates: ClosedRange<Double> = 1e-9...1e12

    /// The range as the messages print it.
    public static let ratesText = "1e-9 to 1e12 Hz"

    /// Whether `value` is a sample sonde measures (false for NaN and infinities).
    @inline(__always)
    public static func contains(_ value: Double) -> Bool {
        value.magnitude <= largestMagnitude
    }
}
