public import SondeIO
public import SondeKit

/// How `sonde serve` runs the app: where it listens, how cookies are marked, its limits.
/// The export defaults (Parquet options, the footer's version, the report's trends) are
/// SondeKit's `ExportDefaults`, the ones every command uses; a test may override them.
public struct AppConfiguration: Sendable {
    /// An address to listen on; 127.0.0.1 keeps the app on this machine.
    public var host: String
    /// 0 picks a free port (see `AppServer.url`).
    public var port: Int
    /// Marks the session cookie `Secure`: set it when a TLS reverse proxy serves the app
    /// (the browser then never sends the cookie over plain HTTP).
    public var secureCookies: Bool
    /// The environment the services read (`SONDE_HOME`, `SONDE_SCRYPT_LOG_N`, ...).
    public var environment: [String: String]
    /// What `sonde measurements export` writes into a Parquet footer (`sonde.version`).
    public var parquet: ParquetWriterOptions
    /// `sonde.version` for the settings saved with a measurement.
    public var version: String
    /// The columns a measurement's report page draws over time (`sonde report`'s default).
    public var reportTrends: [String]
    /// Logins hashed at once (each Argon2id hash takes 19 MiB).
    public var concurrentLogins: Int
    /// Seconds a login waits for a free hashing slot before it is answered 503 with Retry-After.
    public var loginWaitSeconds: Double
    /// Logins that may wait for a hashing slot at once; the next is answered 503 at once.
    public var loginQueue: Int
    /// A connection must send a whole request head this soon after it opens or after its
    /// last response; one that never does is closed (a client cannot hold a socket).
    public var headerTimeout: Duration
    /// Open connections at most; past that a request is answered 503 and closed, so
    /// file descriptors and memory stay bounded.
    public var maxConnections: Int
    /// The longest capture, in seconds: it stops recording then and waits as a draft.
    public var longestCaptureSeconds: Double
    /// `--database`: `sqlite:PATH` or `postgres://...`; nil: `SONDE_DATABASE_URL`, else the
    /// SQLite file under `SONDE_HOME` (what every command opens).
    public var database: String?
    /// `--public-url`: where people open the app (behind a reverse proxy, its address), for
    /// the link in a reset message; nil: the address the server listens on.
    public var publicURL: String?
    /// `--trusted-proxy`: addresses of reverse proxies whose `X-Forwarded-For` names the
    /// client (for the failed-login locks and the rate limits); from anyone else the header
    /// is ignored, since a client can write it.
    public var trustedProxies: [String]
    /// Connections one client address may hold open (a trusted proxy is exempt): one
    /// address opening thousands of half-sent requests cannot take every slot.
    public var maxConnectionsPerClient: Int

    public init(
        host: String = "127.0.0.1", port: Int = 8080, secureCookies: Bool = false, environment: [String: String],
        parquet: ParquetWriterOptions = ExportDefaults.parquet(), version: String = ExportDefaults.version,
        reportTrends: [String] = ExportDefaults.reportTrends, concurrentLogins: Int = 2,
        loginWaitSeconds: Double = 10, longestCaptureSeconds: Double = 600, headerTimeout: Duration = .seconds(10),
        maxConnections: Int = 1024, maxConnectionsPerClient: Int = 128, loginQueue: Int = 64,
        database: String? = nil, publicURL: String? = nil, trustedProxies: [String] = []
    ) {
        self.trustedProxies = trustedProxies
        self.loginQueue = loginQueue
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.database = database
        self.publicURL = publicURL
        self.host = host
        self.port = port
        self.secureCookies = secureCookies
        self.environment = environment
        self.parquet = parquet
        self.version = version
        self.reportTrends = reportTrends
        self.concurrentLogins = concurrentLogins
        self.loginWaitSeconds = loginWaitSeconds
        self.longestCaptureSeconds = longestCaptureSeconds
        self.headerTimeout = headerTimeout
        self.maxConnections = maxConnections
    }
}
