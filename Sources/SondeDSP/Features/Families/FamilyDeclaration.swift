public import SondeCore

/// What a family says about itself: its columns' declarations and its options, from
/// which `--help`, `docs/features.md` and the reference tests' tolerances are written.
public struct FamilyDeclaration: Sendable {
    /// A command-line option of the family.
    public struct Option: Sendable {
        public var flag: String
        public var valueName: String
        public var help: String
    }

    public var name: String
    public var summary: String
    public var columns: [FeatureDeclaration]
    public var options: [Option]

    /// Columns asked for by name in `--features`.
    public var namedFeatures: [String] { columns.filter { $0.request == .byName }.map(\.name) }
}
