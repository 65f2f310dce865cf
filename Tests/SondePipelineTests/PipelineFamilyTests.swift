import Foundation
import SondeCore
import SondeDSP
import Testing

@testable import SondePipeline

/// Every family of docs/features.md section 7 through the graph: the same bits as the
/// sequential path (one extractor per channel, frames in order, flux from the frame it just
/// measured) for any job size, worker count and ring size, and flux restarting at each input.
@Suite struct PipelineFamilyTests {
    static func settings() throws -> PipelineSettings {
        var families = FamilyOptions()
        families.names = Set(FeatureFamilies.namedFeatures)
        families.melBands = 40
        families.mfccCount = 13
        families.octaveSets = [.octave, .thirdOctave]
        // Defect lines of 2-3.3 kHz: measurable in 256-sample frames at 8 kHz.
        families.shaftSpeed = ShaftSpeed(hertz: 1000)
        families.bearing = DefectMultiples(bpfo: 2, bpfi: 2.5, bsf: 3, ftf: 3.3)
        return try PipelineSettings(
            frameLength: 256, hop: 100, filters: [try FilterSpec.parse("highpass:20:2")],
            bands: [Band(low: 0, high: 500)],
            families: families)
    }

    /// A saved measurement's settings say which speed and bearing its bearing columns used.
    @Test func settingsNameTheSpeedAndTheBearing() throws {
        let text = try Self.settings().json(rate: 8000, version: "test").text
        #expect(text.contains("\"bearing\":{\"bpfo\":2.0,\"bpfi\":2.5,\"bsf\":3.0,\"ftf\":3.3}"), "\(text)")
        #expect(text.contains("\"shaft_speed_hz\":1000.0"), "\(text)")
        #expect(text.contains("\"bpfo_db\""), "\(text)")
    }

    private func sequentialRecords(sources: [(String, SyntheticSource)]) throws -> [String] {
        let collector = BatchCollector()
        for (name, source) in sources {
            let processor = try SourceProcessor(
                format: source.format, settings: try Self.settings(), fileName: name, maximumBlock: 4096)
            _ = try BatchRun.run(source: source, processor: processor) { collector.append($0) }
        }
        return collector.records
    }

    @Test(arguments: [(1, 1, 64), (2, 7, 4096), (3, 128, 1 << 20), (2, 1, 1 << 16)])
    func graphMatchesTheSequentialPath(jobs: Int, framesPerJob: Int, ringCapacity: Int) async throws {
        let make = {
            [("a", SyntheticSource(frames: 20_000, channels: 2)), ("b", SyntheticSource(frames: 9_000, channels: 3))]
        }
        let expected = try sequentialRecords(sources: make())
        let collector = BatchCollector()
        let graph = PipelineGraph(
            settings: try Self.settings(),
            options: .init(jobs: jobs, ringCapacity: ringCapacity, framesPerJob: framesPerJob))
        _ = try await graph.run(inputs: make().map { PipelineGraph.Input(name: $0.0, source: $0.1) }) {
            collector.append($0)
        }
        let records = collector.records
        #expect(records.count == expected.count)
        // The first record that differs, not both lists (each record is 100+ values).
        let firstDifference = records.indices.first { $0 < expected.count && records[$0] != expected[$0] }
        #expect(firstDifference == nil)
    }

    /// Flux is exactly 0 at frame 0 of every input, and not 0 after it.
    @Test func fluxRestartsAtEachInput() async throws {
        let settings = try Self.settings()
        let configuration = try settings.featureConfiguration(sampleRate: 8000)
        let column = try #require(configuration.columnNames.firstIndex(of: "spectral_flux"))
        let collector = BatchCollector()
        let graph = PipelineGraph(settings: settings, options: .init(jobs: 2, framesPerJob: 5))
        let sources = [
            ("a", SyntheticSource(frames: 3_000, channels: 1)), ("b", SyntheticSource(frames: 3_000, channels: 1)),
        ]
        _ = try await graph.run(inputs: sources.map { PipelineGraph.Input(name: $0.0, source: $0.1) }) {
            collector.append($0)
        }
        let batches = collector.batches.withLock { $0 }
        for name in ["a", "b"] {
            let values = batches.filter { $0.fileName == name }.sorted { $0.firstFrame < $1.firstFrame }.flatMap {
                batch in
                (0..<batch.recordCount).map { batch.values[$0 * batch.columnCount + column] }
            }
            let first = values.first
            #expect(values.count == 28)
            #expect(first == 0)
            let later = values.dropFirst().allSatisfy { $0 > 0 }
            #expect(later)
        }
    }
}
