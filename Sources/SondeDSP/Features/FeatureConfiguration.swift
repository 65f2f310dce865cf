public import SondeCore

/// What to measure on each frame: the window, the sample rate, the features and bands, in
/// output-column order. Validated once, before any sample is processed.
public struct FeatureConfiguration: Sendable, Hashable {
    /// N, a power of two from 16 to 1,048,576.
    public let frameLength: Int
    /// Hz, > 0.
    public let sampleRate: Double
    /// The feature columns, in output order.
    public let features: [Feature]
    /// The `band_power` columns, after the features.
    public let bands: [Band]
    /// The optional families of docs/features.md section 7 (none by default).
    public let families: FamilyOptions

    public static let frameLengthRange = 16...1_048_576

    /// - Throws: `SondeError(.invalidArgument)` for a frame length that is not a power of
    ///   two in range, a non-positive rate, or a band outside `0 <= LO < HI <= fs/2`.
    public init(
        frameLength: Int, sampleRate: Double, features: [Feature] = Feature.allCases, bands: [Band] = [],
        families: FamilyOptions = FamilyOptions()
    ) throws {
        try Self.validate(frameLength: frameLength)
        guard sampleRate > 0, sampleRate.isFinite else {
            throw SondeError(.invalidArgument, "sample rate \(sampleRate) Hz: expected a positive number of Hz")
        }
        for band in bands { try band.validate(sampleRate: sampleRate) }
        try families.validate()
        try families.validateBearing(frameLength: frameLength, sampleRate: sampleRate)
        self.frameLength = frameLength
        self.sampleRate = sampleRate
        self.features = features
        self.bands = bands
        self.families = families
        columnNames =
            features.map(\.rawValue) + FeatureFamilies.columnNames(for: self, followingBandPowers: false)
            + bands.map(\.columnName) + FeatureFamilies.columnNames(for: self, followingBandPowers: true)
    }

    /// Frame-length check on its own, so the CLI can reject `--window` before opening inputs.
    public static func validate(frameLength: Int) throws {
        guard frameLengthRange.contains(frameLength), frameLength & (frameLength - 1) == 0 else {
            throw SondeError(
                .invalidArgument,
                "--window \(frameLength): expected a power of two from 16 to 1048576 (e.g. 256, 1024, 4096)"
            )
        }
    }

    /// Column names of the values `FeatureExtractor` writes, in order: features, the
    /// families' columns, band powers, then octave bands (docs/features.md sections 6 and 7).
    /// Made once here: workers ask for the count per job.
    public private(set) var columnNames: [String] = []

    public var columnCount: Int { columnNames.count }

    /// The settings only: the column names follow from them, and workers hash a
    /// configuration per job.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(frameLength)
        hasher.combine(sampleRate)
        hasher.combine(features)
        hasher.combine(bands)
        hasher.combine(families)
    }

    /// Whether a feature compares a frame with the channel's previous one (spectral flux):
    /// jobs then carry that frame's samples too.
    public var needsPreviousFrame: Bool {
        FeatureFamilies.registered.contains { $0.dependsOnPreviousFrame && !$0.columnNames(for: self).isEmpty }
    }
}
