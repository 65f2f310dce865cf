import Foundation
import Testing
import _SondeTestSupport

/// `sonde report --shaft-speed --bearing` (issue 47, item 6) refused without its pair, exit
/// status 64 (the page's envelope figures, tables and the tachometer are `ReportRunTests`'
/// in SondeKitTests).
@Suite struct ReportEnvelopeCommandTests {
    @Test func shaftSpeedAndBearingGoTogether() throws {
        let file = try DiagnoseCommandTests.record()
        let page = try TestScratch.folder("sonde-report-envelope").appendingPathComponent("x.html")
        let run = try SondeBinary.run(
            ["report", file.path, "--shaft-speed", "1797rpm", "-o", page.path] + DiagnoseCommandTests.rawInput)
        #expect(run.status == 64 && run.stderr.contains("--shaft-speed and --bearing go together"), "\(run.stderr)")
    }
}
