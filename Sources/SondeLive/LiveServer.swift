import Foundation
import Hummingbird
import Logging
public import SondeCore
public import SondePipeline
import Synchronization

/// The HTTP side of `stream --serve`: the live page at `/`, its updates as Server-Sent
/// Events at `/events`, and `/metrics` for Prometheus.
///
/// The stream only calls `publish` and `recordLatency`, which copy values under a short
/// lock; the page updates are composed on a timer (`updateInterval`) and queued per client
/// without waiting, so neither a fast record rate nor a stalled browser reaches the measurement.
public final class LiveServer: Sendable {
    /// Where the page is, with the port actually bound (useful with port 0).
    public let url: String
    /// How often the page's values are updated at most: records can come by the thousand
    /// per second, and a person reads a value a few times a second.
    public static let updateInterval = Duration.milliseconds(200)
    /// Every how many updates the figures are drawn again (once a second): drawing them
    /// costs far more than the values (about 100 KB of SVG for 4 channels) and shares the
    /// cores with the measurement.
    static let updatesPerFigure = 5

    private let feed: LiveFeed
    private let metrics: LiveMetrics
    private let broadcast: LiveBroadcast
    private let spectra = LiveSpectra()
    private let droppedSamples: @Sendable () -> Int
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private init(
        url: String, feed: LiveFeed, metrics: LiveMetrics, broadcast: LiveBroadcast,
        droppedSamples: @escaping @Sendable () -> Int
    ) {
        self.url = url
        self.feed = feed
        self.metrics = metrics
        self.broadcast = broadcast
        self.droppedSamples = droppedSamples
    }

    /// What one client may hold of the server (docs/live.md).
    public struct Limits: Sendable {
        /// A connection must send a whole request head this soon after it opens or after
        /// its last response (Hummingbird's idle timeout); a streaming `/events` response
        /// is not cut. A client that never ends its headers is closed.
        public var headerTimeout: Duration
        /// Open connections at most; beyond, a request is answered 503 and closed.
        public var maxConnections: Int

        public init(headerTimeout: Duration = .seconds(10), maxConnections: Int = 256) {
            self.headerTimeout = headerTimeout
            self.maxConnections = maxConnections
        }
    }

    /// Binds `host:port` and serves until `stop()`.
    /// - Parameters:
    ///   - host: an address to listen on (127.0.0.1 keeps the page on this machine).
    ///   - port: 0 to 65535; 0 picks a free port (see `url`).
    ///   - columns: the records' value columns.
    ///   - limits: the header timeout and the connection cap.
    ///   - droppedSamples: samples per channel the source has dropped so far (any thread).
    /// - Throws: `SondeError(.invalidArgument)` when the address cannot be bound.
    public static func start(
        host: String, port: Int, columns: [String], limits: Limits = Limits(),
        droppedSamples: @escaping @Sendable () -> Int = { 0 }
    ) async throws -> LiveServer {
        let feed = LiveFeed(columns: columns)
        let metrics = LiveMetrics()
        let broadcast = LiveBroadcast()
        let router = Router(context: LiveRequestContext.self)
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: LivePage.html))
            )
        }
        router.get("events") { _, context in
            context.boundSendBuffer()
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody(asyncSequence: broadcast.subscribe())
            )
        }
        router.get("metrics") { _, _ in
            let text = metrics.exposition(
                snapshot: feed.snapshot(), droppedSamples: droppedSamples(), droppedUpdates: broadcast.droppedUpdates
            )
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
            )
        }
        let bound = Bound()
        let connections = LiveConnectionLimit(limit: limits.maxConnections)
        let timeout = limits.headerTimeout.components
        let application = Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: connections.handlers(),
                    idleTimeout: .nanoseconds(timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in bound.resume(with: .success(channel.localAddress?.port ?? port)) },
            // swift-log's default handler writes to stdout, which carries the records.
            logger: Logger(label: "sonde.live") { _ in SwiftLogNoOpLogHandler() }
        )
        let serving = Task {
            do {
                try await application.run()
            } catch {
                bound.resume(with: .failure(error))
            }
        }
        let boundPort: Int
        do {
            boundPort = try await bound.port()
        } catch {
            serving.cancel()
            throw SondeError(.invalidArgument, "--serve \(host):\(port): cannot listen there (\(error))")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let server = LiveServer(
            url: "http://\(shownHost):\(boundPort)/", feed: feed, metrics: metrics, broadcast: broadcast,
            droppedSamples: droppedSamples
        )
        let ticking = Task { await server.tick() }
        server.tasks.withLock { $0 = [serving, ticking] }
        return server
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

    /// Sends the last update and the end of the stream to every page, then closes the server.
    public func stop() async {
        let running = tasks.withLock { $0 }
        running.last?.cancel()
        await running.last?.value
        sendUpdate(after: -1, withFigures: true)
        broadcast.send(LiveUpdate.end)
        broadcast.finish()
        // Pages read the end in a moment; a client that never reads is not waited for.
        try? await Task.sleep(for: .milliseconds(100))
        running.first?.cancel()
    }

    /// Composes an update from the feed every `updateInterval` while there is something new.
    private func tick() async {
        var version = -1
        var ticks = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.updateInterval)
            version = sendUpdate(after: version, withFigures: ticks % Self.updatesPerFigure == 0)
            ticks += 1
        }
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

/// The port the server bound, or why it could not, handed from its start-up to `start`.
private final class Bound: Sendable {
    private let state = Mutex<(result: Result<Int, any Error>?, waiter: CheckedContinuation<Int, any Error>?)>(
        (nil, nil))

    func resume(with result: Result<Int, any Error>) {
        let waiter: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
