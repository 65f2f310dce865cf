import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements
import SondeStore

/// The services the account and measurement commands use, as protocols: `live` wires the
/// real ones (SQLite under `SondeHome`, the session file, the outbox); a test or another
/// backend substitutes its own.
struct Services: Sendable {
    var home: SondeHome
    var authentication: any AuthenticationService
    var measurements: any MeasurementService

    /// Opens (creating and migrating it if needed) the database the environment points at.
    /// - Parameters:
    ///   - environment: `SONDE_HOME`, `XDG_*`, `HOME`, `SONDE_SCRYPT_LOG_N` are read.
    ///   - afterBatchInserted: for crash tests only; see `SQLiteMeasurementStore`.
    static func live(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        afterBatchInserted: (@Sendable (Int) -> Void)? = nil
    ) throws -> Services {
        let home = try SondeHome(environment: environment)
        let database = try SQLiteDatabase(path: home.databasePath)
        let authentication = LocalAuthenticationService(
            store: SQLiteUserSessionStore(database: database),
            credentials: SessionFile(path: home.sessionFilePath),
            mailer: OutboxMailer(directory: home.outboxDirectory),
            hasher: PasswordHasher(parameters: try ScryptParameters.fromEnvironment(environment))
        )
        let measurements = LocalMeasurementService(
            store: SQLiteMeasurementStore(database: database, afterBatchInserted: afterBatchInserted),
            authentication: authentication
        )
        return Services(home: home, authentication: authentication, measurements: measurements)
    }
}
