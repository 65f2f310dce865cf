import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The per-frame bearing columns (`bpfo_db`, ...; docs/features.md section 7) against the numpy
/// reference (Tests/Fixtures/kurtogram/generate_frame_defect_levels.py), and the refusal of a
/// column that no frame of that length could measure.
@Suite("Frame defect levels")
struct FrameDefectLevelTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            let signal: String
            let window: Int
            let hop: Int
            let frames: [[String: Double?]]
        }
        let sampleRate: Double
        let shaftHz: Double
        let multiples: [String: Double]
        let cases: [Case]
    }

    static func reference() throws -> Reference {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Reference.self, from: Fixtures.data("kurtogram/frame_defect_levels.json"))
    }

    static func samples(_ file: String) throws -> [Double] {
        let bytes = try Fixtures.data("kurtogram/" + file)
        return bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 8)).map {
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))
            }
        }
    }

    static func families(_ names: [String], reference: Reference) throws -> FamilyOptions {
        var families = FamilyOptions()
        families.names = Set(names)
        let m = reference.multiples
        families.shaftSpeed = ShaftSpeed(hertz: reference.shaftHz)
        families.bearing = DefectMultiples(
            bpfo: try #require(m["bpfo"]), bpfi: try #require(m["bpfi"]), bsf: try #require(m["bsf"]),
            ftf: try #require(m["ftf"]))
        return families
    }

    static let caseIndices = 0..<6

    /// Every measurable column of every frame within the contract's tolerance of numpy (the
    /// level class: 1e-4·|ref| + 1e-6 dB); every column numpy cannot measure is refused.
    @Test(arguments: caseIndices)
    func levelsMatchNumpy(_ index: Int) throws {
        let reference = try Self.reference()
        try #require(reference.cases.count == Self.caseIndices.count)
        let item = reference.cases[index]
        let samples = try Self.samples(item.signal)
        let first = try #require(item.frames.first)
        let measurable = BearingDefect.allCases.map(\.rawValue).filter { (first[$0] ?? nil) != nil }
        let unmeasurable = BearingDefect.allCases.map(\.rawValue).filter { (first[$0] ?? nil) == nil }
        try #require(!measurable.isEmpty && !unmeasurable.isEmpty, "the fixture covers both kinds")
        for name in unmeasurable {
            #expect(throws: SondeError.self, "\(name) at N = \(item.window)") {
                try FeatureConfiguration(
                    frameLength: item.window, sampleRate: reference.sampleRate, features: [],
                    families: try Self.families(["\(name)_db"], reference: reference))
            }
        }
        let configuration = try FeatureConfiguration(
            frameLength: item.window, sampleRate: reference.sampleRate, features: [],
            families: try Self.families(measurable.map { "\($0)_db" }, reference: reference))
        #expect(configuration.columnNames == measurable.map { "\($0)_db" })
        let extractor = FeatureExtractor(configuration: configuration)
        var values = [Double](repeating: .nan, count: configuration.columnCount)
        let tolerance = try #require(ToleranceClass.level.bound)
        for (frame, expected) in item.frames.enumerated() {
            let start = frame * item.hop
            samples.withUnsafeBufferPointer { all in
                values.withUnsafeMutableBufferPointer {
                    extractor.extract(UnsafeBufferPointer(rebasing: all[start..<(start + item.window)]), into: $0)
                }
            }
            for (column, name) in measurable.enumerated() {
                let want = try #require(expected[name] ?? nil, "\(item.signal) frame \(frame) \(name)")
                #expect(
                    abs(values[column] - want) <= tolerance.relative * abs(want) + tolerance.coefficient,
                    "\(item.signal) N=\(item.window) frame \(frame) \(name): \(values[column]) vs numpy \(want)")
            }
        }
    }

    /// A flat frame's envelope is silent: 0, not a level.
    @Test func flatFrameIsZero() throws {
        let reference = try Self.reference()
        let configuration = try FeatureConfiguration(
            frameLength: 16384, sampleRate: reference.sampleRate, features: [],
            families: try Self.families(["bpfo_db", "bpfi_db"], reference: reference))
        let extractor = FeatureExtractor(configuration: configuration)
        var values = [Double](repeating: .nan, count: 2)
        let frame = [Double](repeating: 0.25, count: 16384)
        frame.withUnsafeBufferPointer { frame in
            values.withUnsafeMutableBufferPointer { extractor.extract(frame, into: $0) }
        }
        #expect(values == [0, 0])
    }

    /// The refusals name the column and what to change.
    @Test func refusalsSayWhy() throws {
        let reference = try Self.reference()
        let short = #expect(throws: SondeError.self) {
            try FeatureConfiguration(
                frameLength: 1024, sampleRate: reference.sampleRate, features: [],
                families: try Self.families(["bpfo_db"], reference: reference))
        }
        #expect(short?.message.contains("bpfo_db: not measurable in a frame of 1024 samples") == true)
        #expect(short?.message.contains("--window 16384 or longer measures it") == true)
        let slow = #expect(throws: SondeError.self) {
            try FeatureConfiguration(
                frameLength: 1024, sampleRate: 200, features: [],
                families: try Self.families(["bpfi_db"], reference: reference))
        }
        #expect(slow?.message.contains("above the Nyquist frequency 100 Hz") == true)
        var missing = FamilyOptions()
        missing.names = ["ftf_db"]
        let needs = #expect(throws: SondeError.self) { try missing.validate() }
        #expect(needs?.message.contains("--features ftf_db: needs --shaft-speed") == true)
        // Without a bearing column, --shaft-speed and --bearing are not kept (they serve the
        // report's figure), so the settings stay those of a run without them.
        var plain = FamilyOptions()
        try plain.setBearing(shaftSpeed: "1797rpm", bearing: "6205")
        #expect(plain == FamilyOptions())
        plain.names = ["bpfo_db"]
        #expect(throws: SondeError.self) { try plain.setBearing(shaftSpeed: "fast", bearing: "6205") }
    }
}
