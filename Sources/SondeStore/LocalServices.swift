public import Foundation
public import SondeAccounts
public import SondeCore
public import SondeMeasurements

/// The account and measurement services on this machine's files: SQLite under
/// `SondeHome`, the session file, the outbox. One wiring for the CLI, its test tools and
/// the web app (which keeps its sessions in cookies and leaves `session` unused).
public struct LocalServices: Sendable {
    public var home: SondeHome
    public var authentication: any AuthenticationService
    /// The CLI's one session, kept in `home.sessionFilePath`.
    public var session: SessionFileClient
    public var measurements: any MeasurementService

    /// Opens (creating and migrating it if needed) the database the environment points at.
    /// - Parameters:
    ///   - environment: `SONDE_HOME`, `XDG_*`, `HOME`, `SONDE_SCRYPT_LOG_N`, `SONDE_DATABASE_URL`
    ///     (and `PGPASSWORD`, `PGPASSFILE` for PostgreSQL) are read.
    ///   - database: `--database`: `sqlite:PATH` or `postgres://...` (`StoreURL`); nil:
    ///     `SONDE_DATABASE_URL`, else the SQLite file under `SondeHome`.
    public static func open(
        environment: [String: String] = ProcessInfo.processInfo.environment, database: String? = nil
    ) throws -> LocalServices {
        try open(environment: environment, database: database, afterBatchInserted: nil)
    }

    /// - Parameter afterBatchInserted: for the crash tests' save loop only; see
    ///   `SQLiteMeasurementStore`.
    package static func open(
        environment: [String: String], database: String? = nil, afterBatchInserted: (@Sendable (Int) -> Void)?
    ) throws -> LocalServices {
        let home = try SondeHome(environment: environment)
        let url = try StoreURL.resolve(option: database, defaultSQLitePath: home.databasePath, environment: environment)
        // A command's operations come one after another: one PostgreSQL connection.
        let stores = try StoreFactory.open(url, postgresConnections: 1, afterBatchInserted: afterBatchInserted)
        let authentication = LocalAuthenticationService(
            store: stores.users,
            mailer: OutboxMailer(directory: home.outboxDirectory),
            hasher: PasswordHasher(parameters: try ScryptParameters.fromEnvironment(environment))
        )
        let session = SessionFileClient(
            service: authentication, credentials: SessionFile(path: home.sessionFilePath))
        let measurements = LocalMeasurementService(
            store: stores.measurements)
        return LocalServices(
            home: home, authentication: authentication, session: session, measurements: measurements)
    }
}
