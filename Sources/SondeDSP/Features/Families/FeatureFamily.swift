import SondeCore

/// One family of optional features (docs/features.md section 7): its declaration, its columns,
/// and how it measures a frame from the spectrum the extractor already computed.
///
/// A family is built only when the configuration asks for it, so one that is not asked
/// for costs nothing. Instances belong to one `FeatureExtractor` (one worker) and may keep
/// scratch and per-channel state; they are not thread-safe.
protocol FeatureFamily: AnyObject {
    /// Names, units, options and references, for `--help`, the README and the docs.
    static var declaration: FamilyDeclaration { get }
    /// The family's columns for `configuration`, in order; empty when it is not asked for.
    static func columnNames(for configuration: FeatureConfiguration) -> [String]
    /// Whether the columns come after the `band_power:*` ones (octave bands) or before.
    static var followsBandPowers: Bool { get }

    init(configuration: FeatureConfiguration)

    /// Writes `columnNames(for:).count` values for one frame.
    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>)

    /// Whether a value depends on the same channel's previous frame (spectral flux).
    static var dependsOnPreviousFrame: Bool { get }
    /// Takes `frame` as the previous frame without writing anything.
    func prime(_ frame: FrameSpectrum)
    /// Forgets the previous frame: the next one is the first of its input.
    func reset()
}

extension FeatureFamily {
    static var followsBandPowers: Bool { false }
    static var dependsOnPreviousFrame: Bool { declaration.columns.contains { $0.input == .previousSpectrum } }
    func prime(_ frame: FrameSpectrum) {}
    func reset() {}
}
