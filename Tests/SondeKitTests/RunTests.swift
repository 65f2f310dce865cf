import Foundation
import SondeBatch
import SondeCore
import SondeIO
import SondeKit
import SondePipeline
import Testing
import _SondeTestSupport

/// `sonde process`'s two use-cases in-process: one output for every input, and one per
/// input with a manifest, a lock and an outcome (what the CLI suite tested only by exit
/// status).
@Suite struct RunTests {
    /// A folder with `count` CSV clips of a 50 Hz tone, 2000 samples each.
    static func clips(_ count: Int, in folder: URL) throws -> [String] {
        try (0..<count).map { index in
            let path = folder.appendingPathComponent("clip\(index).csv").path
            let rows = (0..<2000).map { String(sin(2 * Double.pi * 50 * Double($0) / 1000) * Double(index + 1)) }
            try (["x"] + rows).joined(separator: "\n").appending("\n").write(
                toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    static func settings() throws -> PipelineSettings {
        try PipelineSettings(frameLength: 256, hop: 128, features: [.rms, .peak])
    }

    static func options() -> PipelineGraph.Options { PipelineGraph.Options(jobs: 2) }

    @Test func aSingleRunWritesEveryInputIntoOneFile() async throws {
        let folder = try TestScratch.folder("single-run")
        let paths = try Self.clips(2, in: folder)
        let output = folder.appendingPathComponent("all.ndjson").path
        var run = SingleRun(
            inputs: try SampleInputs(arguments: paths, sampleType: nil), settings: try Self.settings(),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), outputPath: output, format: nil,
            graph: Self.options())
        run.quiet = true
        #expect(run.outputFormat == .ndjson)
        let outcome = try await run.run { _ in ExportDefaults.parquet() }
        #expect(outcome == .completed)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        // 2000 samples, 256/128: 14 windows per clip.
        #expect(lines.count == 28)
        #expect(lines.first?.contains(#""file":"#) == true)
    }

    @Test func aSingleRunRefusesToWriteOverItsInput() async throws {
        let folder = try TestScratch.folder("single-run-input")
        let paths = try Self.clips(1, in: folder)
        let run = SingleRun(
            inputs: try SampleInputs(arguments: paths, sampleType: nil), settings: try Self.settings(),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), outputPath: paths[0], format: .csv,
            graph: Self.options())
        await #expect(throws: SondeError.self) { _ = try await run.run { _ in ExportDefaults.parquet() } }
        #expect(try String(contentsOfFile: paths[0], encoding: .utf8).hasPrefix("x\n"))
    }

    @Test func aDatasetRunWritesOneOutputEachAndSkipsThemOnARerun() async throws {
        let folder = try TestScratch.folder("dataset-run")
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        _ = try Self.clips(3, in: inputs)
        let out = folder.appendingPathComponent("out").path
        var run = DatasetRun(
            inputs: try SampleInputs(arguments: [inputs.path], sampleType: nil), settings: try Self.settings(),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), filters: [], outputDir: out, format: .csv,
            parquet: ExportDefaults.parquet(), graph: Self.options())
        run.quiet = true
        #expect(try await run.run() == .completed)
        // The lock file (hidden) stays: it is the folder's, taken by each run.
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted()
        #expect(written == ["clip0.csv.csv", "clip1.csv.csv", "clip2.csv.csv", "manifest.jsonl"], "\(written)")
        let manifest = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
        #expect(manifest.contains("clip2"))
        // The rerun finds every output intact.
        #expect(try await run.run() == .completed)
        #expect(try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8).count >= manifest.count)
    }

    @Test func aFailedInputIsAnOutcomeWithKeepGoing() async throws {
        let folder = try TestScratch.folder("dataset-fail")
        var paths = try Self.clips(1, in: folder)
        let bad = folder.appendingPathComponent("bad.csv").path
        try "x\n1\nnot-a-number\n".write(toFile: bad, atomically: true, encoding: .utf8)
        paths.append(bad)
        var run = DatasetRun(
            inputs: try SampleInputs(arguments: paths, sampleType: nil), settings: try Self.settings(),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), filters: [],
            outputDir: folder.appendingPathComponent("out").path, format: .csv, parquet: ExportDefaults.parquet(),
            graph: Self.options())
        (run.quiet, run.keepGoing) = (true, true)
        let outcome = try await run.run()
        #expect(outcome == .inputsFailed(failed: 1, todo: 2, manifest: "manifest.jsonl"))
        #expect(outcome.exitStatus == 2)
        run.keepGoing = false
        run.overwrite = true
        await #expect(throws: (any Error).self) { _ = try await run.run() }
    }

    @Test func aDamagedManifestIsAnOutcome() async throws {
        let folder = try TestScratch.folder("dataset-damaged")
        let paths = try Self.clips(1, in: folder)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data([0xFF, 0xFE, 0x00, 0x7B]).write(to: out.appendingPathComponent("manifest.jsonl"))
        var run = DatasetRun(
            inputs: try SampleInputs(arguments: paths, sampleType: nil), settings: try Self.settings(),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), filters: [], outputDir: out.path, format: .csv,
            parquet: ExportDefaults.parquet(), graph: Self.options())
        run.quiet = true
        let outcome = try await run.run()
        guard case .damagedManifest(let text) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(text.contains("manifest"))
        #expect(outcome.exitStatus == 2)
    }
}
