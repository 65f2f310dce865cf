import SondeBench
import SondeCore
import SondeDSP
import SondeKit
import SondePipeline
import Testing

/// `sonde bench`'s report as a value: the ratio computed from the two figures, the lines
/// in one order, and a short real run that fills the pipeline's figures.
@Suite struct BenchReportTests {
    @Test func theRatioComesFromBothRuns() {
        var report = BenchReport(rate: 1000, channels: 2, window: 256, hop: 128, jobs: 1, samples: 2000)
        #expect(report.pipelineShareOfFFTLimit == nil)
        report.fft = .init(seconds: 1, samplesPerSecond: 4e6)
        #expect(report.pipelineShareOfFFTLimit == nil)
        report.pipeline = .init(
            seconds: 1, samplesPerSecond: 1e6, timesRealTime: 500, framesPerSecond: 100,
            stageShares: [("read", 0.5), ("filter", 0.5)], cpu: [("serial_share", .fraction(0.0123))],
            latencyP50: 1, latencyP99: 2, latencyP999: 3)
        #expect(report.pipelineShareOfFFTLimit == 0.25)
        report.peakRSSMiB = 12.5
        let names = report.entries.map(\.0)
        #expect(names.prefix(6) == ["rate_hz", "channels", "window", "hop", "jobs", "samples"])
        #expect(names.suffix(2) == ["pipeline_share_of_fft_limit", "peak_rss_mib"])
        #expect(names.contains("share_read") && names.contains("latency_p999_ms"))
        #expect(report.text.contains("\nserial share: 0.012\n"))
        #expect(report.text.contains("samples per second: 1e+06"))
        #expect(report.json.hasPrefix(#"{"rate_hz":1000"#))
    }

    /// The default bench device (`sonde bench` without a profile) for `seconds`.
    static func bench(seconds: Double, jobs: Int = 1, filters: [String] = []) throws -> BenchRun {
        BenchRun(
            settings: try PipelineSettings(filters: try filters.map { try FilterSpec.parse($0) }),
            profile: try BenchDevice.profile(rate: 51200, channels: 2), seed: 1, jobs: jobs, seconds: seconds)
    }

    /// Moved from the CLI suite (it ran `sonde bench --json`): every figure there, the
    /// stages' shares summing to 1, the latencies in order.
    @Test func pipelineReportHasEveryFigure() async throws {
        guard
            case .report(let report) = try await Self.bench(seconds: 2, jobs: 2, filters: ["highpass:10:4"]).run(
                fftOnly: false, versusFFT: false)
        else {
            Issue.record("interrupted")
            return
        }
        let values = Dictionary(
            uniqueKeysWithValues: report.entries.map { name, value -> (String, Double) in
                switch value {
                case .integer(let number): (name, Double(number))
                case .number(let number), .fraction(let number): (name, number)
                }
            })
        for key in [
            "samples_per_second", "times_real_time", "frames_per_second", "latency_p50_ms", "latency_p99_ms",
            "latency_p999_ms", "peak_rss_mib",
        ] {
            #expect((values[key] ?? 0) > 0, "\(key)")
        }
        // 2 s at 51.2 kHz × 2 channels.
        #expect(values["samples"] == 204_800)
        let shares = ["share_read", "share_filter", "share_measure", "share_export"].compactMap { values[$0] }
        #expect(shares.count == 4)
        #expect(abs(shares.reduce(0, +) - 1) < 1e-9)
        #expect((values["latency_p50_ms"] ?? 0) <= (values["latency_p99_ms"] ?? 0))
        // The CPU figures are there; their values are the whole process's, which other tests
        // share here, so the CLI suite checks them (BenchTests.cpuFiguresAreTheProcesssOwn).
        for key in ["cpu_workers_s", "cpu_readers_s", "cpu_writer_s", "cpu_other_s", "amdahl_16_cores", "framer_share"]
        {
            #expect(values[key] != nil, "\(key)")
        }
        #expect(report.text.split(separator: "\n").contains { $0.wholeMatch(of: /serial share: 0\.\d\d\d/) != nil })
    }

    /// Moved from the CLI suite: `--versus-fft` gives the ratio, `--fft-only` no pipeline.
    @Test func versusFFTReportsTheRatio() async throws {
        guard case .report(let both) = try await Self.bench(seconds: 2).run(fftOnly: false, versusFFT: true),
            case .report(let fftOnly) = try await Self.bench(seconds: 2).run(fftOnly: true, versusFFT: false)
        else {
            Issue.record("interrupted")
            return
        }
        let full = try #require(both.pipeline?.samplesPerSecond)
        let fft = try #require(both.fft?.samplesPerSecond)
        #expect(abs((both.pipelineShareOfFFTLimit ?? 0) - full / fft) < 1e-9)
        #expect(fftOnly.pipeline == nil && (fftOnly.fft?.samplesPerSecond ?? 0) > 0)
        #expect(!fftOnly.entries.contains { $0.0 == "samples_per_second" })
    }
}
