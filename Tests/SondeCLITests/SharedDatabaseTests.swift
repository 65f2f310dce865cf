import Foundation
import SondeCore
import SondeMeasurements
import SondePostgres
import SondeStoreFormat
import Testing
import _SondeTestSupport

/// A lab through the built `sonde`: a workstation's SQLite data moved with `sonde store
/// copy` to the PostgreSQL server `make test` starts, then two machines (two `SONDE_HOME`s)
/// working on it through `SONDE_DATABASE_URL`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SONDE_TEST_DATABASE_URL"].map { !$0.isEmpty } ?? false))
struct SharedDatabaseTests {
    /// A new database on the test server, as a URL with its password (the CLI's form).
    private func newDatabaseURL() async throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let server = try #require(environment["SONDE_TEST_DATABASE_URL"])
        let name = "sonde_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresDatabase.createDatabase(
            named: name, admin: try PostgresLocation(parsing: server, environment: environment))
        let slash = try #require(server.lastIndex(of: "/"))
        return server[..<slash] + "/" + name
    }

    @Test func aWorkstationMovesToTheLabDatabaseAndTwoMachinesShareIt() async throws {
        let url = try await newDatabaseURL()
        let ann = try AccountUser()
        for result in try ann.registerAndLogIn("ann@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        let (session, measurements) = try ann.services()
        let owner = try await session.requireAccount()
        var ids: [MeasurementID] = []
        for index in 0..<3 {
            let batch = RecordBatch(
                fileName: "live", channelNames: ["x"], columnCount: 2, firstFrame: 0, frameCount: 4, hop: 512,
                clock: .seconds(sampleRate: 25_600, offset: 0),
                values: (0..<8).map { 1.0 / 3.0 + Double($0 * (index + 1)) * 0.1 })
            let capture = MeasurementCapture(
                deviceID: "sim-0001", settings: #"{"window":1024}"#, comment: "run \(index)", channelNames: ["x"],
                columns: ["rms", "peak"], recordedAt: 1_800_000_000 + Double(index))
            ids.append(try await measurements.save(capture, records: [batch], for: owner).id)
        }
        let sqliteList = try ann.run(["measurements", "list"])
        #expect(sqliteList.status == 0 && (0..<3).allSatisfy { sqliteList.stdout.contains("run \($0)") })

        var result = try ann.run(["store", "copy", "--from", "sqlite:", "--to", url])
        #expect(result.status == 0, "\(result.stderr)")
        let shownURL = try PostgresLocation(parsing: url, environment: [:]).description
        #expect(
            result.stdout.hasPrefix("Copied 1 users, 1 sessions and 3 measurements (0 already there) from sqlite:")
                && result.stdout.hasSuffix(" to \(shownURL)\n"))
        #expect(!result.stdout.contains(try #require(PostgresLocation(parsing: url, environment: [:]).password)))
        result = try ann.run(["store", "copy", "--from", "sqlite:", "--to", url])
        #expect(result.stdout.contains("and 0 measurements (3 already there)"), "a second run copies nothing again")

        // The same person, now on the lab database: the session came along, and every
        // command answers as it did on the file.
        var onLab = ann
        onLab.environment["SONDE_DATABASE_URL"] = url
        #expect(try onLab.run(["whoami"]).stdout == "ann@example.com\n")
        #expect(try onLab.run(["measurements", "list"]).stdout == sqliteList.stdout)
        for id in ids {
            for format in ["csv", "ndjson"] {
                let original = try ann.run(["measurements", "export", "\(id)", "--format", format])
                let copied = try onLab.run(["measurements", "export", "\(id)", "--format", format])
                #expect(copied.status == 0 && copied.stdout == original.stdout, "measurement \(id) as \(format)")
            }
        }

        // A second machine: Ann logs in there too; logging out there leaves her first session.
        var second = try AccountUser()
        second.environment["SONDE_DATABASE_URL"] = url
        result = try second.run(["login", "--email", "ann@example.com", "--password-stdin"], stdin: "correct horse\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try second.run(["measurements", "list"]).stdout == sqliteList.stdout)
        #expect(try second.run(["logout"]).status == 0)
        #expect(try second.run(["whoami"]).status != 0)
        #expect(try onLab.run(["whoami"]).stdout == "ann@example.com\n")
    }

    @Test func aDatabaseThatCannotBeReachedIsOneLine() throws {
        var user = try AccountUser()
        user.environment["SONDE_DATABASE_URL"] = "postgres://sonde:secret@127.0.0.1:1/sonde?connect_timeout=5"
        // A login asks the database first (for a lock): the connection is refused.
        let result = try user.run(
            ["login", "--email", "ann@example.com", "--password-stdin"], stdin: "correct horse\n")
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "error: database postgres://sonde@127.0.0.1:1/sonde: cannot connect: connection refused by 127.0.0.1:1")
        )
        #expect(result.stderr.split(separator: "\n").count == 1 && !result.stderr.contains("secret"))
        user.environment["SONDE_DATABASE_URL"] = "postgres://sonde@127.0.0.1/sonde?sslmode=sometimes"
        let wrong = try user.run(["whoami"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("sslmode 'sometimes' is not one of disable, allow, prefer, require"))
    }
}
