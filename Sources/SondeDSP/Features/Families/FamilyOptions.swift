public import SondeCore

/// What the optional feature families of docs/features.md section 7 are asked for. The default
/// value asks for nothing.
public struct FamilyOptions: Sendable, Hashable {
    /// Section-7 features asked for by name in `--features` (`spectral_flux`, `level_a`, ...).
    public var names: Set<String> = []
    /// `--mel M`: mel band levels written, 1...256; nil when not asked for.
    public var melBands: Int?
    /// `--mfcc C`: cepstral coefficients, 1...M; nil when not asked for.
    public var mfccCount: Int?
    /// `--velocity-band LO-HI` in Hz, 0 < LO < HI: ISO 20816-1's broad band by default.
    public var velocityBand = Band(low: 10, high: 1000)
    /// `--input-unit`: the samples' acceleration unit for `velocity_rms`; nil: taken as they are
    /// (the velocity in input unit · s).
    public var inputUnit: AccelerationUnit?
    /// `--velocity-unit`: `velocity_rms`'s unit; nil: m/s (input unit · s without `inputUnit`).
    public var velocityUnit: VelocityUnit?
    /// `--reference R`, the levels' 0 dB in the input's unit (2e-5 Pa gives dB SPL), > 0.
    public var reference = 1.0
    /// `--bands octave`, `--bands third-octave`, in docs/features.md's order.
    public var octaveSets: [OctaveBandSet] = []
    /// `--shaft-speed`, for the bearing columns (`bpfo_db` ...); nil when not asked for.
    public var shaftSpeed: ShaftSpeed?
    /// `--bearing`, as multiples of shaft speed, for the bearing columns; nil when not asked for.
    public var bearing: DefectMultiples?

    public static let melBandRange = 1...256
    /// M when only `--mfcc` is given (librosa's default).
    public static let defaultMelBands = 128

    public init() {}

    /// What `velocity_rms` is multiplied by: m/s² per input unit times the velocity unit per
    /// m/s (1 unless `--input-unit g` or `--velocity-unit mm/s`). The velocity is linear in the
    /// samples, so this is the samples scaled before the feature.
    public var velocityScale: Double {
        (inputUnit?.metresPerSecondSquared ?? 1) * (velocityUnit?.perMetrePerSecond ?? 1)
    }

    /// The mel filterbank's M, when mel levels or MFCCs are asked for.
    var melFilterCount: Int? {
        melBands ?? (mfccCount == nil ? nil : Self.defaultMelBands)
    }

    /// Checks everything that does not depend on the sample rate.
    /// - Throws: `SondeError(.invalidArgument)` naming the option and its value.
    public func validate() throws {
        if let m = melBands, !Self.melBandRange.contains(m) {
            throw SondeError(.invalidArgument, "--mel \(m): expected 1 to 256 mel bands")
        }
        if let c = mfccCount {
            let m = melFilterCount ?? Self.defaultMelBands
            guard c >= 1, c <= m else {
                let source = melBands == nil ? "the default 128 mel bands" : "--mel \(m)"
                throw SondeError(.invalidArgument, "--mfcc \(c): expected 1 <= C <= M = \(m) (\(source))")
            }
        }
        let band = velocityBand
        guard band.low > 0, band.low < band.high, band.high.isFinite else {
            throw SondeError(
                .invalidArgument,
                "--velocity-band \(band.low.compactDescription)-\(band.high.compactDescription): expected 0 < LO < HI in Hz (e.g. 10-1000)"
            )
        }
        if !names.contains("velocity_rms") {
            // Only the velocity depends on the unit: an option that changes nothing is refused.
            if let inputUnit {
                throw SondeError(
                    .invalidArgument,
                    "--input-unit \(inputUnit.rawValue) scales velocity_rms only: ask for it with --features velocity_rms"
                )
            }
            if let velocityUnit {
                throw SondeError(
                    .invalidArgument,
                    "--velocity-unit \(velocityUnit.rawValue) is velocity_rms's unit: ask for it with --features velocity_rms"
                )
            }
        }
        try validateBearing()
        guard reference > 0, reference.isFinite else {
            throw SondeError(
                .invalidArgument,
                "--reference \(reference.compactDescription): expected a positive finite number (e.g. 2e-5 for Pa)")
        }
    }
}
