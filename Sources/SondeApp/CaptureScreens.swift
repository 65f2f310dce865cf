import Foundation
import SondeAccounts
import SondeCapture
import SondePipeline
import SondePlots
import Synchronization

/// The app's side of the lab's shared `Instrument`: starts captures for the New measurement
/// screen, notes when a screen last asked for values (a capture nobody watches is
/// discarded, which frees the device), and keeps the trends the screen draws (the newest
/// values sampled a few times a second, as the live page's trends).
final class CaptureScreens: Sendable {
    let instrument: Instrument
    private let options: CaptureOptions
    private let longestSeconds: Double
    private let watched = Mutex<Watched?>(nil)

    /// The trend features drawn when they are among the columns, in this order.
    static let preferredTrends = ["rms", "peak", "kurtosis", "dominant_frequency"]
    /// Seconds between trend points.
    static let trendStep = 0.2

    private struct Watched {
        let capture: LiveCapture
        var lastWatched: Double
        let trendColumns: [Int]
        var trends: [TrendEnvelope]
        var lastFrames = 0
    }

    init(instrument: Instrument, options: CaptureOptions, longestSeconds: Double) {
        self.instrument = instrument
        self.options = options
        self.longestSeconds = longestSeconds
    }

    /// Starts a capture for `account`, or gives back the one it runs already (another tab).
    /// - Throws: `SondeError(.busy)` while another user measures (409), `.invalidArgument`
    ///   when no device is paired.
    func start(for account: Account) throws -> LiveCapture {
        if let running = capture(for: account) { return running }
        let capture = try instrument.startCapture(
            for: account, settings: try PipelineSettings(), duration: longestSeconds, options: options)
        let trendColumns = Self.trendColumns(capture.columns)
        watched.withLock {
            $0 = Watched(
                capture: capture, lastWatched: Date().timeIntervalSince1970, trendColumns: trendColumns,
                trends: Array(
                    repeating: TrendEnvelope(capacity: 600), count: trendColumns.count * capture.channelNames.count))
        }
        return capture
    }

    /// The capture `account` runs, if any.
    func capture(for account: Account) -> LiveCapture? {
        guard let running = instrument.currentCapture, running.owner.id == account.id else { return nil }
        return running
    }

    /// A screen asked for the values of `capture` just now.
    func noteWatched(_ capture: LiveCapture) {
        watched.withLock { state in
            if state?.capture === capture { state?.lastWatched = Date().timeIntervalSince1970 }
        }
    }

    /// Every `trendStep`: adds the newest values to the trends, and discards a capture no
    /// screen has asked about for `unwatchedSeconds`.
    func tick(unwatchedSeconds: Double) async {
        let abandoned: LiveCapture? = watched.withLock { state in
            guard let current = state else { return nil }
            guard instrument.currentCapture === current.capture else {
                state = nil  // saved or discarded
                return nil
            }
            if Date().timeIntervalSince1970 - current.lastWatched > unwatchedSeconds {
                state = nil
                return current.capture
            }
            let values = current.capture.latest()
            guard values.frameCount > current.lastFrames else { return nil }
            state?.lastFrames = values.frameCount
            let channels = values.channels.count
            for (slot, column) in current.trendColumns.enumerated() {
                for (channel, entry) in values.channels.enumerated() where entry.values.indices.contains(column) {
                    state?.trends[slot * channels + channel].append(entry.values[column])
                }
            }
            return nil
        }
        await abandoned?.discard()
    }

    /// The columns drawn as trends (indices into `columns`), and their trends' SVG.
    func trendColumns(of capture: LiveCapture) -> [Int] { Self.trendColumns(capture.columns) }

    func trendSVG(of capture: LiveCapture, slot: Int, channel: Int) -> String? {
        let envelope: TrendEnvelope? = watched.withLock { state in
            guard let state, state.capture === capture, state.trendColumns.indices.contains(slot),
                capture.channelNames.indices.contains(channel)
            else { return nil }
            return state.trends[slot * capture.channelNames.count + channel]
        }
        guard let envelope else { return nil }
        let column = Self.trendColumns(capture.columns)[slot]
        return TrendPlot(
            title: "\(capture.columns[column]), \(capture.channelNames[channel])", envelope: envelope,
            secondsPerFrame: Self.trendStep, width: 380, height: 170
        ).svg()
    }

    private static func trendColumns(_ columns: [String]) -> [Int] {
        let preferred = preferredTrends.compactMap { columns.firstIndex(of: $0) }
        return preferred.isEmpty ? Array(columns.indices.prefix(1)) : preferred
    }
}
