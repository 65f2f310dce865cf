public import SondePostgres
import SondeStoreFormat

/// Where accounts and measurements live, as `--database URL` or `SONDE_DATABASE_URL` names
/// it: the embedded SQLite file (the default) or a PostgreSQL server a lab shares.
public enum StoreURL: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// The environment variable that names the database when `--database` is not given.
    public static let environmentVariable = "SONDE_DATABASE_URL"

    /// Parses `sqlite:PATH` (`sqlite:` alone: `defaultSQLitePath`) or
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=...&connect_timeout=S]`.
    /// - Parameter environment: `PGPASSWORD`, `PGPASSFILE` and `HOME` (for `~/.pgpass`), read
    ///   only when the URL has no password.
    /// - Throws: `SondeError(.invalidArgument)`: one line with the URL (password hidden),
    ///   what is wrong and the forms expected.
    public init(parsing text: String, defaultSQLitePath: String, environment: [String: String]) throws {
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            // sqlite:///var/lib/x.sqlite reads as the path /var/lib/x.sqlite, as in most tools.
            if path.hasPrefix("//") { path.removeFirst(2) }
            self = .sqlite(path: path.isEmpty ? defaultSQLitePath : path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(parsing: text, environment: environment))
        } else {
            throw StoreURLSyntax.invalid(text, "unknown kind of database")
        }
    }

    /// The database the environment names (`SONDE_DATABASE_URL`), else the SQLite file.
    /// - Parameter option: `--database`, which wins over the environment.
    public static func resolve(
        option: String?, defaultSQLitePath: String, environment: [String: String]
    ) throws -> StoreURL {
        guard let text = option ?? environment[environmentVariable], !text.isEmpty else {
            return .sqlite(path: defaultSQLitePath)
        }
        return try StoreURL(parsing: text, defaultSQLitePath: defaultSQLitePath, environment: environment)
    }

    /// The URL as it may be shown: never with its password.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let location): location.description
        }
    }
}
