import SondeCore
import SondeDSP

/// The names `--features` accepts, for the shell completions `sonde --generate-completion-script`
/// writes; taken from the declarations so a new feature completes without a second list.
public enum FeatureCompletion {
    public static var names: [String] {
        [FeatureFamilies.defaultSetName] + Feature.allCases.map(\.rawValue) + FeatureFamilies.namedFeatures
    }
}
