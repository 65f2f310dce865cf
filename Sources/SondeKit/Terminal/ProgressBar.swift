import Foundation

/// The progress line of a long run: samples done, rate, and ETA when the total is known.
public enum ProgressBar {
    /// - Parameters:
    ///   - total: samples (all channels) or inputs expected, if known.
    ///   - unit: what is counted: "samples" or "inputs".
    ///   - done: how many are done so far.
    public static func start(
        enabled: Bool, total: Int?, unit: String = "samples", done: @escaping @Sendable () -> Int
    ) -> StatusLine? {
        let started = DispatchTime.now()
        return StatusLine(enabled: enabled, interval: .milliseconds(250)) {
            let samples = done()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            return text(samples: samples, total: total, rate: seconds > 0 ? Double(samples) / seconds : 0, unit: unit)
        }
    }

    public static func text(samples: Int, total: Int?, rate: Double, unit: String = "samples") -> String {
        var line = ""
        if let total, total > 0 {
            let fraction = min(1, Double(samples) / Double(total))
            let width = 30
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            line += String(format: "%5.1f%% ", fraction * 100)
            if rate > 0 { line += String(format: " ETA %.0fs ", Double(total - samples) / rate) }
        }
        line += " \(compact(Double(samples))) \(unit)  \(compact(rate)) \(unit)/s"
        return line
    }

    private static func compact(_ value: Double) -> String {
        switch value {
        case 1e9...: String(format: "%.2fG", value / 1e9)
        case 1e6...: String(format: "%.2fM", value / 1e6)
        case 1e3...: String(format: "%.1fk", value / 1e3)
        default: String(format: "%.0f", value)
        }
    }
}
