public import SondeCore

/// Every column `sonde process` can write, declared once and listed in column order: the
/// record keys, the default features, the families before the band powers,
/// `band_power:*`, then the families after them. The reference tests look tolerances up
/// here, and `docs/features.md` is generated from `groups`.
public enum FeatureCatalog {
    /// Columns the docs present together, with the options that shape them.
    public struct Group: Sendable {
        public var title: String
        public var summary: String
        public var columns: [FeatureDeclaration]
        public var options: [FamilyDeclaration.Option]
    }

    /// Every group, in column order.
    public static let groups: [Group] = {
        func family(_ type: any FeatureFamily.Type) -> Group {
            let declaration = type.declaration
            return Group(
                title: declaration.name, summary: declaration.summary, columns: declaration.columns,
                options: declaration.options)
        }
        let features = Feature.allCases.map(\.declaration)
        let timeDomain: Set<FeatureDeclaration.Input> = [.samples, .moments]
        return [
            Group(
                title: "record keys", summary: "where each record comes from; every record starts with these",
                columns: FeatureDeclaration.recordKeys, options: []),
            Group(
                title: "time domain", summary: "on the unwindowed frame, in the default set",
                columns: features.filter { timeDomain.contains($0.input) }, options: []),
            Group(
                title: "spectrum", summary: "from the spectrum of the Hann-windowed frame, in the default set",
                columns: features.filter { !timeDomain.contains($0.input) }, options: []),
        ]
            + FeatureFamilies.registered.filter { !$0.followsBandPowers }.map(family)
            + [
                Group(
                    title: "band powers",
                    summary: "the power in bands of your choice, after the features and the families above",
                    columns: [FeatureDeclaration.bandPower], options: [])
            ]
            + FeatureFamilies.registered.filter { $0.followsBandPowers }.map(family)
    }()

    /// Every declaration, in column order.
    public static let declarations: [FeatureDeclaration] = groups.flatMap(\.columns)

    /// The declaration of a column as `sonde process` names it (`rms`, `band_power:0-100`,
    /// `mel_3`), or nil for a name no declaration covers.
    public static func declaration(ofColumn name: String) -> FeatureDeclaration? {
        declarations.first { $0.matches(column: name) }
    }
}
