public import SondeCore

/// What to measure on each frame: the window, the sample rate, the features and bands, in
/// output-column order. Validated once, before any sample is processed.
public struct FeatureConfiguration: Sendable, Hashable {
    /// N, a power of two from 16 to 1,048,576.
    public var frameLength: Int
    /// Hz, > 0.
    public var sampleRate: Double
    /// The feature columns, in output order.
    public var features: [Feature]
    /// The `band_power` columns, after the features.
    public var bands: [Band]

    public static let frameLengthRange = 16...1_048_576

    /// - Throws: `SondeError(.invalidArgument)` for a frame length that is not a power of
    ///   two in range, a non-positive rate, or a band outside `0 <= LO < HI <= fs/2`.
    public init(frameLength: Int, sampleRate: Double, features: [Feature] = Feature.allCases, bands: [Band] = []) throws {
        try Self.validate(frameLength: frameLength)
        guard sampleRate > 0, sampleRate.isFinite else {
            throw SondeError(.invalidArgument, "sample rate \(sampleRate) Hz: expected a positive number of Hz")
        }
        for band in bands { try band.validate(sampleRate: sampleRate) }
        self.frameLength = frameLength
        self.sampleRate = sampleRate
        self.features = features
        self.bands = bands
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

    /// Column names of the values `FeatureExtractor` writes, in order.
    public var columnNames: [String] { features.map(\.rawValue) + bands.map(\.columnName) }

    public var columnCount: Int { features.count + bands.count }
}
