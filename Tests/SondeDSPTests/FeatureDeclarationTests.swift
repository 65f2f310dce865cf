import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The columns' declarations: `docs/features.md` is generated from them, every column
/// sonde can write has exactly one, and the extractor's storage follows `Feature`.
@Suite struct FeatureDeclarationTests {
    @Test func docsPageMatchesTheDeclarations() throws {
        let url = Fixtures.packageRoot.appendingPathComponent("docs/features.md")
        let generated = FeatureReferencePage.markdown()
        if ProcessInfo.processInfo.environment["SONDE_RECORD"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(
            committed == generated,
            "docs/features.md is stale: SONDE_RECORD=1 swift test --filter FeatureDeclarationTests")
    }

    /// A configuration asking for everything: each of its columns matches exactly one
    /// declaration, and the catalog lists them in the same order.
    @Test func everyColumnHasOneDeclarationInColumnOrder() throws {
        var families = FamilyOptions()
        families.names = Set(FeatureFamilies.namedFeatures)
        families.melBands = 3
        families.mfccCount = 2
        families.octaveSets = [.octave, .thirdOctave]
        // Defect lines of 3-6 kHz: measurable in 1024-sample frames at 48 kHz.
        families.shaftSpeed = ShaftSpeed(hertz: 500)
        families.bearing = DefectMultiples(bpfo: 10, bpfi: 12, bsf: 8, ftf: 6)
        let configuration = try FeatureConfiguration(
            frameLength: 1024, sampleRate: 48_000, bands: [Band(low: 0, high: 100), Band(low: 12.5, high: 40)],
            families: families)
        #expect(configuration.columnCount == Feature.allCases.count + 3 + 2 + 6 + 4 + 2 + 8 + 26)
        let columns = ["file", "time", "channel", "frame", "start"] + configuration.columnNames
        let declarations = FeatureCatalog.declarations
        var positions: [Int] = []
        for column in columns {
            let matching = declarations.indices.filter { declarations[$0].matches(column: column) }
            #expect(matching.count == 1, "\(column) matches \(matching.count) declarations")
            positions += matching.prefix(1)
        }
        #expect(positions == positions.sorted(), "the catalog's order is not the columns' order")
        #expect(Set(positions).count == declarations.count, "a declaration matches none of the columns")
    }

    @Test func namesFollowTheDeclarations() {
        #expect(Feature.allCases.map(\.declaration.name) == Feature.allCases.map(\.rawValue))
        #expect(Feature.allCases.allSatisfy { $0.declaration.request == .byDefault })
        #expect(FeatureFamilies.namedFeatures == NamedOrder.expected)
        let names = FeatureCatalog.declarations.map(\.name)
        #expect(Set(names).count == names.count, "a column is declared twice")
    }

    /// The moments-only and spectrum-only work is skipped when no requested feature needs
    /// it, so the declared inputs must be right: each feature alone still gives its value
    /// as it does among all the others.
    @Test func declaredInputsAreEnough() throws {
        let n = 256, fs = 1000.0
        let frame = (0..<n).map { i in
            0.3 + sin(2 * Double.pi * 62.5 * Double(i) / fs) + 0.2 * sin(2 * Double.pi * 125 * Double(i) / fs)
        }
        let all = FeatureExtractor(configuration: try FeatureConfiguration(frameLength: n, sampleRate: fs))
        var everything = [Double](repeating: .nan, count: Feature.allCases.count)
        frame.withUnsafeBufferPointer { x in everything.withUnsafeMutableBufferPointer { all.extract(x, into: $0) } }
        for (index, feature) in Feature.allCases.enumerated() {
            let alone = FeatureExtractor(
                configuration: try FeatureConfiguration(frameLength: n, sampleRate: fs, features: [feature]))
            var value = [Double.nan]
            frame.withUnsafeBufferPointer { x in value.withUnsafeMutableBufferPointer { alone.extract(x, into: $0) } }
            #expect(
                value[0] == everything[index], "\(feature.rawValue) alone: \(value[0]), among all: \(everything[index])"
            )
            #expect(everything[index] != 0, "\(feature.rawValue) is 0 on a frame where it is not")
        }
    }

    /// `FrameFeatures` holds one Double per feature, each at its own offset.
    @Test func frameStorageHasOneSlotPerFeature() {
        let offsets = Feature.allCases.map(FrameFeatures.byteOffset(of:))
        #expect(Set(offsets).count == Feature.allCases.count)
        #expect(MemoryLayout<FrameFeatures>.size == Feature.allCases.count * MemoryLayout<Double>.stride)
    }
}

/// docs/features.md section 7's order of the single-valued features.
private enum NamedOrder {
    static let expected = [
        "spectral_flux", "velocity_rms", "envelope_rms", "envelope_frequency", "level_a", "level_c", "bpfo_db",
        "bpfi_db", "bsf_db", "ftf_db",
    ]
}
