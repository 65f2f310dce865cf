import Foundation
public import SondeCore

/// The registry of optional feature families, in docs/features.md section 7's column order.
/// A new family is one file and one line here.
public enum FeatureFamilies {
    static var registered: [any FeatureFamily.Type] {
        [
            MelFamily.self, FluxFamily.self, VelocityFamily.self, EnvelopeFamily.self, LevelFamily.self,
            BearingFamily.self, OctaveBandsFamily.self,
        ]
    }

    /// Every family's declaration, in column order.
    public static var declarations: [FamilyDeclaration] { registered.map { $0.declaration } }

    /// The features of docs/features.md section 7 asked for by name in `--features`, in
    /// column order.
    public static var namedFeatures: [String] { declarations.flatMap(\.namedFeatures) }

    /// The help text of a family option (`--mel`, `--reference`, ...), from its declaration.
    public static func help(for flag: String) -> String {
        declarations.lazy.flatMap(\.options).first { $0.flag == flag }?.help ?? ""
    }

    /// The `--features` word for the whole default set (every feature of docs/features.md
    /// sections 4-5), so that `default,envelope_frequency` adds an optional feature to it.
    public static let defaultSetName = "default"

    /// Parses `--features`: features of docs/features.md sections 4-5 and 7,
    /// and `default`, in any mix. The list is what the run writes: `envelope_frequency`
    /// alone is that one column (issue 43: a user who asks for one column expects one),
    /// `default` the whole default set in its order.
    /// - Throws: `SondeError(.invalidArgument)` naming an unknown or repeated feature.
    public static func parseFeatures(_ text: String) throws -> (features: [Feature], names: Set<String>) {
        let named = Set(namedFeatures)
        var features: [Feature] = []
        var names: Set<String> = []
        var listed: Set<String> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingASCIISpaces()
            guard listed.insert(name).inserted else {
                throw SondeError(.invalidArgument, "--features: '\(name)' is listed twice")
            }
            if named.contains(name) {
                names.insert(name)
            } else if let feature = Feature(rawValue: name) {
                guard !features.contains(feature) else {
                    throw SondeError(
                        .invalidArgument, "--features: '\(name)' is listed twice ('\(defaultSetName)' includes it)")
                }
                features.append(feature)
            } else if name == defaultSetName {
                if let twice = features.first(where: { Feature.allCases.contains($0) }) {
                    throw SondeError(
                        .invalidArgument,
                        "--features: '\(twice.rawValue)' is listed twice ('\(defaultSetName)' includes it)")
                }
                features += Feature.allCases
            } else {
                let valid = ([defaultSetName] + Feature.allCases.map(\.rawValue) + namedFeatures).joined(
                    separator: ", ")
                throw SondeError(.invalidArgument, "--features: unknown feature '\(name)'; expected some of: \(valid)")
            }
        }
        return (features, names)
    }

    /// Parses `--velocity-band LO-HI` (Hz); the range is checked by `FamilyOptions.validate()`.
    /// - Throws: `SondeError(.invalidArgument)` for text that is not `LO-HI`.
    public static func parseVelocityBand(_ text: String) throws -> Band {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low.isFinite, high.isFinite
        else {
            throw SondeError(.invalidArgument, "--velocity-band '\(text)': expected LO-HI in Hz, e.g. 10-1000")
        }
        return Band(low: low, high: high)
    }

    /// Column names of the families asked for in `configuration`, before or after the band powers.
    static func columnNames(for configuration: FeatureConfiguration, followingBandPowers: Bool) -> [String] {
        registered.filter { $0.followsBandPowers == followingBandPowers }.flatMap { $0.columnNames(for: configuration) }
    }
}

extension Substring {
    func trimmingASCIISpaces() -> String {
        String(
            self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }
}
