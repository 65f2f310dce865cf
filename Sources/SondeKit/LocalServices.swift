public import Foundation
public import SondeAccounts
public import SondeCapture
public import SondeCore
public import SondeMeasurements
public import SondePipeline
import SondeStore

/// The account, measurement and device services on this machine's files: the store the
/// environment or `--database` names, the session file, the outbox, the pairing file.
/// The one place concrete services are wired, for every command, the web app and the
/// test tools (the app keeps its sessions in cookies and leaves `session` unused); a test
/// or another backend substitutes its own behind the same protocols.
public struct LocalServices: Sendable {
    public var home: SondeHome
    public var authentication: any AuthenticationService
    /// The CLI's one session, kept in `home.sessionFilePath`.
    public var session: SessionFileClient
    public var measurements: any MeasurementService
    /// The lab's one instrument, paired in `home.configDirectory`.
    public var instrument: Instrument

    /// Opens (creating and migrating it if needed) the database the environment points at.
    /// - Parameters:
    ///   - profile: a command's or the server's connections, hashing and reset messages.
    ///   - environment: `SONDE_HOME`, `XDG_*`, `HOME`, `SONDE_SCRYPT_LOG_N`, `SONDE_DATABASE_URL`
    ///     (and `PGPASSWORD`, `PGPASSFILE` for PostgreSQL) are read.
    ///   - database: `--database`: `sqlite:PATH` or `postgres://...` (`StoreURL`); nil:
    ///     `SONDE_DATABASE_URL`, else the SQLite file under `SondeHome`.
    /// - Throws: `SondeError` when the home, the store or the test's hash cost is unusable.
    public static func open(
        _ profile: ServiceProfile = .command, environment: [String: String] = ProcessInfo.processInfo.environment,
        database: String? = nil
    ) throws -> LocalServices {
        try open(profile, environment: environment, database: database, afterBatchInserted: nil)
    }

    /// - Parameter afterBatchInserted: for the crash tests' save loop only; see
    ///   `SQLiteMeasurementStore`.
    package static func open(
        _ profile: ServiceProfile = .command, environment: [String: String], database: String? = nil,
        afterBatchInserted: (@Sendable (Int) -> Void)?
    ) throws -> LocalServices {
        let home = try SondeHome(environment: environment)
        let url = try StoreURL.resolve(option: database, defaultSQLitePath: home.databasePath, environment: environment)
        let stores = try StoreFactory.open(
            url, postgresConnections: profile.postgresConnections, postgresKeptOpen: profile.postgresKeptOpen,
            afterBatchInserted: afterBatchInserted)
        let parameters = try PasswordCost.fromEnvironment(environment)
        let hasher: PasswordHasher
        let mailer: OutboxMailer
        switch profile {
        case .command:
            hasher = PasswordHasher(parameters: parameters)
            mailer = OutboxMailer(directory: home.outboxDirectory)
        case .server(let limits):
            // One hasher for the process: at most `concurrentHashes` hashes (Argon2id's 19 MiB
            // each) at once; up to `hashQueue` more wait their turn (a waiter holds no
            // memory), and one that waits longer than `hashWait`, or finds the queue full,
            // is refused. 20 logins at once on 2 cores all pass (issue 44, item 9).
            hasher = PasswordHasher(
                parameters: parameters, maxConcurrentHashes: limits.concurrentHashes, waitLimit: limits.hashWait,
                queueLimit: limits.hashQueue)
            mailer = OutboxMailer(directory: home.outboxDirectory, resetPage: limits.resetPage)
        }
        let authentication = LocalAuthenticationService(store: stores.users, mailer: mailer, hasher: hasher)
        let session = SessionFileClient(service: authentication, credentials: SessionFile(path: home.sessionFilePath))
        return LocalServices(
            home: home, authentication: authentication, session: session,
            measurements: LocalMeasurementService(store: stores.measurements),
            instrument: Instrument(connection: deviceConnection(home: home)))
    }

    /// The pairing of this machine, without opening the store (`sonde device` needs no
    /// database): the file `sonde device pair` writes in the configuration directory
    /// (`$SONDE_HOME` when set, else `$XDG_CONFIG_HOME/sonde`, else `~/.config/sonde`).
    /// - Throws: `SondeError` when no home directory can be found.
    public static func deviceConnection(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any DeviceConnectionService {
        deviceConnection(home: try SondeHome(environment: environment))
    }

    private static func deviceConnection(home: SondeHome) -> any DeviceConnectionService {
        FileDeviceConnection(directory: URL(fileURLWithPath: home.configDirectory))
    }
}
