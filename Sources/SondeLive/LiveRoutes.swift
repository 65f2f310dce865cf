public import Hummingbird
import NIOCore
public import SondeCore
public import SondePipeline
import Synchronization

/// The live page's routes and what feeds them: the page at `/`, its updates as Server-Sent
/// Events at `/events`, and `/metrics` for Prometheus. `stream --serve` mounts them at the
/// root of its own server (`LiveServer`); the web app can mount them under a prefix of its
/// router (the page finds its events relative to where it is served).
///
/// The stream only calls `publish` and `recordLatency`, which copy values under a short
/// lock; the page updates are composed on a timer (`updateInterval`) and queued per client
/// without waiting, so neither a fast record rate nor a stalled browser reaches the measurement.
public final class LiveRoutes: Sendable {
    /// How often the page's values are updated at most: records can come by the thousand
    /// per second, and a person reads a value a few times a second.
    public static let updateInterval = Duration.milliseconds(200)
    /// Every how many updates the figures are drawn again (once a second): drawing them
    /// costs far more than the values (about 100 KB of SVG for 4 channels) and shares the
    /// cores with the measurement.
    static let updatesPerFigure = 5

    private let feed: LiveFeed
    private let metrics = LiveMetrics()
    private let broadcast = LiveBroadcast()
    private let spectra = LatestSpectra()
    private let droppedSamples: @Sendable () -> Int
    private let ticking = Mutex<Task<Void, Never>?>(nil)

    /// Starts composing updates (every `updateInterval`) until `finish()`.
    /// - Parameters:
    ///   - columns: the records' value columns.
    ///   - droppedSamples: samples per channel the source has dropped so far (any thread).
    public init(columns: [String], droppedSamples: @escaping @Sendable () -> Int = { 0 }) {
        feed = LiveFeed(columns: columns)
        self.droppedSamples = droppedSamples
        let task = Task { [weak self] in
            var version = -1
            var ticks = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.updateInterval)
                guard let self else { return }
                version = self.sendUpdate(after: version, withFigures: ticks % Self.updatesPerFigure == 0)
                ticks += 1
            }
        }
        ticking.withLock { $0 = task }
    }

    /// The three routes, for a router of any context. A context that is a
    /// `LiveStreamingContext` bounds each event client's socket buffer.
    public func routes<Context: RequestContext>(context: Context.Type = Context.self) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let (feed, metrics, broadcast, droppedSamples) = (feed, metrics, broadcast, droppedSamples)
        routes.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: LivePage.html))
            )
        }
        routes.get("events") { _, context in
            (context as? any LiveStreamingContext)?.boundSendBuffer()
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody(asyncSequence: broadcast.subscribe())
            )
        }
        routes.get("metrics") { _, _ in
            let text = metrics.exposition(
                snapshot: feed.snapshot(), droppedSamples: droppedSamples(), droppedUpdates: broadcast.droppedUpdates
            )
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
            )
        }
        return routes
    }

    /// Give this to the graph (`PipelineGraph.Options.spectrumTap`) for the page's spectra.
    public var spectrumTap: any SpectrumTap { spectra }

    /// Takes one batch of records (the exporter's thread).
    public func publish(_ batch: RecordBatch) {
        feed.publish(batch)
    }

    /// One record latency, shared by `count` records (the channels of one frame).
    public func recordLatency(nanoseconds: UInt64, count: Int) {
        metrics.observeLatency(nanoseconds: nanoseconds, count: count)
    }

    /// Page updates dropped for clients that did not keep up.
    public var droppedUpdates: Int { broadcast.droppedUpdates }

    /// Stops the updates, then sends the last one and the end of the stream to every page.
    public func finish() async {
        let task = ticking.withLock { $0 }
        task?.cancel()
        await task?.value
        sendUpdate(after: -1, withFigures: true)
        broadcast.send(LiveUpdate.end)
        broadcast.finish()
    }

    /// Sends the feed's state if it changed since `version`; returns the version sent.
    @discardableResult
    private func sendUpdate(after version: Int, withFigures: Bool) -> Int {
        guard let snapshot = feed.snapshot(after: version) else { return version }
        let update = LiveUpdate(
            snapshot: snapshot, droppedSamples: droppedSamples(),
            trends: withFigures ? LiveFigures.trends(snapshot, step: feed.trendStep) : nil,
            spectrum: withFigures ? LiveFigures.spectra(spectra.snapshot()) : nil
        )
        broadcast.send(update.event(), hasFigures: withFigures)
        return snapshot.version
    }
}
