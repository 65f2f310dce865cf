import Foundation
import SondeCore
import SondeIO
import SondeKit
import SondePipeline
import Testing
import _SondeTestSupport

/// `MeasureRun`, `sonde measure`'s work, in process on a scratch home: refused without a
/// paired device (before the settings are read), and half a second of the simulated pump
/// saved with its windows.
@Suite struct MeasureRunTests {
    @Test func withoutADeviceItSaysSoFirst() async throws {
        let services = try LocalServices.open(environment: ServicesTests.environment("measure-run-none"))
        _ = try await services.session.register(email: "ops@example.com", password: "correct horse 1")
        await #expect {
            _ = try await MeasureRun(duration: "1s", comment: "", jobs: 1).run(with: services) {
                throw SondeError(.invalidArgument, "settings read too early")
            }
        } throws: { error in
            "\(error)".contains("Device not connected — run sonde device pair")
        }
    }

    @Test func halfASecondOfThePumpIsSaved() async throws {
        let environment = try ServicesTests.environment("measure-run")
        let services = try LocalServices.open(environment: environment)
        _ = try await services.session.register(email: "ops@example.com", password: "correct horse 1")
        _ = try await DevicePairing.pairSimulated(
            profile: nil, inputShape: SampleSourceOptions(), seed: 4,
            connection: LocalServices.deviceConnection(environment: environment))
        let outcome = try await MeasureRun(duration: "500ms", comment: "after the change", jobs: 1).run(
            with: services
        ) { try PipelineSettings(frameLength: 1024, features: [.rms, .kurtosis]) }
        #expect(outcome.records > 0)
        #expect(outcome.failure == nil && !outcome.terminated)
        let owner = try await services.session.requireAccount()
        let saved = try await services.measurements.show(id: outcome.saved.id, for: owner)
        #expect(saved.comment == "after the change")
        #expect(saved.deviceID == outcome.deviceID)
    }
}
