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
    /// - Parameter environment: `SONDE_HOME`, `XDG_*`, `HOME`, `SONDE_SCRYPT_LOG_N` are read.
    public static func open(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LocalServices
    {
        try open(environment: environment, afterBatchInserted: nil)
    }

    /// - Parameter afterBatchInserted: for the crash tests' save loop only; see
    ///   `SQLiteMeasurementStore`.
    package static func open(
        environment: [String: String], afterBatchInserted: (@Sendable (Int) -> Void)?
    ) throws -> LocalServices {
        let home = try SondeHome(environment: environment)
        let database = try SQLiteDatabase(path: home.databasePath)
        let authentication = LocalAuthenticationService(
            store: SQLiteUserSessionStore(database: database),
            mailer: OutboxMailer(directory: home.outboxDirectory),
            hasher: PasswordHasher(parameters: try ScryptParameters.fromEnvironment(environment))
        )
        let session = SessionFileClient(
            service: authentication, credentials: SessionFile(path: home.sessionFilePath))
        let measurements = LocalMeasurementService(
            store: SQLiteMeasurementStore(database: database, afterBatchInserted: afterBatchInserted))
        return LocalServices(
            home: home, authentication: authentication, session: session, measurements: measurements)
    }
}
