import SondeKit
import SondePipeline
import Testing

/// The line `sonde stream` ends with, in process: counts and time, the latency percentiles
/// with `--stats` ("n/a" without arrivals), and the live page's dropped updates.
@Suite struct StreamSummaryLineTests {
    static func summary(latencies: LatencyPercentiles = LatencyPercentiles(), page: Int? = nil) -> StreamRun.Summary {
        StreamRun.Summary(
            records: 20, samplesPerChannel: 10_240, dropped: 3, seconds: 1.234_56, latencies: latencies,
            droppedPageUpdates: page, notes: [], exitStatus: nil)
    }

    @Test func countsAndTime() {
        #expect(
            Self.summary().line(stats: false)
                == "sonde stream: 20 records, 10240 samples per channel, 3 dropped, 1.23 s")
    }

    @Test func latenciesWithStatsAndThePagesDrops() {
        var latencies = LatencyPercentiles()
        latencies.record(nanoseconds: 2_000_000, count: 10)
        let line = Self.summary(latencies: latencies, page: 4).line(stats: true)
        #expect(line.hasPrefix("sonde stream: 20 records, 10240 samples per channel, 3 dropped, 1.23 s; latency p50 "))
        #expect(line.contains(" over 10 records"), "\(line)")
        #expect(line.hasSuffix("; 4 page updates dropped"))
        #expect(Self.summary().line(stats: true).contains("latency p50 n/a, p99 n/a, p99.9 n/a over 0 records"))
    }
}
