import GRDB
import SondeMeasurements
import SondeStoreFormat

extension SQLiteDatabase {
    /// The schema, one registered migration per `StoreMigration` number (PostgreSQL applies the
    /// same numbers). Never edit a migration that has shipped: add the next one. GRDB records
    /// which have run in `grdb_migrations`, as it has since the first file was written.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        func register(_ number: Int, _ migrate: @escaping @Sendable (Database) throws -> Void) {
            migrator.registerMigration(StoreMigration.all[number - 1].identifier, migrate: migrate)
        }
        register(1) { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        email TEXT NOT NULL UNIQUE,          -- normalised (trimmed, lower-case)
                        password_hash TEXT NOT NULL,         -- $scrypt$ln=..,r=..,p=..$salt$key
                        created_at REAL NOT NULL             -- seconds since 1970
                    );
                    CREATE TABLE sessions (
                        token_hash BLOB PRIMARY KEY,         -- SHA-256 of the token; never the token
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL
                    );
                    CREATE INDEX sessions_by_user ON sessions(user_id);
                    CREATE TABLE reset_tokens (
                        token_hash BLOB PRIMARY KEY,         -- SHA-256 of the token
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        used_at REAL                         -- set once: a token works once
                    );
                    CREATE INDEX reset_tokens_by_user ON reset_tokens(user_id);
                    CREATE TABLE login_failures (
                        email TEXT PRIMARY KEY,              -- known or not: locks say nothing
                        failures INTEGER NOT NULL,
                        last_failure_at REAL NOT NULL
                    );
                    CREATE TABLE measurements (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        recorded_at REAL NOT NULL,
                        device_id TEXT NOT NULL,
                        settings TEXT NOT NULL,              -- pipeline settings, JSON
                        comment TEXT NOT NULL,
                        channels TEXT NOT NULL,              -- JSON array of names
                        columns TEXT NOT NULL,               -- JSON array of value column names
                        hop INTEGER,                         -- NULL: no window completed
                        clock TEXT,                          -- JSON RecordClock; NULL likewise
                        frame_count INTEGER NOT NULL,
                        summary TEXT NOT NULL                -- JSON: per-channel means
                    );
                    CREATE INDEX measurements_by_owner ON measurements(user_id, recorded_at DESC, id DESC);
                    CREATE TABLE measurement_batches (
                        measurement_id INTEGER NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
                        sequence INTEGER NOT NULL,           -- 0, 1, ... in record order
                        first_frame INTEGER NOT NULL,
                        frame_count INTEGER NOT NULL,
                        samples BLOB NOT NULL,               -- frame-major little-endian float64
                        UNIQUE (measurement_id, sequence)
                    );
                    """
            )
        }
        register(2) { db in
            // A lock per email alone let anyone lock the owner out with five wrong passwords.
            try db.execute(
                sql: """
                    CREATE TABLE login_failures_by_source (
                        email TEXT NOT NULL,                 -- known or not: locks say nothing
                        source TEXT NOT NULL,                -- LoginSource: OS user and host
                        failures INTEGER NOT NULL,
                        last_failure_at REAL NOT NULL,
                        PRIMARY KEY (email, source)
                    );
                    INSERT INTO login_failures_by_source SELECT email, '', failures, last_failure_at FROM login_failures;
                    DROP TABLE login_failures;
                    ALTER TABLE login_failures_by_source RENAME TO login_failures;
                    """
            )
        }
        register(3) { db in
            // The greeting shows the address as the user typed it at login (issue 29).
            try db.execute(sql: "ALTER TABLE sessions ADD COLUMN email_as_typed TEXT")
        }
        register(4) { db in
            // A listing reads the listed part of each summary (100 bytes), not the summary
            // (1.5 KB): `sonde measurements list` over 10,000 measurements (issue 31).
            try db.execute(sql: "ALTER TABLE measurements ADD COLUMN listed_summary TEXT")
            let reader = StoredJSONReader()
            let rows = try Row.fetchAll(db, sql: "SELECT id, summary FROM measurements")
            for row in rows {
                let listed = try StoredJSON.encodeListed(StoredJSON.decodeSummary(row[1], with: reader))
                try db.execute(
                    sql: "UPDATE measurements SET listed_summary = ? WHERE id = ?",
                    arguments: [listed, row[0] as Int64])
            }
            // A listing answered from the index alone: a row holds the whole summary before
            // this column, and reaching past it meant reading each row's overflow pages.
            try db.execute(
                sql: """
                    CREATE INDEX measurements_listed ON measurements(
                        user_id, recorded_at DESC, id DESC, device_id, comment, listed_summary);
                    DROP INDEX measurements_by_owner;
                    """)
        }
        register(5) { db in
            // The listed part as `ListedMeans` bytes: reading it as JSON was a sixth of
            // `sonde measurements list` over 10,000 measurements (issue 31). Rows an older
            // sonde writes after this keep `listed_summary` only, and list from their summary.
            try db.execute(sql: "ALTER TABLE measurements ADD COLUMN listed_means BLOB")
            let reader = StoredJSONReader()
            for row in try Row.fetchAll(db, sql: "SELECT id, summary FROM measurements") {
                let summary = try StoredJSON.decodeSummary(row[1], with: reader)
                try db.execute(
                    sql: "UPDATE measurements SET listed_means = ? WHERE id = ?",
                    arguments: [ListedMeans.encode(listedPartOf: summary), row[0] as Int64])
            }
            try db.execute(
                sql: """
                    CREATE INDEX measurements_listed_means ON measurements(
                        user_id, recorded_at DESC, id DESC, device_id, comment, listed_means);
                    DROP INDEX measurements_listed;
                    """)
        }
        return migrator
    }()
}
