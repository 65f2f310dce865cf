public import SondeCore
public import SondeDSP
import Synchronization

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
    /// The optional families of FEATURES.md section 7.
    public var families: FamilyOptions

    /// - Throws: `SondeError(.invalidArgument)` for a window that is not a power of two in
    ///   range, a hop outside 1...window, or family options out of range.
    public init(
        frameLength: Int = 1024, hop: Int? = nil, filters: [FilterSpec] = [], features: [Feature] = Feature.allCases,
        bands: [Band] = [],
        families: FamilyOptions = FamilyOptions()
    ) throws {
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
        try families.validate()
        self.families = families
    }

    /// Column names of each record's values for a source at `sampleRate` (which octave
    /// bands fit depends on it).
    /// - Throws: `SondeError(.invalidArgument)` for bands or filters that do not fit that rate.
    public func valueColumns(sampleRate: Double) throws -> [String] {
        try featureConfiguration(sampleRate: sampleRate).columnNames
    }

    /// The columns shared by inputs at these rates (one output has one header).
    /// - Throws: `SondeError(.invalidArgument)` when the rates give different octave bands.
    public func valueColumns(sampleRates: [Double]) throws -> [String] {
        let columns = try sampleRates.map { try valueColumns(sampleRate: $0) }
        guard let first = columns.first else { return [] }
        if let other = zip(sampleRates, columns).first(where: { $0.1 != first }) {
            throw SondeError(
                .invalidArgument,
                "--bands: inputs at \(sampleRates[0].compactDescription) Hz and \(other.0.compactDescription) Hz get different octave bands; process them separately"
            )
        }
        return first
    }

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
        if let last = lastConfiguration.value, last.sampleRate == sampleRate, last.frameLength == frameLength,
            last.features == features, last.bands == bands, last.families == families
        {
            return last
        }
        let made = try FeatureConfiguration(
            frameLength: frameLength, sampleRate: sampleRate, features: features, bands: bands, families: families)
        lastConfiguration.value = made
        return made
    }

    /// The configuration made last, kept for the next input: a dataset's inputs share one
    /// rate, and making it three times per input (every family's column names) was a tenth
    /// of a run over 20,000 short clips (perf). Checked against the settings, which may
    /// have changed since (they are `var`s).
    private let lastConfiguration = LastConfiguration()
}

/// `PipelineSettings`' last configuration, shared by its copies and their threads.
private final class LastConfiguration: Sendable {
    private let stored = Mutex<FeatureConfiguration?>(nil)

    var value: FeatureConfiguration? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
