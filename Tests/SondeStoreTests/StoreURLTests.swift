import Foundation
import SondeCore
import SondePostgres
import SondeStore
import SondeStoreFormat
import Testing
import _SondeTestSupport

@Suite struct StoreURLTests {
    private func parse(_ text: String, environment: [String: String] = [:]) throws -> StoreURL {
        try StoreURL(
            parsing: text, defaultSQLitePath: "/home/ann/.local/share/sonde/sonde.sqlite", environment: environment)
    }

    @Test func sqliteURLs() throws {
        #expect(try parse("sqlite:") == .sqlite(path: "/home/ann/.local/share/sonde/sonde.sqlite"))
        #expect(try parse("sqlite:/srv/lab.sqlite") == .sqlite(path: "/srv/lab.sqlite"))
        #expect(try parse("sqlite:///srv/lab.sqlite") == .sqlite(path: "/srv/lab.sqlite"))
        #expect(try parse("sqlite:lab.sqlite") == .sqlite(path: "lab.sqlite"))
        #expect(
            try StoreURL.resolve(option: nil, defaultSQLitePath: "/d/sonde.sqlite", environment: [:])
                == .sqlite(path: "/d/sonde.sqlite"))
        #expect(
            try StoreURL.resolve(
                option: nil, defaultSQLitePath: "/d/sonde.sqlite",
                environment: ["SONDE_DATABASE_URL": "postgres://ann@db/sonde"])
                == .postgres(PostgresLocation(user: "ann", password: nil, host: "db", database: "sonde")))
        #expect(
            try StoreURL.resolve(
                option: "sqlite:/x.sqlite", defaultSQLitePath: "/d/sonde.sqlite",
                environment: ["SONDE_DATABASE_URL": "postgres://ann@db/sonde"]) == .sqlite(path: "/x.sqlite"),
            "--database wins over the environment")
    }

    @Test func postgresURLs() throws {
        #expect(
            try parse("postgres://ann@db.lab.example/sonde")
                == .postgres(PostgresLocation(user: "ann", password: nil, host: "db.lab.example", database: "sonde")))
        #expect(
            try parse("postgresql://ann:s%40cret@10.0.0.5:6432/sonde_lab?sslmode=require&connect_timeout=3")
                == .postgres(
                    PostgresLocation(
                        user: "ann", password: "s@cret", host: "10.0.0.5", port: 6432, database: "sonde_lab",
                        sslMode: .require, connectTimeout: 3)))
        #expect(
            try parse("postgres://ann@[::1]:5433/sonde")
                == .postgres(PostgresLocation(user: "ann", password: nil, host: "::1", port: 5433, database: "sonde")))
        let shown = try parse("postgres://ann:hunter2@db:5433/sonde").description
        #expect(shown == "postgres://ann@db:5433/sonde", "the password is never shown")
    }

    @Test(arguments: [
        ("mysql://ann@db/sonde", "unknown kind of database"),
        ("postgres://db/sonde", "no user"),
        ("postgres://ann@db", "no database name"),
        ("postgres://ann@db/", "no database name"),
        ("postgres://ann@/sonde", "no host"),
        ("postgres://ann@db:99999/sonde", "port '99999' is not a number from 1 to 65535"),
        ("postgres://ann@db:x/sonde", "port 'x'"),
        ("postgres://ann@db/sonde?sslmode=maybe", "sslmode 'maybe' is not one of disable, allow, prefer"),
        ("postgres://ann@db/sonde?connect_timeout=0", "connect_timeout '0'"),
        ("postgres://ann@db/sonde?application_name=x", "unknown parameter 'application_name'"),
        ("postgres://ann:hunter2@db/sonde?sslmode=no", "postgres://ann:***@db/sonde"),
    ])
    func wrongURLsSayWhatIsWrong(url: String, expected: String) {
        #expect {
            _ = try parse(url)
        } throws: { error in
            let text = "\(error)"
            return (error as? SondeError)?.code == .invalidArgument && text.contains(expected)
                && text.contains("expected sqlite:PATH or postgres://") && !text.contains("hunter2")
                && !text.contains("\n")
        }
    }

    @Test func thePasswordComesFromTheURLThenPGPASSWORDThenThePasswordFile() throws {
        let directory = try TestScratch.folder("sonde-pgpass").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let passFile = directory + "/pgpass"
        try """
        # host:port:database:user:password
        other:5432:sonde:ann:wrong-host
        db:5432:sonde:ann:from\\:file
        *:*:*:ann:fallback
        """.write(toFile: passFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passFile)
        func password(_ url: String, _ environment: [String: String]) throws -> String? {
            guard case .postgres(let location) = try parse(url, environment: environment) else { return "not postgres" }
            return location.password
        }
        let file = ["PGPASSFILE": passFile]
        #expect(try password("postgres://ann:in-url@db/sonde", file.merging(["PGPASSWORD": "env"]) { $1 }) == "in-url")
        #expect(try password("postgres://ann@db/sonde", file.merging(["PGPASSWORD": "env"]) { $1 }) == "env")
        #expect(try password("postgres://ann@db/sonde", file) == "from:file")
        #expect(try password("postgres://ann@db:5433/sonde", file) == "fallback")
        #expect(try password("postgres://bob@db/sonde", file) == nil)
        // A password file others can read is ignored, as libpq ignores it.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passFile)
        #expect(try password("postgres://ann@db/sonde", file) == nil)
        #expect(try password("postgres://ann@db/sonde", ["HOME": directory]) == nil, "no ~/.pgpass there")
    }
}

/// What a person sees when the server cannot be used: one line naming it, quickly.
/// Wall-clock bounds here would measure the test runner too: with every suite running at
/// once on 2 cores, an instant refusal was seen to take 65 s to come back. So a hang is
/// caught by the time limit, and how a wait ended by its message (refused at once, or the
/// connect timeout's own words).
@Suite(.enabled(if: StoreEngine.available.contains(.postgres)), .timeLimit(.minutes(3)))
struct PostgresConnectionErrorTests {
    private func openingFails(_ location: PostgresLocation) async throws -> (message: String, seconds: Double) {
        let start = Date()
        var message = ""
        await #expect {
            _ = try await PostgresDatabase.open(location: location)
        } throws: { error in
            message = "\(error)"
            return (error as? SondeError)?.code == .io
        }
        return (message, Date().timeIntervalSince(start))
    }

    @Test func aRefusedConnectionNamesTheHostAndPort() async throws {
        // A port nothing listens on (bound, read back and closed again here).
        var location = try StoreEngine.serverLocation()
        location.port = try Self.closedPort()
        // Refused at once, not ended by the connect timeout: the message says which.
        location.connectTimeout = 60
        let (message, _) = try await openingFails(location)
        #expect(message.contains("database \(location.description): cannot connect: connection refused by 127.0.0.1:"))
        #expect(!message.contains("within 60 s"))
        #expect(!message.contains("\n") && !message.contains(location.password ?? "no password"))
    }

    @Test func aMissingDatabaseSaysSo() async throws {
        let location = try StoreEngine.serverLocation().with(database: "sonde_no_such_database")
        let (message, _) = try await openingFails(location)
        #expect(message.contains("database \"sonde_no_such_database\" does not exist (SQLSTATE 3D000)"))
        #expect(message.contains("createdb sonde_no_such_database"))
    }

    @Test func aWrongPasswordSaysSo() async throws {
        var location = try StoreEngine.serverLocation()
        location.password = "not-the-password"
        let (message, _) = try await openingFails(location)
        #expect(message.contains("password authentication failed for user \"\(location.user)\""))
        #expect(!message.contains("not-the-password"))
    }

    @Test func aSilentServerTimesOutInsteadOfHanging() async throws {
        // A listening socket that never answers PostgreSQL's handshake (its backlog accepts
        // the TCP connection): the connect timeout must end the wait.
        let listener = try SilentListener()
        var location = try StoreEngine.serverLocation()
        location.port = listener.port
        location.connectTimeout = 2
        location.sslMode = .disable
        let (message, seconds) = try await openingFails(location)
        #expect(
            message.contains("cannot connect: no answer from 127.0.0.1:\(listener.port) within 2 s (connect_timeout)"))
        #expect(seconds >= 1.9, "ended by the timeout, not before it")
        _ = listener
    }

    /// A loopback port with no listener: bound, read back, then closed.
    static func closedPort() throws -> Int {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        return port
    }
}
