import Foundation
import Hummingbird
import Logging
public import SondeCore
public import SondePipeline
import Synchronization

/// The HTTP server of `stream --serve`: `LiveRoutes` (the live page, its events, its
/// metrics) mounted at the root of a server of its own.
public final class LiveServer: Sendable {
    /// Where the page is, with the port actually bound (useful with port 0).
    public let url: String
    /// The page's routes and their feed; `publish` and the rest go there.
    public let live: LiveRoutes
    private let serving: Task<Void, Never>

    private init(url: String, live: LiveRoutes, serving: Task<Void, Never>) {
        self.url = url
        self.live = live
        self.serving = serving
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
        let live = LiveRoutes(columns: columns, droppedSamples: droppedSamples)
        let router = Router(context: LiveRequestContext.self)
        router.addRoutes(live.routes(context: LiveRequestContext.self))
        let bound = Bound()
        let connections = ConnectionLimit(limit: ConnectionLimit.budget(wanted: limits.maxConnections))
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
            await live.finish()
            throw SondeError(.invalidArgument, "--serve \(host):\(port): cannot listen there (\(error))")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return LiveServer(url: "http://\(shownHost):\(boundPort)/", live: live, serving: serving)
    }

    /// Give this to the graph (`PipelineGraph.Options.spectrumTap`) for the page's spectra.
    public var spectrumTap: any SpectrumTap { live.spectrumTap }

    /// Takes one batch of records (the exporter's thread).
    public func publish(_ batch: RecordBatch) {
        live.publish(batch)
    }

    /// One record latency, shared by `count` records (the channels of one frame).
    public func recordLatency(nanoseconds: UInt64, count: Int) {
        live.recordLatency(nanoseconds: nanoseconds, count: count)
    }

    /// Page updates dropped for clients that did not keep up.
    public var droppedUpdates: Int { live.droppedUpdates }

    /// Sends the last update and the end of the stream to every page, then closes the server.
    public func stop() async {
        await live.finish()
        // Pages read the end in a moment; a client that never reads is not waited for.
        try? await Task.sleep(for: .milliseconds(100))
        serving.cancel()
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
