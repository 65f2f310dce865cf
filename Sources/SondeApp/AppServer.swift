import Foundation
import Hummingbird
import Logging
import SondeAccounts
import SondeCapture
import SondeCore
import SondeLive
import SondeMeasurements
import SondePipeline
import SondeStore

/// `sonde serve`: the app's screens over the same account, measurement and device services
/// the commands use, for any number of users at once.
public final class AppServer: Sendable {
    /// Where the app is, with the port actually bound (useful with port 0).
    public let url: String
    private let serving: Task<Void, Never>
    private let watching: Task<Void, Never>
    private let captures: CaptureScreens

    private init(url: String, serving: Task<Void, Never>, watching: Task<Void, Never>, captures: CaptureScreens) {
        self.url = url
        self.serving = serving
        self.watching = watching
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
        // The New measurement screen's trends, and every capture that ended by itself (its
        // limit, a device failure) kept as a draft.
        let captures = environment.captures
        let watching = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int(CaptureScreens.trendStep * 1000)))
                await captures.tick()
            }
        }
        let url = "http://\(Self.linkHost(configuration.host)):\(port)/"
        address.settle(configuration.publicURL ?? url)
        return AppServer(url: url, serving: serving, watching: watching, captures: captures)
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
    /// restart), then stops serving.
    public func stop() async {
        await captures.stopAll(reason: "the server stopped")
        watching.cancel()
        serving.cancel()
        await serving.value
    }

    static func makeEnvironment(_ configuration: AppConfiguration, address: PublicAddress) throws -> AppEnvironment {
        let home = try SondeHome(environment: configuration.environment)
        // The store every command opens: SQLite under SONDE_HOME, or the lab's PostgreSQL.
        let stores = try StoreFactory.open(
            StoreURL.resolve(
                option: configuration.database, defaultSQLitePath: home.databasePath,
                environment: configuration.environment))
        // One hasher for the process: at most `concurrentLogins` scrypt hashes (128 MiB each)
        // at once; up to `loginQueue` more wait their turn (a waiter holds no memory), and a
        // login that waits longer than `loginWaitSeconds`, or finds the queue full, is
        // answered 503. 20 logins at once on 2 cores all pass (issue 44, item 9).
        let hasher = PasswordHasher(
            parameters: try ScryptParameters.fromEnvironment(configuration.environment),
            maxConcurrentHashes: configuration.concurrentLogins,
            waitLimit: .milliseconds(Int(configuration.loginWaitSeconds * 1000)),
            queueLimit: configuration.loginQueue)
        let accounts = WebAccounts(
            service: LocalAuthenticationService(
                store: stores.users,
                mailer: OutboxMailer(
                    directory: home.outboxDirectory,
                    resetPage: { address.page(AppRoute.resetPassword(token: nil).path) }),
                hasher: hasher))
        let measurements = WebMeasurements(
            service: LocalMeasurementService(store: stores.measurements),
            parquet: configuration.parquet, reportTrends: configuration.reportTrends,
            madeBy: "sonde \(configuration.version)",
            // One export per core at once, 2 at least: each holds a measurement's records
            // (9 MB for 10 minutes at 25.6 kHz); the rest wait their turn.
            slots: ExportSlots(limit: max(2, configuration.concurrentLogins)))
        // Pairing belongs to the machine: the pairing file `sonde device pair` writes.
        let instrument = Instrument(
            connection: FileDeviceConnection(directory: URL(fileURLWithPath: home.configDirectory)))
        let captures = CaptureScreens(
            instrument: instrument, drafts: try CaptureDrafts(directory: URL(fileURLWithPath: home.draftsDirectory)),
            options: CaptureOptions(jobs: 2, version: configuration.version),
            longestSeconds: configuration.longestCaptureSeconds,
            // `sonde device release` asks beside the pairing file.
            release: DeviceReleaseRequest(directory: URL(fileURLWithPath: home.configDirectory)))
        return AppEnvironment(
            accounts: accounts, measurements: measurements, captures: captures, configuration: configuration)
    }
}
