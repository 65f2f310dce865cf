public import SondeAccounts
public import SondeMeasurements
import SondePostgres
import SondeSQLite
package import SondeStoreFormat

/// Opens the account and measurement stores a `StoreURL` names: SQLite (GRDB) or
/// PostgreSQL (postgres-nio), behind the same protocols, so nothing above them knows which.
public enum StoreFactory {
    /// SQLite is opened and migrated here; PostgreSQL connects and migrates before its first
    /// operation, which fails with the server's name and reason (never waits past
    /// `connect_timeout`).
    /// - Throws: `SondeError(.io)` for a SQLite file that cannot be opened,
    ///   `SondeError(.invalidArgument)` for a PostgreSQL TLS set-up that fails.
    public static func open(_ url: StoreURL) throws -> (users: any UserSessionStore, measurements: any MeasurementStore)
    {
        try open(url, afterBatchInserted: nil)
    }

    /// - Parameters:
    ///   - postgresConnections: PostgreSQL's pool size; 1 (a command's) keeps the first
    ///     connection for every operation instead of a pool.
    ///   - postgresKeptOpen: of those, how many are opened at once and kept (a server's).
    ///   - afterBatchInserted: SQLite only, for the crash tests' save loop.
    package static func open(
        _ url: StoreURL, postgresConnections: Int = 16, postgresKeptOpen: Int = 0,
        afterBatchInserted: (@Sendable (Int) -> Void)?
    ) throws -> (
        users: any UserSessionStore, measurements: any MeasurementStore
    ) {
        switch url {
        case .sqlite(let path):
            let database = try SQLiteDatabase(path: path)
            return (
                SQLiteUserSessionStore(database: database),
                SQLiteMeasurementStore(database: database, afterBatchInserted: afterBatchInserted)
            )
        case .postgres(let location):
            let database = try PostgresDatabase(
                location: location, maximumConnections: postgresConnections, keptOpen: postgresKeptOpen)
            return (PostgresUserSessionStore(database: database), PostgresMeasurementStore(database: database))
        }
    }
}

extension StoreFactory {
    /// One side of `sonde store copy`: the engine's copying access and its measurement store.
    package struct CopyEnd: Sendable {
        package var url: StoreURL
        package var copyable: any CopyableStore
        package var measurements: any MeasurementStore
    }

    /// Opens a database for copying, connected and migrated before it returns.
    package static func openForCopy(_ url: StoreURL) async throws -> CopyEnd {
        switch url {
        case .sqlite(let path):
            let database = try SQLiteDatabase(path: path)
            return CopyEnd(url: url, copyable: database, measurements: SQLiteMeasurementStore(database: database))
        case .postgres(let location):
            let database = try await PostgresDatabase.open(location: location)
            return CopyEnd(url: url, copyable: database, measurements: PostgresMeasurementStore(database: database))
        }
    }
}
