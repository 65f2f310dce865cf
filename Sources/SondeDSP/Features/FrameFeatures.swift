import SondeCore

/// Every default feature of one frame, by name; a value a degenerate frame does not set
/// stays at its defined 0.
///
/// The extractor copies the requested features out by their byte offsets in this struct,
/// found once from `keyPath(for:)`: picking a column costs a load per frame, as it did when
/// the values sat in a numbered array, and a new feature needs no renumbering.
struct FrameFeatures {
    var mean = 0.0, rms = 0.0, std = 0.0, peak = 0.0, peakToPeak = 0.0, crestFactor = 0.0
    var skewness = 0.0, kurtosis = 0.0, zeroCrossingRate = 0.0
    var totalPower = 0.0, dominantFrequency = 0.0, dominantAmplitude = 0.0
    var spectralCentroid = 0.0, spectralBandwidth = 0.0, spectralRolloff = 0.0
    var spectralFlatness = 0.0, spectralEntropy = 0.0, thd = 0.0, snrDB = 0.0

    /// Where `feature`'s value is stored (exhaustive: a new `Feature` needs a line here).
    static func keyPath(for feature: Feature) -> KeyPath<FrameFeatures, Double> {
        switch feature {
        case .mean: \.mean
        case .rms: \.rms
        case .std: \.std
        case .peak: \.peak
        case .peakToPeak: \.peakToPeak
        case .crestFactor: \.crestFactor
        case .skewness: \.skewness
        case .kurtosis: \.kurtosis
        case .zeroCrossingRate: \.zeroCrossingRate
        case .totalPower: \.totalPower
        case .dominantFrequency: \.dominantFrequency
        case .dominantAmplitude: \.dominantAmplitude
        case .spectralCentroid: \.spectralCentroid
        case .spectralBandwidth: \.spectralBandwidth
        case .spectralRolloff: \.spectralRolloff
        case .spectralFlatness: \.spectralFlatness
        case .spectralEntropy: \.spectralEntropy
        case .thd: \.thd
        case .snrDB: \.snrDB
        }
    }

    /// The byte offset of `feature`'s value, for `withUnsafeBytes(of:)` (stored properties
    /// always have one).
    static func byteOffset(of feature: Feature) -> Int {
        MemoryLayout<FrameFeatures>.offset(of: keyPath(for: feature)) ?? 0
    }
}
