import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The families' declarations: `docs/features.md` is generated from them, and every
/// column a family writes is declared.
@Suite struct FamilyDeclarationTests {
    @Test func docsPageMatchesTheDeclarations() throws {
        let url = Fixtures.packageRoot.appendingPathComponent("docs/features.md")
        let generated = FeatureFamilies.referenceMarkdown()
        if ProcessInfo.processInfo.environment["SONDE_RECORD"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == generated, "docs/features.md is stale: SONDE_RECORD=1 swift test --filter FamilyDeclarationTests")
    }

    /// Each column of a configuration asking for everything is covered by a declared name
    /// or pattern (`mel_1 .. mel_M` declares `mel_`).
    @Test func everyColumnIsDeclared() throws {
        var families = FamilyOptions()
        families.names = Set(FeatureFamilies.namedFeatures)
        families.melBands = 3
        families.mfccCount = 2
        families.octaveSets = [.octave, .thirdOctave]
        let configuration = try FeatureConfiguration(frameLength: 1024, sampleRate: 48_000, features: [.rms], families: families)
        let declared = FeatureFamilies.declarations.flatMap(\.columns).map(\.name)
        let familyColumns = configuration.columnNames.dropFirst()
        #expect(familyColumns.count == 3 + 2 + 6 + 8 + 26)
        for column in familyColumns {
            let prefix = String(column.prefix { $0 != ":" && !$0.isNumber })
            #expect(declared.contains { $0.hasPrefix(prefix) || $0.contains(prefix) }, "\(column) is not declared")
        }
        #expect(FeatureFamilies.namedFeatures == NamedOrder.expected)
    }
}

/// FEATURES.md section 7's order of the single-valued features.
private enum NamedOrder {
    static let expected = ["spectral_flux", "velocity_rms", "envelope_rms", "envelope_frequency", "level_a", "level_c"]
}
