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
