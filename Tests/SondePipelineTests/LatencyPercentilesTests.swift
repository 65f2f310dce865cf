import SondePipeline
import Testing

/// The stream's latency report reads its percentiles from HdrHistogram through `LatencyPercentiles`.
struct LatencyPercentilesTests {
    @Test func emptyHasNoPercentiles() {
        #expect(LatencyPercentiles().percentile(0.5) == nil)
    }

    /// 1 µs, 2 µs, ... 10,000 µs: the p-th percentile is p% of 10 ms, to the histogram's 1%.
    @Test(arguments: [0.5, 0.9, 0.99, 0.999])
    func uniformLatenciesGiveTheirPercentiles(fraction: Double) throws {
        var latencies = LatencyPercentiles()
        for micros in 1...10_000 { latencies.record(nanoseconds: UInt64(micros) * 1_000) }
        #expect(latencies.count == 10_000)
        let value = Double(try #require(latencies.percentile(fraction)))
        let expected = fraction * 10_000 * 1_000
        #expect(abs(value - expected) <= 0.01 * expected, "p\(fraction * 100): \(value) ns")
    }

    /// One frame's channels share a latency; far beyond the range counts as the range's top.
    @Test func countsAndClamping() throws {
        var latencies = LatencyPercentiles()
        latencies.record(nanoseconds: 2_000_000, count: 4)
        latencies.record(nanoseconds: 500_000_000_000)
        #expect(latencies.count == 5)
        let median = Double(try #require(latencies.percentile(0.5)))
        #expect(abs(median - 2e6) <= 0.01 * 2e6)
        let top = Double(try #require(latencies.percentile(1)))
        #expect(top >= 99e9 && top <= 101e9)
    }
}
