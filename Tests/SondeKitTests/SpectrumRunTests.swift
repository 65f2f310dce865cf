import Foundation
import SondeCore
import SondeDSP
import SondeIO
import SondeKit
import SondePipeline
import Testing
import _SondeTestSupport

/// `sonde spectrum`'s two use-cases and the one "-o is an input" check of every command
/// that writes a file, in process.
@Suite struct SpectrumRunTests {
    /// A CSV of a 50 Hz tone at 1 kHz, `count` samples.
    static func tone(_ name: String, count: Int = 4000) throws -> String {
        let path = try TestScratch.folder("spectrum-run").appendingPathComponent(name).path
        let rows = (0..<count).map { String(sin(2 * Double.pi * 50 * Double($0) / 1000)) }
        try (["x"] + rows).joined(separator: "\n").appending("\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theOutputMayNotBeAnInput() throws {
        let path = try Self.tone("guard.csv")
        let inputs = try SampleInputs(arguments: [path], sampleType: nil)
        #expect {
            try inputs.refuseOverwriting(path)
        } throws: { error in
            "\(error)".contains("-o \(path) is the input '\(path)': writing it would destroy the input")
        }
        try inputs.refuseOverwriting(nil)
        try inputs.refuseOverwriting(path + ".out")
    }

    @Test func thePowerSpectrumPeaksAtTheTone() async throws {
        let path = try Self.tone("power.csv")
        let output = path + ".csv"
        var run = SpectrumRun(
            inputs: try SampleInputs(arguments: [path], sampleType: nil),
            settings: try PipelineSettings(frameLength: 256, hop: 128, features: [.rms]),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), outputPath: output, format: nil,
            graph: PipelineGraph.Options(jobs: 1))
        run.quiet = true
        #expect(run.outputFormat == .csv)
        #expect(try await run.run() == .completed)
        let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
        let bins = rows.map { $0.split(separator: ",").compactMap { Double($0) } }
        #expect(bins.count == 129)
        let peak = try #require(bins.max { $0[1] < $1[1] })
        #expect(abs(peak[0] - 50) <= 1000.0 / 256, "peak at \(peak[0]) Hz")
    }

    @Test func thePowerSpectrumRefusesToWriteOverItsInput() async throws {
        let path = try Self.tone("power-input.csv")
        let run = SpectrumRun(
            inputs: try SampleInputs(arguments: [path], sampleType: nil),
            settings: try PipelineSettings(frameLength: 256, hop: 128, features: [.rms]),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), outputPath: path, format: .json,
            graph: PipelineGraph.Options(jobs: 1))
        await #expect(throws: SondeError.self) { _ = try await run.run() }
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("x\n"))
    }

    @Test func theEnvelopeSpectrumOfAGivenBandIsOneTable() async throws {
        let path = try Self.tone("envelope.csv", count: 8000)
        let output = path + ".json"
        var run = EnvelopeSpectrumRun(
            inputs: try SampleInputs(arguments: [path], sampleType: nil),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), outputPath: output, format: nil,
            band: try #require(EnvelopeBand(parsing: "20-100", levels: 6)), window: 256, jobs: 1)
        run.quiet = true
        try await run.run()
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.hasPrefix("[") || text.hasPrefix("{"), "\(text.prefix(80))")
        #expect(text.contains("frequency"))
    }

    @Test func theEnvelopeSpectrumRefusesToWriteOverItsInputAndNamesAShortChannel() async throws {
        let path = try Self.tone("envelope-input.csv", count: 300)
        var run = EnvelopeSpectrumRun(
            inputs: try SampleInputs(arguments: [path], sampleType: nil),
            sourceOptions: SampleSourceOptions(sampleRate: 1000), outputPath: path, format: .csv,
            band: .auto(levels: 6), window: 256, jobs: 1)
        await #expect(throws: SondeError.self) { try await run.run() }
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("x\n"))
        run.outputPath = path + ".csv"
        await #expect {
            try await run.run()
        } throws: { error in
            (error as? SondeError) != nil && "\(error)".contains("envelope-input.csv")
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".csv"))
    }
}
