import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SondeAccounts
import SondeCapture
import SondeCore
import SondeKit
import SondeLive
import SondeMeasurements
import SondePipeline

/// `sonde serve`: the app's screens over the same account, measurement and device services
/// the commands use, for any number of users at once.
public final class AppServer: Sendable {
    /// Where the app is, with the port actually bound (useful with port 0).
    public let url: String
    private let serving: Task<Void, Never>
    private let captures: any CaptureService

    private init(url: String, serving: Task<Void, Never>, captures: any CaptureService) {
        self.url = url
        self.serving = serving
        self.captures = captures
    }

    /// Opens the services (creating and migrating the database if needed) and listens.
    /// - Throws: `SondeError` when the database cannot be opened or the address bound.
    public static func start(_ configuration: AppConfiguration) async throws -> AppServer {
        // A file-size limit (`ulimit -f`) reached while writing a draft or a journal would
        // end the process by SIGXFSZ, losing every running capture; ignored, the write fails
        // with EFBIG instead, which the drafts report and retry like a full disk.
        signal(SIGXFSZ, SIG_IGN)
        let address = PublicAddress()
        let environment = try makeEnvironment(configuration, address: address)
        let router = AppRouter(environment: environment).make()
        let (ready, readyContinuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let connections = ConnectionLimit(
            limit: ConnectionLimit.budget(wanted: configuration.maxConnections),
            perClientLimit: configuration.maxConnectionsPerClient, exempt: Set(configuration.trustedProxies))
        let timeout = configuration.headerTimeout.components
        let application = Application(
            responder: HeadResponder(base: router.buildResponder()),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: connections.handlers(),
                    idleTimeout: .nanoseconds(timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            services: backgroundServices(environment),
            onServerRunning: { channel in
                readyContinuation.yield(.success(channel.localAddress?.port ?? configuration.port))
            },
            // swift-log's default handler writes to stdout; the app's lines go to stderr.
            logger: Logger(label: "sonde.app") { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = .warning
                return handler
            }
        )
        let serving = Task {
            do {
                try await application.run()
            } catch {
                readyContinuation.yield(.failure(error))
            }
            readyContinuation.finish()
        }
        var port: Int?
        for await result in ready {
            switch result {
            case .success(let bound): port = bound
            case .failure(let error):
                throw SondeError(
                    .invalidArgument,
                    "--listen \(configuration.host):\(configuration.port): cannot listen there (\(error)); choose another port or address"
                )
            }
            break
        }
        guard let port else {
            throw SondeError(
                .invalidArgument, "--listen \(configuration.host):\(configuration.port): the server stopped")
        }
        let url = "http://\(Self.linkHost(configuration.host)):\(port)/"
        address.settle(configuration.publicURL ?? url)
        return AppServer(url: url, serving: serving, captures: environment.captures)
    }

    /// What runs beside the listener in the server's service group: the tick that draws the
    /// New measurement screen's trends and keeps every capture that ended by itself (its
    /// limit, a device failure) as a draft.
    static func backgroundServices(_ environment: AppEnvironment) -> [any Service] {
        [CaptureTick(captures: environment.captures, interval: .milliseconds(Int(InstrumentCaptures.trendStep * 1000)))]
    }

    /// The host a link names for a listening address: a wildcard (`0.0.0.0`, `::`) is no
    /// address anyone can open, so links name this machine's host name instead (a reset link
    /// had pointed at `http://0.0.0.0:PORT`); `--public-url` overrides both.
    static func linkHost(_ listening: String) -> String {
        if listening == "0.0.0.0" || listening == "::" || listening == "[::]" {
            return ProcessInfo.processInfo.hostName
        }
        return listening.contains(":") ? "[\(listening)]" : listening
    }

    /// Waits until the server stops (it runs until the process ends).
    public func wait() async {
        await serving.value
    }

    /// Keeps every capture still recording as a draft (nothing recorded is lost to a
    /// restart), then stops serving (the tick with it).
    public func stop() async {
        await captures.stopAll(reason: "the server stopped")
        serving.cancel()
        await serving.value
    }

    static func makeEnvironment(_ configuration: AppConfiguration, address: PublicAddress) throws -> AppEnvironment {
        // The services every command opens (`LocalServices`), with the server's profile: a
        // connection pool, at most `concurrentLogins` password hashes at once with a bounded
        // wait and queue (a login past them is answered 503), reset links to this app.
        let services = try LocalServices.open(
            .server(
                .init(
                    concurrentHashes: configuration.concurrentLogins,
                    hashWait: .milliseconds(Int(configuration.loginWaitSeconds * 1000)),
                    hashQueue: configuration.loginQueue,
                    resetPage: { address.page(AppRoute.resetPassword(token: nil).path) })),
            environment: configuration.environment, database: configuration.database)
        let home = services.home
        let accounts = WebAccounts(service: services.authentication)
        let measurements = WebMeasurements(
            service: services.measurements,
            parquet: configuration.parquet, reportTrends: configuration.reportTrends,
            madeBy: "sonde \(configuration.version)",
            // One export per core at once, 2 at least: each holds a measurement's records
            // (9 MB for 10 minutes at 25.6 kHz); the rest wait their turn.
            slots: ExportSlots(limit: max(2, configuration.concurrentLogins)))
        // Pairing belongs to the machine: the pairing file `sonde device pair` writes.
        let captures = InstrumentCaptures(
            instrument: services.instrument,
            drafts: try CaptureDrafts(directory: URL(fileURLWithPath: home.draftsDirectory)),
            options: CaptureOptions(jobs: 2, version: configuration.version),
            longestSeconds: configuration.longestCaptureSeconds,
            // `sonde device release` asks beside the pairing file.
            release: DeviceReleaseRequest(directory: URL(fileURLWithPath: home.configDirectory)))
        return AppEnvironment(
            accounts: accounts, measurements: measurements, captures: captures, configuration: configuration)
    }
}
