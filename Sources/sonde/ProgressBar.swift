import Dispatch
import Foundation

/// A one-line progress report on stderr, redrawn a few times a second: samples done,
/// rate, and ETA when the total is known. Drawn only on a terminal.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: `timer` is touched only on `queue`; the sample counter is read through the
    // closure, which is itself thread-safe.
    private let queue = DispatchQueue(label: "sonde.progress")
    private var timer: (any DispatchSourceTimer)?
    private let total: Int?
    private let done: @Sendable () -> Int
    private let started = DispatchTime.now()

    /// - Parameters:
    ///   - total: samples (all channels) expected, if known.
    ///   - done: samples processed so far.
    init?(enabled: Bool, total: Int?, done: @escaping @Sendable () -> Int) {
        guard enabled, isatty(2) == 1 else { return nil }
        self.total = total
        self.done = done
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(300), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    private func draw() {
        let samples = done()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let rate = seconds > 0 ? Double(samples) / seconds : 0
        var line = "\r\u{1B}[2K"
        if let total, total > 0 {
            let fraction = min(1, Double(samples) / Double(total))
            let width = 30
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            line += String(format: "%5.1f%% ", fraction * 100)
            if rate > 0 { line += String(format: " ETA %.0fs ", Double(total - samples) / rate) }
        }
        line += String(format: " %@ samples  %@ samples/s", Self.compact(Double(samples)), Self.compact(rate))
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Stops redrawing and clears the line.
    func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
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
