import PostgresNIO
public import SondeAccounts

/// Users, sessions, reset tokens and failed-login counts in `PostgresDatabase`, with the
/// semantics of `SQLiteUserSessionStore`: the unique email decides racing registrations,
/// a failed login is counted by one atomic upsert, a password reset is one transaction.
public struct PostgresUserSessionStore: UserSessionStore {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    private var logger: Logger { PostgresDatabase.logger }

    public func createUser(email: String, passwordHash: String, createdAt: Double) async throws -> Account {
        try await database.withConnection("create an account") { connection in
            do {
                let id = try await connection.query(
                    """
                    INSERT INTO users (email, password_hash, created_at) VALUES (\(email), \(passwordHash), \(createdAt))
                    RETURNING id
                    """, logger: logger
                ).collect().first?.decode(Int64.self)
                return Account(id: UserID(id ?? 0), email: email)
            } catch  where PostgresFailure.sqlState(error) == "23505" {
                // Two registrations raced past the service's check: the unique index decides.
                throw AccountError.emailTaken(email)
            }
        }
    }

    public func user(email: String) async throws -> StoredUser? {
        try await database.withConnection("find an account") { connection in
            try await connection.query(
                "SELECT id, email, password_hash FROM users WHERE email = \(email)", logger: logger
            ).collect().first.map { row in
                let (id, email, hash) = try row.decode((Int64, String, String).self)
                return StoredUser(account: Account(id: UserID(id), email: email), passwordHash: hash)
            }
        }
    }

    public func updatePasswordHash(user: UserID, passwordHash: String) async throws {
        try await database.withConnection("update a password") { connection in
            try await connection.query(
                "UPDATE users SET password_hash = \(passwordHash) WHERE id = \(user.rawValue)", logger: logger)
        }
    }

    public func createSession(
        tokenHash: [UInt8], user: UserID, emailAsTyped: String?, createdAt: Double, expiresAt: Double
    ) async throws {
        try await database.transaction("start a session") { connection in
            // Expired sessions go whenever a new one starts: the table never grows without bound.
            try await connection.query("DELETE FROM sessions WHERE expires_at <= \(createdAt)", logger: logger)
            try await connection.query(
                """
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at, email_as_typed)
                VALUES (\(ByteBuffer(bytes: tokenHash)), \(user.rawValue), \(createdAt), \(expiresAt), \(emailAsTyped))
                """, logger: logger)
        }
    }

    public func account(sessionTokenHash: [UInt8], now: Double) async throws -> Account? {
        try await database.withConnection("check a session") { connection in
            try await connection.query(
                """
                SELECT users.id, users.email, sessions.email_as_typed FROM sessions
                JOIN users ON users.id = sessions.user_id
                WHERE sessions.token_hash = \(ByteBuffer(bytes: sessionTokenHash)) AND sessions.expires_at > \(now)
                """, logger: logger
            ).collect().first.map { row in
                let (id, email, typed) = try row.decode((Int64, String, String?).self)
                return Account(id: UserID(id), email: email, emailAsTyped: typed)
            }
        }
    }

    public func deleteSession(tokenHash: [UInt8]) async throws {
        try await database.withConnection("end a session") { connection in
            try await connection.query(
                "DELETE FROM sessions WHERE token_hash = \(ByteBuffer(bytes: tokenHash))", logger: logger)
        }
    }

    public func createResetToken(tokenHash: [UInt8], user: UserID, createdAt: Double, expiresAt: Double) async throws {
        try await database.transaction("store a reset token") { connection in
            try await connection.query(
                "DELETE FROM reset_tokens WHERE expires_at <= \(createdAt) OR used_at IS NOT NULL", logger: logger)
            try await connection.query(
                """
                INSERT INTO reset_tokens (token_hash, user_id, created_at, expires_at)
                VALUES (\(ByteBuffer(bytes: tokenHash)), \(user.rawValue), \(createdAt), \(expiresAt))
                """, logger: logger)
        }
    }

    public func isValidResetToken(tokenHash: [UInt8], now: Double) async throws -> Bool {
        try await database.withConnection("check a reset token") { connection in
            try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM reset_tokens
                WHERE token_hash = \(ByteBuffer(bytes: tokenHash)) AND used_at IS NULL AND expires_at > \(now))
                """, logger: logger
            ).collect().first?.decode(Bool.self) ?? false
        }
    }

    public func completePasswordReset(
        tokenHash: [UInt8], passwordHash: String, now: Double, keepingSession: [UInt8]?
    ) async throws -> Account? {
        try await database.transaction("reset a password") { connection in
            // Using the token is the first write: of two resets racing with one token, the
            // second waits for the first's row lock, then finds it used and changes nothing.
            guard
                let row = try await connection.query(
                    """
                    UPDATE reset_tokens SET used_at = \(now)
                    WHERE token_hash = \(ByteBuffer(bytes: tokenHash)) AND used_at IS NULL AND expires_at > \(now)
                    RETURNING user_id
                    """, logger: logger
                ).collect().first
            else { return nil }
            let userID = try row.decode(Int64.self)
            guard
                let email = try await connection.query(
                    "SELECT email FROM users WHERE id = \(userID)", logger: logger
                ).collect().first?.decode(String.self)
            else { return nil }
            try await connection.query(
                "UPDATE reset_tokens SET used_at = \(now) WHERE user_id = \(userID) AND used_at IS NULL", logger: logger
            )
            try await connection.query(
                "UPDATE users SET password_hash = \(passwordHash) WHERE id = \(userID)", logger: logger)
            try await connection.query(
                """
                DELETE FROM sessions WHERE user_id = \(userID)
                AND token_hash IS DISTINCT FROM \(keepingSession.map { ByteBuffer(bytes: $0) })
                """, logger: logger)
            return Account(id: UserID(userID), email: email)
        }
    }

    public func loginFailures(email: String, source: String) async throws -> LoginFailures? {
        try await database.withConnection("read failed logins") { connection in
            try await connection.query(
                "SELECT failures, last_failure_at FROM login_failures WHERE email = \(email) AND source = \(source)",
                logger: logger
            ).collect().first.map { row in
                let (count, last) = try row.decode((Int, Double).self)
                return LoginFailures(count: count, lastFailureAt: last)
            }
        }
    }

    public func recordLoginFailure(email: String, source: String, at time: Double) async throws -> LoginFailures {
        try await database.withConnection("count a failed login") { connection in
            let row = try await connection.query(
                """
                INSERT INTO login_failures (email, source, failures, last_failure_at) VALUES (\(email), \(source), 1, \(time))
                ON CONFLICT (email, source) DO UPDATE
                    SET failures = login_failures.failures + 1, last_failure_at = excluded.last_failure_at
                RETURNING failures, last_failure_at
                """, logger: logger
            ).collect().first
            guard let (count, last) = try row?.decode((Int, Double).self) else {
                return LoginFailures(count: 1, lastFailureAt: time)
            }
            return LoginFailures(count: count, lastFailureAt: last)
        }
    }

    public func clearLoginFailures(email: String, source: String?) async throws {
        try await database.withConnection("clear failed logins") { connection in
            if let source {
                try await connection.query(
                    "DELETE FROM login_failures WHERE email = \(email) AND source = \(source)", logger: logger)
            } else {
                try await connection.query("DELETE FROM login_failures WHERE email = \(email)", logger: logger)
            }
        }
    }
}
