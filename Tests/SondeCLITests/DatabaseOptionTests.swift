import Foundation
import Testing
import _SondeTestSupport

/// Issue 31: every account and measurement command takes `--database URL`, before
/// `SONDE_DATABASE_URL` and the file under `SONDE_HOME`.
@Suite struct DatabaseOptionTests {
    @Test func everyAccountAndMeasurementCommandOpensTheStoreItIsGiven() throws {
        let user = try AccountUser()
        defer { try? FileManager.default.removeItem(at: user.home.deletingLastPathComponent()) }
        let other = user.home.deletingLastPathComponent().path + "/lab.sqlite"
        let database = ["--database", "sqlite:" + other]
        var result = try user.run(
            ["register", "--email", "ann@example.com", "--password-stdin"] + database, stdin: "correct horse\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(
            !FileManager.default.fileExists(atPath: user.home.path + "/sonde.sqlite"), "the default store was opened")
        for command in [["whoami"], ["measurements", "list"]] {
            result = try user.run(command + database)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(try user.run(["whoami"] + database).stdout == "ann@example.com\n")
        // The option wins over the environment's URL.
        var environment = user.environment
        environment["SONDE_DATABASE_URL"] = "sqlite:/nonexistent/x.sqlite"
        result = try SondeBinary.run(["whoami"] + database, in: user.home, environment: environment)
        #expect(result.stdout == "ann@example.com\n", "\(result.stderr)")
        result = try user.run(["measurements", "list", "--database", "mysql://lab/sonde"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("mysql://lab/sonde"), "\(result.stderr)")
    }
}
