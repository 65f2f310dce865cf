/// Which sonde made an output: printed by `sonde --version` and recorded wherever outputs
/// carry their settings (dataset manifests, Parquet metadata, saved measurements).
public enum SondeVersion {
    /// The package version, raised with every release.
    public static let number = "0.8.0"

    /// The version with the build's identity, `0.8.0 (commit 400197c03212, avx2 build)`:
    /// outputs record it as `sonde.version` (Parquet footers, saved measurements).
    public static var full: String { "\(number) (commit \(BuildTarget.commit), \(BuildTarget.name) build)" }

    /// `sonde` and `full`: what `sonde --version` prints and what a report page says made it.
    public static var named: String { "sonde \(full)" }
}
