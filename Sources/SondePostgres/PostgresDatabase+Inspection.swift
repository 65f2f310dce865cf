import PostgresNIO
import SondeCore
import SondeStoreFormat

extension PostgresDatabase {
    /// Makes an empty database on the server `admin` names (its own database is only where
    /// the command runs). Tests make one each; `CREATE DATABASE` cannot run in a transaction.
    package static func createDatabase(named name: String, admin: PostgresLocation) async throws {
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw SondeError(.invalidArgument, "database name '\(name)': expected letters, digits and '_'")
        }
        let database = try await PostgresDatabase.open(location: admin, maximumConnections: 1)
        try await database.withConnection("create database \(name)") { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
    }

    /// The first column of every row of `sql`, as text (NULL as nil): for tests and
    /// diagnostics that look at what is stored, never for user input.
    package func texts(_ sql: String) async throws -> [String?] {
        try await withConnection("inspect the database") { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect().map {
                try $0.decode(String?.self)
            }
        }
    }

    /// Whether every batch belongs to a measurement and every session, token and
    /// measurement to a user (the foreign keys say so; this checks they held).
    package func isConsistent() async throws -> Bool {
        let orphans = try await texts(
            """
            SELECT (
                (SELECT count(*) FROM measurement_batches b WHERE NOT EXISTS
                    (SELECT 1 FROM measurements m WHERE m.id = b.measurement_id))
                + (SELECT count(*) FROM measurements m WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id))
                + (SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id))
            )::text
            """)
        return orphans == ["0"]
    }
}
