import Foundation

/// Latencies in a fixed set of log-spaced buckets (about 1% wide, 1 µs to 100 s), so a
/// stream of any length keeps constant memory and still gives p50/p99/p99.9 to ~1%.
public struct LatencyHistogram: Sendable {
    private static let bucketsPerDecade = 230  // (1.01)^230 ≈ 10
    private static let decades = 8
    private var counts = [Int](repeating: 0, count: bucketsPerDecade * decades + 1)
    public private(set) var count = 0
    public private(set) var maximum: UInt64 = 0

    public init() {}

    /// - Parameter nanoseconds: one latency.
    public mutating func record(nanoseconds: UInt64) {
        let micros = Swift.max(1.0, Double(nanoseconds) / 1000)
        let bucket = Swift.min(counts.count - 1, Int((log10(micros) * Double(Self.bucketsPerDecade)).rounded(.down)))
        counts[bucket] += 1
        count += 1
        maximum = Swift.max(maximum, nanoseconds)
    }

    /// The latency below which `fraction` of the recorded ones lie, in nanoseconds (the
    /// upper edge of its bucket); nil when nothing was recorded.
    public func percentile(_ fraction: Double) -> UInt64? {
        guard count > 0 else { return nil }
        let target = Swift.max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (bucket, bucketCount) in counts.enumerated() {
            seen += bucketCount
            if seen >= target {
                let upper = 1000 * pow(10, Double(bucket + 1) / Double(Self.bucketsPerDecade))
                return Swift.min(UInt64(upper), maximum)
            }
        }
        return maximum
    }
}
