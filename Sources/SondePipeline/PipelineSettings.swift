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
    /// The optional families of docs/features.md section 7.
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
        _ = try filterDesigns(sampleRate: sampleRate)
    }

    /// The feature configuration for a source at `sampleRate`.
    /// - Throws: `SondeError(.invalidArgument)` for bands or filters that do not fit that rate.
    public func featureConfiguration(sampleRate: Double) throws -> FeatureConfiguration {
        let key = ConfigurationKey(
            frameLength: frameLength, sampleRate: sampleRate, features: features, bands: bands, families: families)
        return try lastConfiguration.value(for: key) {
            try FeatureConfiguration(
                frameLength: frameLength, sampleRate: sampleRate, features: features, bands: bands, families: families)
        }
    }

    /// Each filter stage's sections for a source at `sampleRate`, in order.
    /// - Throws: `SondeError(.invalidArgument)` naming the stage that does not fit the rate.
    public func filterDesigns(sampleRate: Double) throws -> [SecondOrderSections] {
        try lastDesigns.value(for: DesignKey(sampleRate: sampleRate, filters: filters)) {
            try filters.map { try $0.design(sampleRate: sampleRate) }
        }
    }

    /// Frames of every piece a filtered channel is cut into, counted from the input's frame
    /// 0 (docs/performance.md, "Filtering one channel in pieces, exactly"). Fixed here, never
    /// by `--jobs`, the ring or the segments, so the records are the same bytes for any of
    /// them; 65,536 (1.3 s at 51.2 kHz) keeps `Φᴸ` to once per design (1 to 40 ms) and the
    /// frames a segment reads again before its start under 6% of a segment.
    public static let filterPieceLength = 65_536

    /// The fewest jobs at which a long filtered file is cut into segments. Cut, every piece is
    /// filtered twice (from zero, then from its start state) and read twice: about 25% more
    /// CPU for a filtered mono or stereo run (release, docs/performance.md), which two cores
    /// cannot win back from a filter thread whose serial share is 0.10, but four can
    /// (Amdahl: 3.1x serial against 3.2x cut). Below it one thread filters the whole input
    /// with its start states derived in spare SIMD lanes, as fast as one uncut filter; the
    /// records are the same bytes either way.
    public static let filteredCutMinimumJobs = 4

    /// The filter stages for a source at `sampleRate` as one cascade cut into pieces of
    /// `filterPieceLength`, with its `Φᴸ`; nil without filters.
    /// - Throws: `SondeError(.invalidArgument)` naming the stage that does not fit the rate.
    public func pieceFilter(sampleRate: Double) throws -> PiecewiseSOSFilter? {
        let designs = try filterDesigns(sampleRate: sampleRate)
        return lastPieceFilter.value(for: DesignKey(sampleRate: sampleRate, filters: filters)) {
            designs.isEmpty ? nil : PiecewiseSOSFilter(stages: designs, pieceLength: Self.filterPieceLength)
        }
    }

    /// What the last input's rate made, kept for the next input: a dataset's inputs share
    /// one rate, and making the configuration three times per input (every family's column
    /// names) was a tenth of a run over 20,000 short clips, the filters' design twice per
    /// input another tenth with a filter (perf). Keyed by the settings they were made
    /// from, which may have changed since (they are `var`s, and copies share these).
    private let lastConfiguration = LastMade<ConfigurationKey, FeatureConfiguration>()
    private let lastDesigns = LastMade<DesignKey, [SecondOrderSections]>()
    /// `Φᴸ` costs 1 to 40 ms a design: once per run, not once per input.
    private let lastPieceFilter = LastMade<DesignKey, PiecewiseSOSFilter?>()
}

/// What a feature configuration is made from.
private struct ConfigurationKey: Equatable, Sendable {
    var frameLength: Int
    var sampleRate: Double
    var features: [Feature]
    var bands: [Band]
    var families: FamilyOptions
}

/// What filter designs are made from.
private struct DesignKey: Equatable, Sendable {
    var sampleRate: Double
    var filters: [FilterSpec]
}

/// The value made last and what it was made from, shared by threads.
private final class LastMade<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let stored = Mutex<(key: Key, value: Value)?>(nil)

    /// The kept value when `key` is the one it was made from, else `make()`'s, kept in
    /// its place. A failure keeps nothing.
    func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        if let kept = stored.withLock({ $0 }), kept.key == key { return kept.value }
        let made = try make()
        stored.withLock { $0 = (key, made) }
        return made
    }
}
