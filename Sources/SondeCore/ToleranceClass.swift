/// How closely a column agrees with its reference (docs/features.md, "Reference checks"):
/// `|got - want| <= relative·|want| + coefficient·scale`, the scale taken from the frame's
/// own record, so the bound follows the signal's units and size.
public enum ToleranceClass: Sendable, CaseIterable {
    /// Names and counts: equal.
    case exact
    /// `time`: to 1e-9 relative.
    case time
    /// Values in the input's unit: 1e-9·A.
    case amplitude
    /// `total_power`, `band_power:*`: 1e-9·total_power.
    case power
    /// Frequencies: 1e-6·fs.
    case frequency
    /// Dimensionless ratios: 1e-9.
    case ratio
    /// `snr_db`: 1e-3 dB.
    case signalToNoise
    /// `mel_*`, `mfcc_*`: 1e-6·(1 + max_j |mel_j|) dB.
    case melLevel
    /// `spectral_flux`: 1e-9·A·N.
    case flux
    /// `velocity_rms`: 1e-9·A / (2π·LO).
    case velocity
    /// Weighted and band levels: 1e-6 dB.
    case level

    /// What a floor's coefficient multiplies, read from the frame's record and settings.
    public enum Scale: Sendable, CaseIterable {
        /// 1: the floor is in the column's own unit.
        case one
        /// A, the frame's `peak` (1 when it is 0).
        case peak
        /// The frame's `total_power` (the floor is 1e-30 when it is 0).
        case totalPower
        /// fs, the sample rate.
        case sampleRate
        /// A·N.
        case peakTimesFrameLength
        /// A / (2π·LO), LO the lower edge of `--velocity-band`.
        case peakOverVelocityBand
        /// 1 + max_j |mel_j| over the frame's mel levels.
        case melLevels

        /// How docs/features.md writes it.
        public var symbol: String {
            switch self {
            case .one: "1"
            case .peak: "A"
            case .totalPower: "total_power"
            case .sampleRate: "fs"
            case .peakTimesFrameLength: "A·N"
            case .peakOverVelocityBand: "A / (2π·LO)"
            case .melLevels: "(1 + max_j |mel_j|)"
            }
        }
    }

    /// The bound: a relative part and a floor of `coefficient·scale`; nil for `exact`.
    public var bound: (relative: Double, coefficient: Double, scale: Scale)? {
        switch self {
        case .exact: nil
        case .time: (1e-9, 1e-12, .one)
        case .amplitude: (1e-4, 1e-9, .peak)
        case .power: (1e-4, 1e-9, .totalPower)
        case .frequency: (1e-4, 1e-6, .sampleRate)
        case .ratio: (1e-4, 1e-9, .one)
        case .signalToNoise: (1e-4, 1e-3, .one)
        case .melLevel: (1e-4, 1e-6, .melLevels)
        case .flux: (1e-4, 1e-9, .peakTimesFrameLength)
        case .velocity: (1e-4, 1e-9, .peakOverVelocityBand)
        case .level: (1e-4, 1e-6, .one)
        }
    }

    /// The bound as docs/features.md writes it, `1e-4·|ref| + 1e-9·A`, for the docs.
    public var text: String {
        guard let bound else { return "exact" }
        let floor = Self.powerOfTen(bound.coefficient) + (bound.scale == .one ? "" : "·\(bound.scale.symbol)")
        return "\(Self.powerOfTen(bound.relative))·|ref| + \(floor)"
    }

    /// `1e-9` for 10⁻⁹ (every coefficient here is a negative power of ten).
    private static func powerOfTen(_ value: Double) -> String {
        var inverse = (1 / value).rounded()
        var exponent = 0
        while inverse >= 10 {
            inverse /= 10
            exponent += 1
        }
        return "1e-\(exponent)"
    }
}
