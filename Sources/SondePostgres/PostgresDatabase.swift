import Logging
import PostgresNIO
import SondeCore
public import SondeStoreFormat

/// A lab's shared database: a PostgreSQL server, reached through postgres-nio's pooled
/// `PostgresClient`, migrated to the latest schema before the first query runs.
///
/// Opening is lazy so that a command can be wired without waiting: the first operation
/// waits for one connection to be made (within the URL's `connect_timeout`) and the
/// migrations to run, and fails with one line naming the server and what went wrong.
/// Several processes may start at once: migrations run under an advisory lock.
public final class PostgresDatabase: Sendable {
    public let location: PostgresLocation
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private let ready: Task<Void, any Error>

    /// postgres-nio logs nothing of sonde's through this logger: errors are thrown instead.
    static let logger = Logger(label: "sonde.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// - Parameter maximumConnections: the pool's size; each concurrent operation holds one.
    /// - Throws: `SondeError(.invalidArgument)` when the TLS set-up of `sslmode` fails.
    public init(location: PostgresLocation, maximumConnections: Int = 16) throws {
        self.location = location
        let tls = try PostgresTLS(location: location)
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls.client
        )
        configuration.options.connectTimeout = .milliseconds(Int64(location.connectTimeout * 1000))
        configuration.options.maximumConnections = max(1, maximumConnections)
        let client = PostgresClient(configuration: configuration)
        self.client = client
        runner = Task { await client.run() }
        var first = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls.connection
        )
        first.options.connectTimeout = .milliseconds(Int64(location.connectTimeout * 1000))
        ready = Task { [first] in try await Self.prepare(location: location, configuration: first) }
    }

    /// Opens the database and waits until it is connected and migrated.
    public static func open(
        location: PostgresLocation, maximumConnections: Int = 16
    ) async throws
        -> PostgresDatabase
    {
        let database = try PostgresDatabase(location: location, maximumConnections: maximumConnections)
        try await database.ready.value
        return database
    }

    deinit {
        runner.cancel()
        ready.cancel()
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
        try await ready.value
        do {
            return try await client.withConnection { connection in try await body(connection) }
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
    /// the TCP handshake), migrates, and disconnects: a refused connection, a missing
    /// database or a wrong password is an error here rather than a pool retrying forever.
    private static func prepare(
        location: PostgresLocation, configuration: PostgresConnection.Configuration
    )
        async throws
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
            try await connection.close()
        } catch {
            try? await connection.close()
            if let error = error as? PSQLError {
                throw PostgresFailure.error(error, location: location, doing: "migrate the schema")
            }
            throw error
        }
    }
}
