public import Benchmark

extension BenchmarkMetric {
    /// Bytes per second of one iteration, timed around the measured work itself; the
    /// table shows it with a K/M/G suffix (so "(M)" reads as MB/s).
    public static let bytesPerSecond = BenchmarkMetric.custom(
        "Throughput (bytes / s)", polarity: .prefersLarger, useScalingFactor: false)
}

/// Runs `body` and returns the seconds it took.
public func secondsElapsed(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// Metrics and regression tolerances shared by every group.
///
/// Every metric a benchmark records needs a tolerance: the tools fall back to strict
/// (0%) ones for a metric without. Both percentiles are given because a comparison of
/// two baselines checks every percentile listed, while a check against the committed
/// static thresholds (`Thresholds/`) checks p90 only.
///
/// Benchmark names contain no spaces or slashes: benchmark 1.38.1 writes a static
/// threshold file under the name with those replaced by `_` but looks it up by the name
/// as given, so `thresholds check` would find no file for such a benchmark.
public enum Tolerances {
    /// Timing: throughput may fall (wall-clock time grow) 30% at the median, 50% at p90.
    /// Wide, because these machines have 2 cores shared with builds: a quiet machine
    /// stays within 10-20%, a busy one can swing 2x either way (check allocations only
    /// there, see the README), and a lost optimisation costs 2x or more.
    public static var time: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 30, .p90: 50]) }
    /// Allocations per iteration of a kernel (1000 frames, 1M samples...): at most 50 more,
    /// far below one per frame. Kernel benchmarks record no sampled metric, so no harness
    /// thread allocates while they run and their counts are exact.
    public static var allocations: BenchmarkThresholds { BenchmarkThresholds(absolute: [.p50: 50, .p90: 50]) }
    /// Allocation counts of whole-pipeline runs, which include thread and queue set-up,
    /// vary a little with scheduling, and share the process with the RSS sampler: 15%.
    public static var pipelineAllocations: BenchmarkThresholds {
        BenchmarkThresholds(relative: [.p50: 15, .p90: 15])
    }
    /// Peak RSS may grow 25% (it is sampled, so noisy).
    public static var memory: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 25, .p90: 25]) }
    /// Bytes handed to write(2): deterministic for a given output format.
    public static var bytes: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 5, .p90: 5]) }

    /// What kernel benchmarks record: throughput, time and allocations. Peak RSS is left to
    /// the pipeline benchmarks: sampling it runs a harness thread that allocates, which
    /// would blur the allocation counts.
    public static let kernelMetrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

    /// A tolerance for each of `metrics`.
    public static func thresholds(
        for metrics: [BenchmarkMetric], allocations: BenchmarkThresholds = allocations
    ) -> [BenchmarkMetric: BenchmarkThresholds] {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [:]
        for metric in metrics {
            switch metric {
            case .mallocCountTotal: thresholds[metric] = allocations
            case .peakMemoryResident: thresholds[metric] = memory
            case .writeBytesLogical: thresholds[metric] = bytes
            default: thresholds[metric] = time
            }
        }
        return thresholds
    }
}
