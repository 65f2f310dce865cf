import Foundation
import Testing
import _SondeTestSupport

@Suite struct BenchTests {
    private func report(_ arguments: [String]) throws -> [String: Double] {
        let result = try SondeBinary.run(["bench", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([String: Double].self, from: Data(result.stdout.utf8))
    }

    @Test func pipelineReportHasEveryFigure() throws {
        let values = try report(["--seconds", "5", "--filter", "highpass:10:4", "--jobs", "2"])
        for key in [
            "samples_per_second", "times_real_time", "frames_per_second", "latency_p50_ms", "latency_p99_ms",
            "latency_p999_ms", "peak_rss_mib",
        ] {
            #expect((values[key] ?? 0) > 0, "\(key)")
        }
        // 5 s at 51.2 kHz × 2 channels, and (256000 - 1024) / 512 + 1 frames per channel.
        #expect(values["samples"] == 512_000)
        let shares = ["share_read", "share_filter", "share_measure", "share_export"].compactMap { values[$0] }
        #expect(shares.count == 4)
        #expect(abs(shares.reduce(0, +) - 1) < 1e-9)
        #expect((values["latency_p50_ms"] ?? 0) <= (values["latency_p99_ms"] ?? 0))
        // Issue 30: CPU by kind of thread; the workers did nearly all of it, and the serial
        // share is what they did not, bounded by Amdahl's law.
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

    @Test func textReportPrintsTheSerialShareToThreePlaces() throws {
        let result = try SondeBinary.run(["bench", "--seconds", "2", "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("serial share: ") }
        #expect(line?.wholeMatch(of: /serial share: 0\.\d\d\d/) != nil, "\(result.stdout)")
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

    @Test func versusFFTReportsTheRatio() throws {
        let values = try report(["--seconds", "5", "--versus-fft"])
        let full = try #require(values["samples_per_second"])
        let fft = try #require(values["fft_only_samples_per_second"])
        #expect(abs((values["pipeline_share_of_fft_limit"] ?? 0) - full / fft) < 1e-9)
        let fftOnly = try report(["--seconds", "5", "--fft-only"])
        #expect(fftOnly["samples_per_second"] == nil && (fftOnly["fft_only_samples_per_second"] ?? 0) > 0)
    }
}
