public import SondeCore
public import SondeDSP

/// The processing options shared by `process`, `stream`, `bench` and `measure`: framing,
/// filters and what to measure. Everything here is checked before any input is read.
public struct PipelineSettings: Sendable {
    /// N, a power of two from 16 to 1,048,576.
    public var frameLength: Int
    /// H, 1 <= H <= N.
    public var hop: Int
    /// Filter stages applied in order to each channel's continuous stream.
    public var filters: [FilterSpec]
    public var features: [Feature]
    public var bands: [Band]

    /// - Throws: `SondeError(.invalidArgument)` for a window that is not a power of two in
    ///   range or a hop outside 1...window.
    public init(frameLength: Int = 1024, hop: Int? = nil, filters: [FilterSpec] = [], features: [Feature] = Feature.allCases, bands: [Band] = []) throws {
        try FeatureConfiguration.validate(frameLength: frameLength)
        let hop = hop ?? frameLength / 2
        guard hop >= 1, hop <= frameLength else {
            throw SondeError(.invalidArgument, "--hop \(hop): expected 1 <= hop <= window (\(frameLength))")
        }
        self.frameLength = frameLength
        self.hop = hop
        self.filters = filters
        self.features = features
        self.bands = bands
    }

    /// Column names of each record's values (features, then bands).
    public var valueColumns: [String] { features.map(\.rawValue) + bands.map(\.columnName) }

    /// Checks that the filters and bands fit a source at `sampleRate`, so a command can
    /// refuse it before writing any output.
    /// - Throws: `SondeError(.invalidArgument)` naming the stage or band that does not fit.
    public func validate(sampleRate: Double) throws {
        _ = try featureConfiguration(sampleRate: sampleRate)
        for filter in filters { _ = try filter.design(sampleRate: sampleRate) }
    }

    /// The feature configuration for a source at `sampleRate`.
    /// - Throws: `SondeError(.invalidArgument)` for bands or filters that do not fit that rate.
    public func featureConfiguration(sampleRate: Double) throws -> FeatureConfiguration {
        try FeatureConfiguration(frameLength: frameLength, sampleRate: sampleRate, features: features, bands: bands)
    }
}
