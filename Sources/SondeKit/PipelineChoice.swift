import SondeCore
public import SondeDSP
public import SondePipeline

/// The pipeline a command is asked for, as the options' texts (`--window`, `--filter`,
/// `--features`, `--bands`, the families' and the bearing's options), read into validated
/// `PipelineSettings` here: every command that measures (process, report, stream, bench,
/// measure) reads them the same way, and each problem is one line naming its option.
public struct PipelineChoice: Sendable {
    public var window: Int
    public var hop: Int?
    /// `--filter`, each a spec in order.
    public var filters: [String]
    /// `--bands`: LO-HI,... and octave sets.
    public var bands: String?
    /// `--features`; nil for every feature.
    public var features: String?
    public var mel: Int?
    public var mfcc: Int?
    public var velocityBand: String?
    public var inputUnit: AccelerationUnit?
    public var velocityUnit: VelocityUnit?
    public var reference: Double?
    /// `--shaft-speed` and `--bearing`, for the bearing columns.
    public var shaftSpeed: String?
    public var bearing: String?

    public init(window: Int = 1024, hop: Int? = nil, filters: [String] = []) {
        (self.window, self.hop, self.filters) = (window, hop, filters)
    }

    /// The validated settings.
    /// - Throws: `SondeError(.invalidArgument)` naming the option that cannot be read or is
    ///   out of range.
    public func settings() throws -> PipelineSettings {
        let selection =
            try features.map { try FeatureFamilies.parseFeatures($0) } ?? (features: Feature.allCases, names: [])
        let bandRequest = try bands.map { try Band.parseRequest($0) } ?? (bands: [], octaveSets: [])
        var families = FamilyOptions()
        families.names = selection.names
        families.melBands = mel
        families.mfccCount = mfcc
        if let velocityBand { families.velocityBand = try FeatureFamilies.parseVelocityBand(velocityBand) }
        if let reference { families.reference = reference }
        families.inputUnit = inputUnit
        families.velocityUnit = velocityUnit
        families.octaveSets = bandRequest.octaveSets
        try families.setBearing(shaftSpeed: shaftSpeed, bearing: bearing)
        return try PipelineSettings(
            frameLength: window, hop: hop, filters: try filters.map { try FilterSpec.parse($0) },
            features: selection.features, bands: bandRequest.bands, families: families)
    }
}
