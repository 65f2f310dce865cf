public import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One line on stderr redrawn on a timer (progress, live values), only on a terminal.
public final class StatusLine: @unchecked Sendable {
    // @unchecked: `timer` is touched only on `queue`; `line` must itself be thread-safe.
    private let queue = DispatchQueue(label: "sonde.status-line")
    private var timer: (any DispatchSourceTimer)?

    /// - Parameters:
    ///   - interval: time between redraws.
    ///   - line: the text to show, asked for at each redraw.
    public init?(enabled: Bool, interval: DispatchTimeInterval, line: @escaping @Sendable () -> String) {
        guard enabled, isatty(2) == 1 else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line()).utf8)) }
        self.timer = timer
        timer.resume()
    }

    /// Stops redrawing and clears the line.
    public func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
