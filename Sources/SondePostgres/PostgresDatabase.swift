import Logging
import PostgresNIO
import SondeCore
import SondeStoreFormat

/// A lab's shared database: a PostgreSQL server, reached through postgres-nio's pooled
/// `PostgresClient` (a server) or one `PostgresConnection` (a command), migrated to the
/// latest schema before the first query runs.
///
/// Opening is lazy so that a command can be wired without waiting: the first operation
/// waits for one connection to be made (within the URL's `connect_timeout`) and the
/// migrations to run, and fails with one line naming the server and what went wrong.
/// Several processes may start at once: migrations run under an advisory lock.
public final class PostgresDatabase: Sendable {
    public let location: PostgresLocation
    /// The pool (`maximumConnections` above 1), or nil: one connection, the one opened to
    /// migrate, serves every operation in turn. A command makes a few queries one after
    /// another; a second connection (its SCRAM handshake and server process) was a tenth
    /// of a 10,000-line list.
    private let pool: (client: PostgresClient, runner: Task<Void, Never>)?
    /// The migrating connection: kept without a pool, closed with a pool.
    private let ready: Task<PostgresConnection?, any Error>
    private let turns = OneAtATime()

    /// postgres-nio logs nothing of sonde's through this logger: errors are thrown instead.
    static let logger = Logger(label: "sonde.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// - Parameters:
    ///   - maximumConnections: the pool's size; each concurrent operation holds one.
    ///     1: no pool, the first connection kept (a command's way).
    ///   - keptOpen: connections the pool opens at once and keeps (a server's): opening one
    ///     costs a server process and a SCRAM exchange, which a burst of requests after a
    ///     quiet minute would otherwise wait for (`Benchmarks/app/load.py`: browsing p99
    ///     107-129 ms on PostgreSQL with the pool opened on demand, 55-64 ms warm, in most runs).
    /// - Throws: `SondeError(.invalidArgument)` when the TLS set-up of `sslmode` fails.
    public init(location: PostgresLocation, maximumConnections: Int = 16, keptOpen: Int = 0) throws {
        self.location = location
        let tls = try PostgresTLS(location: location)
        if maximumConnections > 1 {
            var configuration = PostgresClient.Configuration(
                host: location.host, port: location.port, username: location.user, password: location.password,
                database: location.database, tls: tls.client
            )
            configuration.options.connectTimeout = .milliseconds(Int64(location.connectTimeout * 1000))
            configuration.options.maximumConnections = maximumConnections
            configuration.options.minimumConnections = min(max(0, keptOpen), maximumConnections)
            let client = PostgresClient(configuration: configuration)
            pool = (client, Task { await client.run() })
        } else {
            pool = nil
        }
        var first = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls.connection
        )
        first.options.connectTimeout = .milliseconds(Int64(location.connectTimeout * 1000))
        let keep = pool == nil
        ready = Task { [first] in try await Self.prepare(location: location, configuration: first, keep: keep) }
    }

    /// Opens the database and waits until it is connected and migrated.
    public static func open(
        location: PostgresLocation, maximumConnections: Int = 16
    ) async throws
        -> PostgresDatabase
    {
        let database = try PostgresDatabase(location: location, maximumConnections: maximumConnections)
        _ = try await database.ready.value
        return database
    }

    deinit {
        pool?.runner.cancel()
        ready.cancel()
        // The kept connection, closed without waiting (a process that exits closes it too).
        let ready = ready
        Task { _ = try? await ready.value?.close() }
    }

    /// The migrations applied so far, by number, oldest first.
    public func appliedMigrations() async throws -> [Int] {
        try await withConnection("read the schema version") { connection in
            try await connection.query("SELECT version FROM schema_migrations ORDER BY version", logger: Self.logger)
                .collect().map { try $0.decode(Int.self) }
        }
    }

    /// Runs `body` on a pooled connection, turning PostgreSQL's errors into `SondeError(.io)`
    /// that name the server; other errors (`AccountError`...) pass through.
    @discardableResult
    func withConnection<T: Sendable>(
        _ doing: String, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let kept = try await ready.value
        do {
            if let pool { return try await pool.client.withConnection { connection in try await body(connection) } }
            guard let kept else { throw SondeError(.io, "database \(location): no connection") }
            return try await turns.run { try await body(kept) }
        } catch let error as PSQLError {
            throw PostgresFailure.error(error, location: location, doing: doing)
        }
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    /// - Parameter isolation: `REPEATABLE READ` gives several reads one snapshot.
    @discardableResult
    func transaction<T: Sendable>(
        _ doing: String, isolation: String = "READ COMMITTED", _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection(doing) { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(isolation)"), logger: Self.logger)
            do {
                let result = try await body(connection)
                try await connection.query("COMMIT", logger: Self.logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: Self.logger)
                throw error
            }
        }
    }

    /// Connects once (bounded by `connect_timeout`, also while the server is silent after
    /// the TCP handshake), migrates, and disconnects unless `keep`: a refused connection, a
    /// missing database or a wrong password is an error here rather than a pool retrying
    /// forever.
    private static func prepare(
        location: PostgresLocation, configuration: PostgresConnection.Configuration, keep: Bool
    )
        async throws -> PostgresConnection?
    {
        let connection: PostgresConnection
        do {
            connection = try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
                group.addTask {
                    try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(location.connectTimeout * 1000)))
                    return nil
                }
                defer { group.cancelAll() }
                guard let connection = try await group.next() ?? nil else {
                    throw PostgresFailure.timedOut(location: location)
                }
                return connection
            }
        } catch let error as PSQLError {
            throw PostgresFailure.error(error, location: location, doing: "connect")
        }
        do {
            try await migrate(connection, location: location)
            if keep { return connection }
            try await connection.close()
            return nil
        } catch {
            try? await connection.close()
            if let error = error as? PSQLError {
                throw PostgresFailure.error(error, location: location, doing: "migrate the schema")
            }
            throw error
        }
    }
}
