import Foundation
import SondePipeline

extension StreamRun.Summary {
    /// The line `sonde stream` ends with on standard error: records, samples, drops and
    /// time; with `stats`, the latency percentiles from a window's last sample in to its
    /// record out; and the live page's dropped updates when it served one.
    public func line(stats: Bool) -> String {
        var line = "sonde stream: \(records) records, \(samplesPerChannel) samples per channel, "
        line += "\(dropped) dropped, \(String(format: "%.2f", seconds)) s"
        if stats {
            func ms(_ fraction: Double) -> String {
                latencies.percentile(fraction).map { String(format: "%.2f ms", Double($0) / 1e6) } ?? "n/a"
            }
            line += "; latency p50 \(ms(0.5)), p99 \(ms(0.99)), p99.9 \(ms(0.999)) over \(latencies.count) records"
        }
        if let droppedPageUpdates { line += "; \(droppedPageUpdates) page updates dropped" }
        return line
    }
}
