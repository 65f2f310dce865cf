import PostgresNIO
package import SondeAccounts
import SondeCore
package import SondeMeasurements
package import SondeStoreFormat

extension PostgresDatabase: CopyableStore {
    package func allUsers() async throws -> [CopiedUser] {
        try await withConnection("list the accounts") { connection in
            try await connection.query(
                "SELECT id, email, password_hash, created_at FROM users ORDER BY id", logger: Self.logger
            ).collect().map { row in
                let (id, email, hash, createdAt) = try row.decode((Int64, String, String, Double).self)
                return CopiedUser(id: UserID(id), email: email, passwordHash: hash, createdAt: createdAt)
            }
        }
    }

    package func insertUser(_ user: CopiedUser) async throws -> UserID {
        let location = location
        return try await transaction("copy an account") { connection in
            if let id = try await connection.query(
                "SELECT id FROM users WHERE email = \(user.email)", logger: Self.logger
            ).collect().first?.decode(Int64.self) {
                return UserID(id)
            }
            let taken = try await connection.query(
                "SELECT id FROM users WHERE id = \(user.id.rawValue)", logger: Self.logger
            ).collect()
            guard taken.isEmpty else {
                throw SondeError(
                    .invalidInput,
                    "database \(location): user \(user.id) is another account than \(user.email)'s; copy into an empty database"
                )
            }
            try await connection.query(
                """
                INSERT INTO users (id, email, password_hash, created_at)
                VALUES (\(user.id.rawValue), \(user.email), \(user.passwordHash), \(user.createdAt))
                """, logger: Self.logger)
            try await Self.advanceIdentity(of: "users", on: connection)
            return user.id
        }
    }

    package func sessions(validAt now: Double) async throws -> [CopiedSession] {
        try await withConnection("list the sessions") { connection in
            try await connection.query(
                """
                SELECT token_hash, user_id, created_at, expires_at, email_as_typed FROM sessions
                WHERE expires_at > \(now)
                """,
                logger: Self.logger
            ).collect().map { row in
                let (hash, user, createdAt, expiresAt, typed) = try row.decode(
                    (ByteBuffer, Int64, Double, Double, String?).self)
                return CopiedSession(
                    tokenHash: Array(hash.readableBytesView), user: UserID(user), createdAt: createdAt,
                    expiresAt: expiresAt, emailAsTyped: typed)
            }
        }
    }

    package func insertSession(_ session: CopiedSession) async throws {
        try await withConnection("copy a session") { connection in
            try await connection.query(
                """
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at, email_as_typed)
                VALUES (\(ByteBuffer(bytes: session.tokenHash)), \(session.user.rawValue), \(session.createdAt),
                    \(session.expiresAt), \(session.emailAsTyped))
                ON CONFLICT (token_hash) DO NOTHING
                """, logger: Self.logger)
        }
    }

    package func measurementKeys() async throws -> [MeasurementKey] {
        try await withConnection("list the measurements") { connection in
            try await connection.query("SELECT id, user_id FROM measurements ORDER BY id", logger: Self.logger)
                .collect().map { row in
                    let (id, owner) = try row.decode((Int64, Int64).self)
                    return MeasurementKey(id: MeasurementID(id), owner: UserID(owner))
                }
        }
    }

    package func owner(ofMeasurement id: MeasurementID) async throws -> UserID? {
        try await withConnection("find a measurement") { connection in
            try await connection.query(
                "SELECT user_id FROM measurements WHERE id = \(id.rawValue)", logger: Self.logger
            ).collect().first.map { UserID(try $0.decode(Int64.self)) }
        }
    }

    package func insert(_ measurement: NewMeasurement, id: MeasurementID) async throws {
        try await transaction("copy a measurement") { connection in
            _ = try await PostgresMeasurementStore.insert(measurement, id: id.rawValue, on: connection, database: self)
            try await Self.advanceIdentity(of: "measurements", on: connection)
        }
    }

    /// After rows inserted under their own ids, the identity continues above the largest,
    /// so the next save does not collide with a copied row.
    private static func advanceIdentity(of table: String, on connection: PostgresConnection) async throws {
        try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "SELECT setval(pg_get_serial_sequence('\(table)', 'id'), (SELECT max(id) FROM \(table)))::text"),
            logger: logger)
    }
}
