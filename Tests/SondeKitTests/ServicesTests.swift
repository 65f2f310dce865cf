import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeKit
import Testing
import _SondeTestSupport

/// The one wiring of the concrete services, for a command and for the server, and the
/// export defaults both front doors write with.
@Suite struct ServicesTests {
    static func environment(_ prefix: String) throws -> [String: String] {
        ["SONDE_HOME": try TestScratch.folder(prefix).path, "SONDE_SCRYPT_LOG_N": "10"]
    }

    @Test func aCommandsServicesRegisterAndLogIn() async throws {
        let environment = try Self.environment("services-command")
        let services = try LocalServices.open(environment: environment)
        _ = try await services.session.register(email: "ann@example.com", password: "correct horse 1")
        let account = try await services.session.requireAccount()
        #expect(account.email == "ann@example.com")
        #expect(try await services.measurements.list(for: account).isEmpty)
        #expect(try services.instrument.paired() == nil)
        // The server's profile opens the same store: the account is there.
        let server = try LocalServices.open(
            .server(.init(concurrentHashes: 1, hashWait: .seconds(1), hashQueue: 1, resetPage: { nil })),
            environment: environment)
        #expect(server.home.databasePath == services.home.databasePath)
        let session = try await server.authentication.login(
            email: "ann@example.com", password: "correct horse 1", client: "test")
        #expect(try await server.authentication.account(session: session.token)?.email == "ann@example.com")
    }

    @Test func theDeviceConnectionNeedsNoStore() throws {
        let environment = try Self.environment("services-device")
        #expect(try LocalServices.deviceConnection(environment: environment).current() == nil)
        #expect(!FileManager.default.fileExists(atPath: try SondeHome(environment: environment).databasePath))
    }

    @Test func exportDefaultsNameTheVersionAndTheTrends() {
        let options = ExportDefaults.parquet(settings: "{}")
        #expect(options.compression == .zstd)
        #expect(options.rowGroupRows == ParquetWriterOptions.defaultRowGroupRows)
        #expect(options.keyValueMetadata.map(\.key) == ["sonde.version", "sonde.settings"])
        #expect(options.createdBy == "sonde version \(ExportDefaults.version)")
        #expect(ExportDefaults.reportTrends == Feature.defaultTrends.map(\.rawValue))
        #expect(!ExportDefaults.reportTrends.isEmpty)
    }
}
