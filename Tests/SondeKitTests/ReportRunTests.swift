import Foundation
import SondeCore
import SondeDSP
import SondeIO
import SondeKit
import SondePipeline
import SondeReport
import Testing
import _SondeTestSupport

/// `ReportRun`, `sonde report`'s page, and `ReportDefectLines`, its envelope figures with
/// the defect lines, in process on the rig of `BearingDiagnosisRunTests` (an outer-race
/// fault, a healthy bearing and a tachometer at 1797 rpm): a figure and a table per
/// diagnosed channel, none for the tachometer, the same verdict as `diagnose`.
@Suite struct ReportRunTests {
    static let source = SampleSourceOptions(sampleRate: 25_600, channels: 3, sampleType: .f64le)

    static func run(_ file: URL, to output: String, defects: BearingDiagnosisRun.Shaft?) throws -> ReportRun {
        var run = ReportRun(
            inputs: try SampleInputs(arguments: [file.path], sampleType: nil),
            settings: try PipelineSettings(frameLength: 1024, features: [.rms, .kurtosis]), sourceOptions: source,
            outputPath: output, graph: PipelineGraph.Options(jobs: 2))
        run.quiet = true
        run.settingsRows = [("Command", "sonde report (test)")]
        run.defectLines = try defects.map {
            ReportDefectLines(shaft: $0, bearing: try DefectMultiples(parsing: "6205"))
        }
        return run
    }

    static func envelopes(_ html: String) -> [Substring] {
        Array(html.components(separatedBy: "<figure class=\"envelope\">").dropFirst().map { Substring($0) })
    }

    @Test func aPageWithTheDefectLinesOfAGivenSpeed() async throws {
        let file = try BearingDiagnosisRunTests.record()
        let output = file.path + ".html"
        let figures = try TestScratch.folder("report-run-figures")
        var run = try Self.run(file, to: output, defects: .given(ShaftSpeed(hertz: BearingDiagnosisRunTests.shaftHz)))
        run.figures = figures.path
        #expect(try await run.run() == .completed)
        let files = try FileManager.default.contentsOfDirectory(atPath: figures.path)
        #expect(files.filter { $0.hasSuffix("-envelope.svg") }.count == 3, "\(files)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("<title>sonde report: \(file.path)"))
        #expect(html.contains("sonde report (test)"))
        let envelopes = Self.envelopes(html)
        try #require(envelopes.count == 3, "every channel is diagnosed when the speed is given")
        for label in ["BPFO", "BPFI", "BSF", "FTF", "2×BPFO", "3×BPFI"] {
            #expect(envelopes[0].contains(">\(label)</text>"), "\(label)")
        }
        #expect(html.contains("<p class=\"verdict\">Bearing: outer race fault likely (BPFO "))
        // Under each figure, the levels of the four defects.
        let tables = html.components(separatedBy: "<p class=\"verdict\">").dropFirst()
        #expect(tables.count == 3)
        for name in ["BPFO", "BPFI", "BSF", "FTF"] {
            #expect(tables.first?.contains("<tr><td>\(name)</td>") == true, "\(name)")
        }
    }

    @Test func theTachometerChannelGetsNoFigure() async throws {
        let file = try BearingDiagnosisRunTests.record()
        let output = file.path + "-tacho.html"
        let run = try Self.run(file, to: output, defects: .tachometer(channel: "2", pulsesPerRevolution: 1))
        #expect(try await run.run() == .completed)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        let envelopes = Self.envelopes(html)
        #expect(envelopes.count == 2, "the tachometer channel has no envelope figure")
        #expect(envelopes.first?.contains("(shaft 29.95 Hz)") == true)
    }

    @Test func noDefectLinesWithoutABearing() async throws {
        let file = try BearingDiagnosisRunTests.record()
        let output = file.path + "-plain.html"
        let run = try Self.run(file, to: output, defects: nil)
        #expect(try await run.run() == .completed)
        #expect(Self.envelopes(try String(contentsOfFile: output, encoding: .utf8)).isEmpty)
    }

    @Test func theTrendsAreTheChosenFeaturesThenTheBandPowers() throws {
        let file = try BearingDiagnosisRunTests.record()
        var run = try Self.run(file, to: file.path + ".html", defects: nil)
        let columns = ["rms", "peak", "kurtosis", "band_power:0-500", "thd"]
        #expect(run.trendedColumns(columns) == ["rms", "peak", "kurtosis", "band_power:0-500"])
        run.trends = ["thd", "rms"]
        #expect(run.trendedColumns(columns) == ["rms", "thd", "band_power:0-500"])
    }

    @Test func aReportRefusesToWriteOverItsInput() async throws {
        let file = try BearingDiagnosisRunTests.record()
        let before = try Data(contentsOf: file)
        let run = try Self.run(file, to: file.path, defects: nil)
        await #expect(throws: SondeError.self) { _ = try await run.run() }
        #expect(try Data(contentsOf: file) == before)
    }
}
