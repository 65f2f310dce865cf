import PostgresNIO
import SondeCore
import SondeStoreFormat

/// PostgreSQL's errors as one line that names the server and what failed. postgres-nio's
/// own description hides everything (to keep queries out of logs), so the message, SQL
/// state and the socket's reason are taken out here.
enum PostgresFailure {
    static func error(_ error: PSQLError, location: PostgresLocation, doing: String) -> SondeError {
        SondeError(.io, "database \(location): cannot \(doing): \(reason(error, location: location))")
    }

    static func timedOut(location: PostgresLocation) -> SondeError {
        SondeError(.io, "database \(location): cannot connect: \(noAnswer(location))")
    }

    static func noAnswer(_ location: PostgresLocation) -> String {
        "no answer from \(location.host):\(location.port) within \(location.connectTimeout.formatted()) s (connect_timeout); check the host, the port and the firewall"
    }

    /// The SQL state of a server error (`23505`: a unique constraint), if it is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    static func reason(_ error: PSQLError, location: PostgresLocation) -> String {
        if let info = error.serverInfo, let message = info[.message] {
            let state = info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            let hint: String
            switch info[.sqlState] {
            case "3D000": hint = "; create it (createdb \(location.database)) or fix the URL"
            case "28P01", "28000": hint = "; check the user and the password (URL, PGPASSWORD or ~/.pgpass)"
            default: hint = ""
            }
            return message + state + hint
        }
        switch error.code {
        case .connectionError:
            let underlying = error.underlying.map { "\($0)" } ?? "no reason given"
            if underlying.contains("refused") {
                return
                    "connection refused by \(location.host):\(location.port); is the server running and listening there?"
            }
            if underlying.lowercased().contains("timed out") || underlying.lowercased().contains("timeout") {
                return noAnswer(location)
            }
            return "cannot reach \(location.host):\(location.port): \(underlying)"
        case .sslUnsupported:
            return "the server does not offer TLS, which sslmode=\(location.sslMode.rawValue) requires"
        case .authMechanismRequiresPassword:
            return "the server asks for a password: give it in the URL, PGPASSWORD or ~/.pgpass"
        case .serverClosedConnection, .uncleanShutdown:
            return "the server closed the connection"
        default:
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
    }
}
