import Foundation
import SondeAccounts
import SondeCore
import Testing
import _SondeTestSupport

@Suite struct LocalFilesTests {
    private func temporaryDirectory() throws -> String {
        try TestScratch.folder("sonde-accounts").path
    }

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func sessionFileIsPrivate() throws {
        let directory = try temporaryDirectory()
        let file = SessionFile(path: directory + "/config/sonde/session")
        #expect(try file.load() == nil)
        try file.save("abc123")
        #expect(try file.load() == "abc123")
        #expect(try mode(file.path) == 0o600)
        #expect(try mode(directory + "/config/sonde") == 0o700)
        try file.save("def456")
        #expect(try file.load() == "def456")
        try file.remove()
        #expect(try file.load() == nil)
        try file.remove()
    }

    @Test func outboxMessagesArePrivateAndSayWhatToRun() async throws {
        let directory = try temporaryDirectory() + "/outbox"
        let mailer = OutboxMailer(directory: directory, now: { 1_800_000_000 })
        try await mailer.sendPasswordReset(to: "ann@example.com", token: "f00d", expiresAt: 1_800_000_900)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count == 1)
        let name = try #require(files.first)
        #expect(name.hasPrefix("reset-20270115080000-") && name.hasSuffix(".txt"))
        #expect(try mode(directory + "/" + name) == 0o600)
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        #expect(
            text.hasPrefix(
                "To: ann@example.com\nSubject: Reset your sonde password\nToken: f00d\nExpires: 2027-01-15T08:15:00Z\n")
        )
        #expect(text.contains("    sonde reset-password --token f00d\n"))
        #expect(!text.contains("http"), "no page to link to from the commands")
    }

    @Test func outboxMessagesFromTheAppLinkToItsResetPage() async throws {
        let directory = try temporaryDirectory() + "/outbox"
        let mailer = OutboxMailer(
            directory: directory, resetPage: { "https://sonde.lab.example/reset-password" }, now: { 1_800_000_000 })
        try await mailer.sendPasswordReset(to: "ann@example.com", token: "f00d", expiresAt: 1_800_000_900)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory).first)
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        #expect(text.contains("on this page:\n\n    https://sonde.lab.example/reset-password?token=f00d\n\nor with:\n"))
        #expect(text.contains("    sonde reset-password --token f00d\n"))
    }

    @Test func homeFollowsSondeHomeThenXDG() throws {
        let explicit = try SondeHome(environment: ["SONDE_HOME": "/tmp/s", "HOME": "/home/ann", "XDG_DATA_HOME": "/x"])
        #expect(explicit.databasePath == "/tmp/s/sonde.sqlite")
        #expect(explicit.sessionFilePath == "/tmp/s/session")
        #expect(explicit.outboxDirectory == "/tmp/s/outbox")
        let xdg = try SondeHome(environment: [
            "HOME": "/home/ann", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/config",
        ])
        #expect(xdg == SondeHome(dataDirectory: "/data/sonde", configDirectory: "/config/sonde"))
        let plain = try SondeHome(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "relative"])
        #expect(
            plain
                == SondeHome(dataDirectory: "/home/ann/.local/share/sonde", configDirectory: "/home/ann/.config/sonde"))
        #expect(throws: SondeError.self) { try SondeHome(environment: [:]) }
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"), (1_800_000_000.9, "2027-01-15T08:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"), (4_102_444_800, "2100-01-01T00:00:00Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"), (253_402_300_800, "10000-01-01T00:00:00Z"),
    ])
    func utcTimestamps(seconds: Double, text: String) {
        #expect(UTCTimestamp.rfc3339(epochSeconds: seconds) == text)
    }
}
