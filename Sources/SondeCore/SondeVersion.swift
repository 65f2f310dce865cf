/// Which sonde made an output: printed by `sonde --version` and recorded wherever outputs
/// carry their settings (dataset manifests, Parquet metadata, saved measurements).
public enum SondeVersion {
    /// The package version, raised with every release.
    public static let number = "0.8.0"
}
