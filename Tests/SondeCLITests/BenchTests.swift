import Foundation
import Testing
import _SondeTestSupport

@Suite struct BenchTests {
    // The bench report's figures are tested in-process (SondeKitTests' BenchReportTests);
    // here what needs a process of its own: CPU by kind of thread is the whole process's.

    /// Issue 30: CPU by kind of thread; the workers did nearly all of it, and the serial
    /// share is what they did not, bounded by Amdahl's law.
    @Test func cpuFiguresAreTheProcesssOwn() throws {
        let result = try SondeBinary.run(
            ["bench", "--json", "--seconds", "5", "--filter", "highpass:10:4", "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let values = try JSONDecoder().decode([String: Double].self, from: Data(result.stdout.utf8))
        let workers = try #require(values["cpu_workers_s"])
        let serial = try #require(values["serial_share"])
        #expect(workers > 0 && (values["cpu_readers_s"] ?? 0) > 0 && (values["cpu_writer_s"] ?? -1) >= 0)
        #expect(serial >= 0 && serial < 0.5, "serial share \(serial)")
        let other = try #require(values["cpu_other_s"])
        let process = workers + (values["cpu_readers_s"] ?? 0) + (values["cpu_writer_s"] ?? 0) + other
        #expect(abs(serial - (1 - workers / process)) < 1e-6)
        #expect(abs((values["amdahl_16_cores"] ?? 0) - 1 / (serial + (1 - serial) / 16)) < 1e-6)
        #expect((values["framer_share"] ?? -1) > 0 && (values["framer_share"] ?? 2) < 1)
    }

    /// `--cpu-report` on the file commands: one line on stderr after the run, with `--quiet` too.
    @Test func processCPUReportSaysWhereTheCPUWent() throws {
        let result = try SondeBinary.run(
            ["process", "sample-data/motor.wav", "--cpu-report", "--quiet", "--jobs", "2", "-o", "/dev/null"],
            in: Fixtures.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let pattern =
            /cpu: workers (\d+\.\d{3}) s, reading \d+\.\d{3} s, writing \d+\.\d{3} s, other \d+\.\d{3} s; serial share (0\.\d{3}) \(Amdahl: at most \d+\.\dx on 16 cores\); framer \d\.\d{3}\n/
        let match = try #require(result.stderr.wholeMatch(of: pattern), "\(result.stderr)")
        #expect((Double(match.1) ?? 0) > 0)
        #expect((Double(match.2) ?? 1) < 0.5)
    }
}
