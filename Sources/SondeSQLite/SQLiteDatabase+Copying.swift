import Foundation
import GRDB
package import SondeAccounts
import SondeCore
package import SondeMeasurements
package import SondeStoreFormat

extension SQLiteDatabase: CopyableStore {
    package func allUsers() async throws -> [CopiedUser] {
        try await read("list the accounts") { db in
            try Row.fetchAll(db, sql: "SELECT id, email, password_hash, created_at FROM users ORDER BY id").map {
                CopiedUser(
                    id: UserID($0["id"]), email: $0["email"], passwordHash: $0["password_hash"],
                    createdAt: $0["created_at"])
            }
        }
    }

    package func insertUser(_ user: CopiedUser) async throws -> UserID {
        let path = path
        return try await write("copy an account") { db in
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE email = ?", arguments: [user.email]) {
                return UserID(id)
            }
            if try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [user.id.rawValue])
                ?? false
            {
                throw SondeError(
                    .invalidInput,
                    "database '\(path)': user \(user.id) is another account than \(user.email)'s; copy into an empty database"
                )
            }
            try db.execute(
                sql: "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [user.id.rawValue, user.email, user.passwordHash, user.createdAt])
            return user.id
        }
    }

    package func sessions(validAt now: Double) async throws -> [CopiedSession] {
        try await read("list the sessions") { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT token_hash, user_id, created_at, expires_at, email_as_typed FROM sessions WHERE expires_at > ?",
                arguments: [now]
            ).map {
                CopiedSession(
                    tokenHash: [UInt8]($0["token_hash"] as Data), user: UserID($0["user_id"]),
                    createdAt: $0["created_at"], expiresAt: $0["expires_at"], emailAsTyped: $0["email_as_typed"])
            }
        }
    }

    package func insertSession(_ session: CopiedSession) async throws {
        try await write("copy a session") { db in
            try db.execute(
                sql: """
                    INSERT INTO sessions (token_hash, user_id, created_at, expires_at, email_as_typed)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (token_hash) DO NOTHING
                    """,
                arguments: [
                    Data(session.tokenHash), session.user.rawValue, session.createdAt, session.expiresAt,
                    session.emailAsTyped,
                ])
        }
    }

    package func measurementKeys() async throws -> [MeasurementKey] {
        try await read("list the measurements") { db in
            try Row.fetchAll(db, sql: "SELECT id, user_id FROM measurements ORDER BY id").map {
                MeasurementKey(id: MeasurementID($0["id"] as Int64), owner: UserID($0["user_id"]))
            }
        }
    }

    package func owner(ofMeasurement id: MeasurementID) async throws -> UserID? {
        try await read("find a measurement") { db in
            try Int64.fetchOne(db, sql: "SELECT user_id FROM measurements WHERE id = ?", arguments: [id.rawValue])
                .map(UserID.init)
        }
    }

    package func insert(_ measurement: NewMeasurement, id: MeasurementID) async throws {
        let rows = try SQLiteMeasurementStore.Rows(measurement)
        _ = try await write("copy a measurement") { db in
            try SQLiteMeasurementStore.insert(
                measurement, rows: rows, id: id.rawValue, in: db, afterBatchInserted: nil)
        }
    }
}
