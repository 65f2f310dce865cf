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
    /// `--reference R`, the levels' 0 dB in the input's unit (2e-5 Pa gives dB SPL), > 0.
    public var reference = 1.0
    /// `--bands octave`, `--bands third-octave`, in docs/features.md's order.
    public var octaveSets: [OctaveBandSet] = []

    public static let melBandRange = 1...256
    /// M when only `--mfcc` is given (librosa's default).
    public static let defaultMelBands = 128

    public init() {}

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
        guard reference > 0, reference.isFinite else {
            throw SondeError(
                .invalidArgument,
                "--reference \(reference.compactDescription): expected a positive finite number (e.g. 2e-5 for Pa)")
        }
    }
}
