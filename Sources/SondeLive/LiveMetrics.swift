import Prometheus
import Synchronization

/// The stream in the Prometheus text format: the latest value of each feature and channel,
/// records, dropped samples and dropped page updates as counters, and the latency histogram.
///
/// Gauges and counters are brought up to date when scraped, from the feed's snapshot, so the
/// measurement pays nothing per record for them; only latencies are observed as they come.
final class LiveMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let records: Counter
    private let droppedSamples: Counter
    private let droppedUpdates: Counter
    private let latency: DurationHistogram
    /// What the counters were last raised to, so a scrape adds the difference.
    private let counted = Mutex(Counted())
    private let gauges = Mutex([String: Gauge]())

    private struct Counted {
        var records = 0
        var droppedSamples = 0
        var droppedUpdates = 0
    }

    /// Latency buckets from 1 ms to 10 s: a live record is due within a hop of its window.
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(50),
        .milliseconds(100), .milliseconds(200), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
    ]

    init() {
        records = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sonde", metricName: "records", unitName: "total",
                helpText: "Records computed (one per channel and window)."
            )
        )
        droppedSamples = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sonde", metricName: "dropped_samples", unitName: "total",
                helpText: "Samples per channel the device dropped because the stream fell behind."
            )
        )
        droppedUpdates = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sonde", subsystem: "live", metricName: "dropped_updates", unitName: "total",
                helpText: "Live page updates dropped for clients that did not read them in time."
            )
        )
        latency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "sonde", metricName: "latency", unitName: "seconds",
                helpText: "From a window's last sample in to its record written."
            ),
            buckets: Self.latencyBuckets
        )
    }

    /// One latency shared by `count` records (the channels of one frame).
    func observeLatency(nanoseconds: UInt64, count: Int) {
        let value = Int64(clamping: nanoseconds)
        for _ in 0..<count { latency.recordNanoseconds(value) }
    }

    /// The text format, with gauges and counters brought up to `snapshot`.
    func exposition(snapshot: LiveSnapshot?, droppedSamples samples: Int, droppedUpdates updates: Int) -> [UInt8] {
        if let snapshot {
            for (channelIndex, channel) in snapshot.channels.enumerated() {
                for (columnIndex, column) in snapshot.columns.enumerated() {
                    gauge(channel: channel, feature: column).set(
                        to: snapshot.value(channel: channelIndex, column: columnIndex))
                }
            }
        }
        let raise = counted.withLock { counted in
            defer {
                counted.records = max(counted.records, snapshot?.records ?? 0)
                counted.droppedSamples = max(counted.droppedSamples, samples)
                counted.droppedUpdates = max(counted.droppedUpdates, updates)
            }
            return (
                max(0, (snapshot?.records ?? 0) - counted.records), max(0, samples - counted.droppedSamples),
                max(0, updates - counted.droppedUpdates)
            )
        }
        records.increment(by: Int64(raise.0))
        droppedSamples.increment(by: Int64(raise.1))
        droppedUpdates.increment(by: Int64(raise.2))
        return registry.emitToBuffer()
    }

    private func gauge(channel: String, feature: String) -> Gauge {
        gauges.withLock { gauges in
            let key = channel + "\u{0}" + feature
            if let gauge = gauges[key] { return gauge }
            let gauge = registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "sonde", metricName: "feature", unitName: "value",
                    helpText: "The latest value of a feature on a channel (its unit is the feature's)."
                ),
                labels: [("channel", channel), ("feature", feature)]
            )
            gauges[key] = gauge
            return gauge
        }
    }
}
