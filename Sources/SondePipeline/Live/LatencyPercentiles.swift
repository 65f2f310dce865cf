import Histogram

/// Latencies of a live run in an HdrHistogram: constant memory for a stream of any length,
/// percentiles to 1% (two significant digits) from 1 µs to 100 s.
public struct LatencyPercentiles: Sendable {
    private static let lowest: UInt64 = 1_000
    private static let highest: UInt64 = 100_000_000_000
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: lowest, highestTrackableValue: highest, numberOfSignificantValueDigits: .two
    )

    public init() {}

    /// Latencies recorded so far.
    public var count: Int { Int(histogram.totalCount) }

    /// - Parameters:
    ///   - nanoseconds: one latency; beyond 100 s it counts as 100 s.
    ///   - count: how many records had this latency (the channels of one frame).
    public mutating func record(nanoseconds: UInt64, count: Int = 1) {
        _ = histogram.record(Swift.min(nanoseconds, Self.highest), count: UInt64(Swift.max(0, count)))
    }

    /// The latency below which `fraction` (0...1) of the recorded ones lie, in nanoseconds;
    /// nil when nothing was recorded.
    public func percentile(_ fraction: Double) -> UInt64? {
        guard histogram.totalCount > 0 else { return nil }
        return histogram.valueAtPercentile(fraction * 100)
    }
}
