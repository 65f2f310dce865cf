import SondeCore
import Synchronization

/// The latest records of a stream and a minute of their history, kept for the live page and
/// `/metrics`: the exporter hands over each batch in O(values), under a lock held for
/// that copy only; the page and the scrapes read snapshots at their own pace.
final class LiveFeed: Sendable {
    /// The value columns, as the records name them.
    let columns: [String]
    /// Indices into `columns` of the features drawn as trends.
    let trendColumns: [Int]
    /// Seconds of signal folded into one trend point (its minimum and maximum are kept).
    let trendStep: Double
    /// Trend points kept: `trendStep * trendLength` seconds of history.
    let trendLength: Int

    private let state = Mutex(State())

    private struct State {
        var channels: [String] = []
        /// The last frame's values, channel-major (`channels.count * columns.count`).
        var latest: [Double] = []
        var latestTime = 0.0
        var records = 0
        /// Bumped by every batch, so the page skips a tick with nothing new.
        var version = 0
        var trend = TrendHistory()
    }

    /// The features drawn as trends when they are among the columns, in this order.
    static let preferredTrends = ["rms", "peak", "kurtosis", "dominant_frequency"]

    /// - Parameters:
    ///   - columns: the records' value columns.
    ///   - trendStep: seconds per trend point, > 0.
    ///   - trendLength: trend points kept, >= 2.
    init(columns: [String], trendStep: Double = 0.25, trendLength: Int = 240) {
        self.columns = columns
        let preferred = Self.preferredTrends.compactMap { columns.firstIndex(of: $0) }
        trendColumns = preferred.isEmpty ? Array(columns.indices.prefix(2)) : preferred
        self.trendStep = trendStep
        self.trendLength = max(2, trendLength)
    }

    /// Takes the records of one batch: the last frame becomes the latest values, every
    /// frame goes into the trends.
    func publish(_ batch: RecordBatch) {
        guard batch.frameCount > 0, batch.columnCount == columns.count else { return }
        let channelCount = batch.channelNames.count
        let stride = channelCount * batch.columnCount
        state.withLock { state in
            if state.channels != batch.channelNames {
                state.channels = batch.channelNames
                state.trend = TrendHistory()
            }
            let last = (batch.frameCount - 1) * stride
            // In place: no allocation per batch when records come by the thousand.
            if state.latest.count != stride { state.latest = [Double](repeating: .nan, count: stride) }
            for index in 0..<stride { state.latest[index] = batch.values[last + index] }
            state.latestTime = Self.time(of: batch, frame: batch.frameCount - 1)
            state.records += batch.recordCount
            state.version += 1
            for frame in 0..<batch.frameCount {
                let time = Self.time(of: batch, frame: frame)
                state.trend.add(
                    time: time, step: trendStep, keep: trendLength, values: batch.values, offset: frame * stride,
                    channels: channelCount, columns: batch.columnCount, selected: trendColumns
                )
            }
        }
    }

    /// Seconds of the frame's first sample (since 1970 for a live source).
    private static func time(of batch: RecordBatch, frame: Int) -> Double {
        let start = Double((batch.firstFrame + frame) * batch.hop)
        switch batch.clock {
        case .seconds(let rate, let offset): return start / rate + offset
        case .wallClock(let rate, let epoch): return epoch + start / rate
        }
    }

    /// What the feed holds now; nil when nothing arrived since `version`.
    func snapshot(after version: Int = -1) -> LiveSnapshot? {
        state.withLock { state in
            guard state.version != version else { return nil }
            return LiveSnapshot(
                version: state.version, records: state.records, channels: state.channels, columns: columns,
                latest: state.latest, latestTime: state.latestTime,
                trendColumns: trendColumns.map { columns[$0] }, trend: state.trend.points
            )
        }
    }
}

/// A copy of the feed at one moment, for one page update or one scrape.
struct LiveSnapshot: Sendable {
    var version: Int
    var records: Int
    var channels: [String]
    var columns: [String]
    /// The last frame's values, channel-major.
    var latest: [Double]
    /// Seconds of the last frame's first sample.
    var latestTime: Double
    /// The features the trends hold, in the order of each point's values.
    var trendColumns: [String]
    var trend: [TrendPoint]

    /// The latest value of `column` on `channel`.
    func value(channel: Int, column: Int) -> Double {
        latest[channel * columns.count + column]
    }
}
