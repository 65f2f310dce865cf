import Foundation
import GRDB
import GRDBSQLite
import SondeAccounts
import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// sonde's embedded database: one SQLite file in WAL mode (readers never wait for the
/// writer, and a crash mid-transaction rolls back on the next open), migrated to the
/// latest schema when opened.
///
/// Several processes may use it at once: a writer waits up to `busyTimeout` for another
/// (every write is one `BEGIN IMMEDIATE` transaction, so no deadlock can form).
public final class SQLiteDatabase: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Seconds a write waits for another process's transaction before failing.
    public static let busyTimeout: Double = 30

    /// Opens (creating it and its directory, mode 0700, if missing) and migrates.
    /// - Throws: `SondeError(.io)` naming the file and SQLite's reason.
    public init(path: String) throws {
        self.path = path
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try PrivateFiles.makeDirectory(String(path[..<slash]))
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "sonde"
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // The WAL stays when the last connection closes: otherwise every command
            // recreated it, and GRDB's open wrote a transaction into the new one to make it
            // non-empty (a page write and fdatasyncs per `sonde whoami`), then the close
            // checkpointed and deleted it again.
            var persist: CInt = 1
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // Hashes and measurements are nobody else's business; -wal and -shm inherit it.
            chmod(path, 0o600)
            // Up to date, the usual case: a read says so, with no write transaction (which on
            // a WAL just recreated by the open costs a header write and an fdatasync).
            if try !pool.read({ db in try Self.migrator.hasCompletedMigrations(db) }) {
                try Self.migrator.migrate(pool)
                // A migration that rewrites every row leaves its pages in the kept WAL, where
                // reads then found them (a 10,000-line list: 36 -> 170 ms) until a checkpoint
                // emptied it. One that cannot finish now (another process reading) is left to
                // SQLite's own: the migration is committed either way.
                _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            }
        } catch {
            throw Self.failure(error, path: path, doing: "open")
        }
    }

    /// The migrations applied so far, oldest first.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try Self.migrator.appliedMigrations(db) }
    }

    /// The first column of every row of `sql`, as text: for tests that look at (or set
    /// back) what is stored, as `PostgresDatabase.texts` does, never for user input.
    package func texts(_ sql: String) throws -> [String?] {
        try pool.writeWithoutTransaction { db in try String?.fetchAll(db, sql: sql) }
    }

    /// `PRAGMA integrity_check` and `foreign_key_check` both clean.
    public func isConsistent() throws -> Bool {
        try pool.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            return integrity == ["ok"] && orphans.isEmpty
        }
    }

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE), turning SQLite errors into
    /// `SondeError(.io)`; other errors (`AccountError`...) pass through.
    func write<T: Sendable>(_ doing: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch let error as DatabaseError {
            throw Self.failure(error, path: path, doing: doing)
        }
    }

    func read<T: Sendable>(_ doing: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch let error as DatabaseError {
            throw Self.failure(error, path: path, doing: doing)
        }
    }

    static func failure(_ error: any Error, path: String, doing: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        return SondeError(.io, "database '\(path)': cannot \(doing): \(error.message ?? "\(error.resultCode)")")
    }
}
