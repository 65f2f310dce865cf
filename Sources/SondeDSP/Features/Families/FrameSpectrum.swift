/// What a family reads of one frame: computed once by `FeatureExtractor` and shared.
struct FrameSpectrum {
    /// x, the unwindowed (filtered) frame, N samples.
    let samples: UnsafePointer<Double>
    /// |X[k]|², K = N/2 + 1 bins.
    let squaredMagnitude: UnsafePointer<Double>
    /// |X[k]|, K bins.
    let magnitude: UnsafePointer<Double>
    /// P[k], the one-sided density PSD, K bins.
    let power: UnsafePointer<Double>
    /// Whether every sample is equal (the spectrum is then the exact DFT).
    let isFlat: Bool
}
