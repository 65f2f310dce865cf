import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements
import SondePipeline
import SondePlots
import Synchronization

/// One measurement in progress: the pipeline on the paired device (what `sonde measure`
/// runs: the live clock source, the live graph, every record kept for saving), the latest
/// values and trends for the New measurement screen.
final class LiveCapture: Sendable {
    let owner: Account
    let deviceID: String
    /// Seconds since 1970.
    let startedAt: Double
    let channelNames: [String]
    let columns: [String]
    /// The columns drawn as trends.
    let trendColumns: [Int]
    let secondsPerFrame: Double

    private let settings: PipelineSettings
    private let rate: Double
    private let version: String
    private let graph: PipelineGraph
    private let kept: Mutex<Kept>
    private let lastWatched: Mutex<Double>
    private let running: Mutex<Task<Void, Never>?> = Mutex(nil)

    private struct Kept {
        var batches: [RecordBatch] = []
        var frames = 0
        /// The last frame's values, channel-major.
        var latest: [Double] = []
        /// Per trend column and channel.
        var trends: [TrendEnvelope]
        var failure: String?
        var ended = false
    }

    static let preferredTrends = ["rms", "peak", "kurtosis", "dominant_frequency"]

    init(owner: Account, deviceID: String, device: SimulatedDevice, version: String, longestSeconds: Double) throws {
        self.owner = owner
        self.deviceID = deviceID
        self.version = version
        let rate = device.format.sampleRate
        self.rate = rate
        let settings = try PipelineSettings()
        try settings.validate(sampleRate: rate)
        self.settings = settings
        let columns = try settings.valueColumns(sampleRate: rate)
        self.columns = columns
        channelNames = device.format.channelNames
        let trends = Self.preferredTrends.compactMap { columns.firstIndex(of: $0) }
        trendColumns = trends.isEmpty ? Array(columns.indices.prefix(1)) : trends
        secondsPerFrame = Double(settings.hop) / rate
        kept = Mutex(
            Kept(trends: Array(repeating: TrendEnvelope(capacity: 400), count: trendColumns.count * channelNames.count))
        )
        let started = Date().timeIntervalSince1970
        startedAt = started
        lastWatched = Mutex(started)
        graph = PipelineGraph(settings: settings, options: .live(jobs: 2, sampleRate: rate))
        let source = LimitedSource(
            base: LiveClockSource(base: device, policy: .dropOldest), frames: Int(longestSeconds * rate))
        let input = PipelineGraph.Input(
            name: deviceID, source: source, clock: .wallClock(sampleRate: rate, epochOfFirstSample: started))
        let task = Task { await self.run(input) }
        running.withLock { $0 = task }
    }

    private func run(_ input: PipelineGraph.Input) async {
        do {
            _ = try await graph.run(inputs: [input]) { batch in
                self.kept.withLock {
                    Self.keep(batch, in: &$0, trendColumns: self.trendColumns, columnCount: self.columns.count)
                }
            }
        } catch {
            kept.withLock { $0.failure = String(describing: error) }
        }
        kept.withLock { $0.ended = true }
    }

    private static func keep(_ batch: RecordBatch, in kept: inout Kept, trendColumns: [Int], columnCount: Int) {
        guard batch.frameCount > 0, batch.columnCount == columnCount else { return }
        kept.batches.append(batch)
        kept.frames += batch.frameCount
        let channels = batch.channelNames.count
        let stride = channels * columnCount
        kept.latest = Array(batch.values[(batch.frameCount - 1) * stride..<batch.frameCount * stride])
        for frame in 0..<batch.frameCount {
            for (slot, column) in trendColumns.enumerated() {
                for channel in 0..<channels {
                    kept.trends[slot * channels + channel].append(
                        batch.values[frame * stride + channel * columnCount + column])
                }
            }
        }
    }

    /// The screen is open: it asked for values just now.
    func watched() {
        lastWatched.withLock { $0 = Date().timeIntervalSince1970 }
    }

    var secondsUnwatched: Double { Date().timeIntervalSince1970 - lastWatched.withLock { $0 } }

    /// The newest frame's values per channel, the frames so far and the seconds recorded.
    func latest() -> LiveValues {
        kept.withLock { kept in
            LiveValues(
                elapsed: Date().timeIntervalSince1970 - startedAt, frames: kept.frames,
                channels: channelNames.enumerated().map { channel, name in
                    let values =
                        kept.latest.isEmpty
                        ? [] : Array(kept.latest[channel * columns.count..<(channel + 1) * columns.count])
                    return LiveValues.Channel(name: name, values: values)
                }, columns: columns, ended: kept.ended, failure: kept.failure)
        }
    }

    /// The trend of `trendColumns[slot]` on `channel`, as SVG (SondePlots, as the live page draws).
    func trendSVG(slot: Int, channel: Int) -> String? {
        guard trendColumns.indices.contains(slot), channelNames.indices.contains(channel) else { return nil }
        let envelope = kept.withLock { $0.trends[slot * channelNames.count + channel] }
        let feature = columns[trendColumns[slot]]
        return TrendPlot(
            title: "\(feature), \(channelNames[channel])", envelope: envelope, secondsPerFrame: secondsPerFrame,
            width: 380, height: 170
        ).svg()
    }

    /// Ends the capture; every record already complete is kept.
    func stop() async -> [RecordBatch] {
        graph.stop()
        await running.withLock { $0 }?.value
        return kept.withLock { $0.batches }
    }

    /// Stops and hands the capture to `save` with its comment.
    func capture(comment: String) async -> (MeasurementCapture, [RecordBatch]) {
        let batches = await stop()
        let seconds = Date().timeIntervalSince1970 - startedAt
        let json = settings.json(
            rate: rate, version: version, extra: [.init("duration", .string(Self.duration(seconds)))]
        ).text
        return (
            MeasurementCapture(
                deviceID: deviceID, settings: json, comment: comment, channelNames: channelNames, columns: columns,
                recordedAt: startedAt),
            batches
        )
    }

    /// `12.3s`: the duration as `sonde measure --duration` spells it.
    static func duration(_ seconds: Double) -> String {
        String(format: "%.1fs", seconds)
    }
}

/// The New measurement screen's values, a few times a second.
struct LiveValues: Sendable, Equatable {
    struct Channel: Sendable, Equatable {
        var name: String
        /// One per column; empty before the first window.
        var values: [Double]
    }

    var elapsed: Double
    var frames: Int
    var channels: [Channel]
    var columns: [String]
    var ended: Bool
    var failure: String?
}
