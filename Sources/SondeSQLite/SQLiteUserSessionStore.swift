import Foundation
import GRDB
public import SondeAccounts

/// Users, sessions, reset tokens and failed-login counts in `SQLiteDatabase`.
public struct SQLiteUserSessionStore: UserSessionStore {
    let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func createUser(email: String, passwordHash: String, createdAt: Double) async throws -> Account {
        try await database.write("create an account") { db in
            do {
                try db.execute(
                    sql: "INSERT INTO users (email, password_hash, created_at) VALUES (?, ?, ?)",
                    arguments: [email, passwordHash, createdAt]
                )
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                // Two registrations raced past the service's check: the unique index decides.
                throw AccountError.emailTaken(email)
            }
            return Account(id: UserID(db.lastInsertedRowID), email: email)
        }
    }

    public func user(email: String) async throws -> StoredUser? {
        try await database.read("find an account") { db in
            try Row.fetchOne(db, sql: "SELECT id, email, password_hash FROM users WHERE email = ?", arguments: [email])
                .map { row in
                    StoredUser(
                        account: Account(id: UserID(row["id"]), email: row["email"]), passwordHash: row["password_hash"]
                    )
                }
        }
    }

    public func updatePasswordHash(user: UserID, passwordHash: String) async throws {
        try await database.write("update a password") { db in
            try db.execute(
                sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [passwordHash, user.rawValue])
        }
    }

    public func createSession(
        tokenHash: [UInt8], user: UserID, emailAsTyped: String?, createdAt: Double, expiresAt: Double
    ) async throws {
        try await database.write("start a session") { db in
            // Expired sessions go whenever a new one starts: the table never grows without bound.
            try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [createdAt])
            try db.execute(
                sql: """
                    INSERT INTO sessions (token_hash, user_id, created_at, expires_at, email_as_typed)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [Data(tokenHash), user.rawValue, createdAt, expiresAt, emailAsTyped]
            )
        }
    }

    public func account(sessionTokenHash: [UInt8], now: Double) async throws -> Account? {
        try await database.read("check a session") { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT users.id, users.email, sessions.email_as_typed FROM sessions
                    JOIN users ON users.id = sessions.user_id
                    WHERE sessions.token_hash = ? AND sessions.expires_at > ?
                    """,
                arguments: [Data(sessionTokenHash), now]
            ).map { row in Account(id: UserID(row[0]), email: row[1], emailAsTyped: row[2]) }
        }
    }

    public func deleteSession(tokenHash: [UInt8]) async throws {
        try await database.write("end a session") { db in
            try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [Data(tokenHash)])
        }
    }

    public func createResetToken(tokenHash: [UInt8], user: UserID, createdAt: Double, expiresAt: Double) async throws {
        try await database.write("store a reset token") { db in
            try db.execute(
                sql: "DELETE FROM reset_tokens WHERE expires_at <= ? OR used_at IS NOT NULL", arguments: [createdAt]
            )
            try db.execute(
                sql: "INSERT INTO reset_tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [Data(tokenHash), user.rawValue, createdAt, expiresAt]
            )
        }
    }

    public func isValidResetToken(tokenHash: [UInt8], now: Double) async throws -> Bool {
        try await database.read("check a reset token") { db in
            try Bool.fetchOne(
                db,
                sql:
                    "SELECT EXISTS (SELECT 1 FROM reset_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?)",
                arguments: [Data(tokenHash), now]
            ) ?? false
        }
    }

    public func completePasswordReset(
        tokenHash: [UInt8], passwordHash: String, now: Double, keepingSession: [UInt8]?
    ) async throws -> Account? {
        try await database.write("reset a password") { db in
            guard
                let userID = try Int64.fetchOne(
                    db,
                    sql: "SELECT user_id FROM reset_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
                    arguments: [Data(tokenHash), now]
                ),
                let email = try String.fetchOne(db, sql: "SELECT email FROM users WHERE id = ?", arguments: [userID])
            else { return nil }
            try db.execute(
                sql: "UPDATE reset_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
                arguments: [now, userID]
            )
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [passwordHash, userID])
            try db.execute(
                sql: "DELETE FROM sessions WHERE user_id = ? AND token_hash IS NOT ?",
                arguments: [userID, keepingSession.map { Data($0) }]
            )
            return Account(id: UserID(userID), email: email)
        }
    }

    public func loginFailures(email: String, source: String) async throws -> LoginFailures? {
        try await database.read("read failed logins") { db in
            try Row.fetchOne(
                db, sql: "SELECT failures, last_failure_at FROM login_failures WHERE email = ? AND source = ?",
                arguments: [email, source]
            )
            .map { LoginFailures(count: $0["failures"], lastFailureAt: $0["last_failure_at"]) }
        }
    }

    public func recordLoginFailure(email: String, source: String, at time: Double) async throws -> LoginFailures {
        try await database.write("count a failed login") { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    INSERT INTO login_failures (email, source, failures, last_failure_at) VALUES (?, ?, 1, ?)
                    ON CONFLICT (email, source) DO UPDATE
                        SET failures = failures + 1, last_failure_at = excluded.last_failure_at
                    RETURNING failures, last_failure_at
                    """,
                arguments: [email, source, time]
            )
            return LoginFailures(count: row?["failures"] ?? 1, lastFailureAt: row?["last_failure_at"] ?? time)
        }
    }

    public func clearLoginFailures(email: String, source: String?) async throws {
        try await database.write("clear failed logins") { db in
            if let source {
                try db.execute(
                    sql: "DELETE FROM login_failures WHERE email = ? AND source = ?", arguments: [email, source])
            } else {
                try db.execute(sql: "DELETE FROM login_failures WHERE email = ?", arguments: [email])
            }
        }
    }
}
