public import SondeCore
public import SondeDSP

/// The workload of issue 6, in one place: 51.2 kHz, N = 1024, H = 512, `highpass:10:4`,
/// every docs/features.md feature and three band powers.
public enum Workload {
    public static let sampleRate = 51_200.0
    public static let frameLength = 1024
    public static let hop = 512
    public static let filter = "highpass:10:4"
    public static let bands = "0-1000,1000-5000,5000-20000"

    /// All features and the three bands at `frameLength` samples.
    public static func featureConfiguration(frameLength: Int = frameLength, features: [Feature] = Feature.allCases)
        throws -> FeatureConfiguration
    {
        try FeatureConfiguration(
            frameLength: frameLength, sampleRate: sampleRate, features: features, bands: Band.parseList(bands))
    }
}
