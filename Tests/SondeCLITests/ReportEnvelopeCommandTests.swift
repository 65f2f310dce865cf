import Foundation
import Testing
import _SondeTestSupport

/// `sonde report --shaft-speed --bearing` (issue 47, item 6): each channel's envelope spectrum
/// with the defect lines, on the page and as its own figure, the fault's line where BPFO is.
@Suite struct ReportEnvelopeCommandTests {
    @Test func pageShowsTheEnvelopeSpectrumWithDefectLines() throws {
        let file = try DiagnoseCommandTests.record()
        let folder = try TestScratch.folder("sonde-report-envelope")
        let page = folder.appendingPathComponent("bearing.html")
        let figures = folder.appendingPathComponent("figures")
        try FileManager.default.createDirectory(at: figures, withIntermediateDirectories: true)
        let run = try SondeBinary.run(
            [
                "report", file.path, "--shaft-speed", "1797rpm", "--bearing", "6205", "-o", page.path, "--figures",
                figures.path, "--quiet",
            ] + DiagnoseCommandTests.rawInput)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let envelopes = html.components(separatedBy: "<figure class=\"envelope\">").dropFirst()
        try #require(envelopes.count == 2)
        let fault = try #require(envelopes.first)
        for label in ["BPFO", "BPFI", "BSF", "FTF", "2×BPFO", "3×BPFI"] {
            #expect(fault.contains(">\(label)</text>"), "\(label)")
        }
        // The outer-race channel's strongest envelope line is BPFO, 107.36 Hz (±2% slip).
        let peak = try #require(fault.components(separatedBy: "peak ").dropFirst().first?.split(separator: " ").first)
        let frequency = try #require(Double(String(peak)))
        #expect(abs(frequency - 107.36) <= 0.02 * 107.36, "peak \(frequency) Hz")
        // Under each figure, the levels and the verdict `diagnose` gives the same channels.
        let tables = html.components(separatedBy: "<p class=\"verdict\">").dropFirst()
        try #require(tables.count == 2, "\(html.count) bytes")
        let faultTable = try #require(tables.first?.components(separatedBy: "</table>").first)
        let healthyTable = try #require(tables.last?.components(separatedBy: "</table>").first)
        #expect(faultTable.hasPrefix("Bearing: outer race fault likely (BPFO "), "\(faultTable.prefix(80))")
        #expect(healthyTable.hasPrefix("Bearing: no bearing defect above 10 dB"), "\(healthyTable.prefix(80))")
        for name in ["BPFO", "BPFI", "BSF", "FTF"] {
            #expect(faultTable.contains("<tr><td>\(name)</td>"), "\(name)")
        }
        let diagnose = try SondeBinary.run(
            ["diagnose", file.path, "--shaft-speed", "1797rpm", "--bearing", "6205"] + DiagnoseCommandTests.rawInput)
        let verdict = try #require(
            diagnose.stdout.split(separator: "\n").first?.split(separator: ": ", maxSplits: 1).last)
        #expect(faultTable.hasPrefix("Bearing: \(verdict)</p>"), "diagnose: \(verdict)")
        let files = try FileManager.default.contentsOfDirectory(atPath: figures.path)
        #expect(files.filter { $0.hasSuffix("-envelope.svg") }.count == 2, "\(files)")
    }

    /// `--tacho 2`: the speed from the third channel, which gets no envelope figure.
    @Test func speedFromTheTachometerChannel() throws {
        let file = try DiagnoseTachometerCommandTests.record(pulses: 1)
        let page = try TestScratch.folder("sonde-report-envelope").appendingPathComponent("tacho.html")
        let run = try SondeBinary.run(
            ["report", file.path, "--tacho", "2", "-o", page.path, "--quiet"] + DiagnoseTachometerCommandTests.rawInput)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let envelopes = html.components(separatedBy: "<figure class=\"envelope\">").dropFirst()
        #expect(envelopes.count == 2, "the tachometer channel has no envelope figure")
        #expect(envelopes.first?.contains("(shaft 29.95 Hz)") == true)
        #expect(html.contains("<p class=\"verdict\">Bearing: outer race fault likely (BPFO "))
    }

    @Test func shaftSpeedAndBearingGoTogether() throws {
        let file = try DiagnoseCommandTests.record()
        let page = try TestScratch.folder("sonde-report-envelope").appendingPathComponent("x.html")
        let run = try SondeBinary.run(
            ["report", file.path, "--shaft-speed", "1797rpm", "-o", page.path] + DiagnoseCommandTests.rawInput)
        #expect(run.status == 64 && run.stderr.contains("--shaft-speed and --bearing go together"), "\(run.stderr)")
    }
}
