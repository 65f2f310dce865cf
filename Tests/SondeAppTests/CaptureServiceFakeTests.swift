import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondePipeline
import Testing
import _SondeTestSupport

@testable import SondeApp

/// The screens reach the device through `CaptureService` only: a fake stands in where the
/// simulated pump cannot go, here a device that failed mid-capture.
@Suite struct CaptureServiceFakeTests {
    @Test func mainShowsAFailedDeviceAsTheServiceReportsIt() async throws {
        let failure = DeviceFailure(deviceID: "command-1", message: "the command exited with status 3", at: 0)
        let harness = try AppHarness().replacingCaptures(try FailedDevice(failure))
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            let main = try await ann.get("/")
            #expect(main.text.contains(#"id="device-status">Device disconnected</p>"#))
            #expect(
                main.text.contains(
                    #"id="device-failure">Disconnected: the command exited with status 3, at 1970-01-01 00:00:00 UTC</p>"#
                ), "\(main.text)")
            #expect(main.text.contains("<p class=\"empty\">Device command-1</p>"))
            let refused = try await ann.post("/measurements/new")
            #expect(refused.status == .conflict && refused.alert == "the device failed again")
        }
    }
}

/// A device that failed: paired, disconnected, refusing to start.
private final class FailedDevice: CaptureService {
    let drafts: CaptureDrafts
    let failure: DeviceFailure

    init(_ failure: DeviceFailure) throws {
        self.failure = failure
        drafts = try CaptureDrafts(directory: try TestScratch.folder("sonde-app-failed-device"))
    }

    func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice {
        throw SondeError(.busy, "the device failed again")
    }
    func paired() throws -> PairedDevice? { nil }
    func status() throws -> InstrumentStatus { .disconnected(deviceID: failure.deviceID, failure: failure) }
    func start(for account: Account) throws -> LiveCapture { throw SondeError(.busy, "the device failed again") }
    func capture(for account: Account) -> LiveCapture? { nil }
    func isBeingKept(_ id: String, for owner: UserID) -> Bool { false }
    func stop(_ capture: LiveCapture, reason: String) async throws -> CaptureDraft {
        throw SondeError(.notFound, "no capture here")
    }
    func stopAll(reason: String) async {}
    func tick() async {}
    func trendColumns(of capture: LiveCapture) -> [Int] { [] }
    func trendSVG(of capture: LiveCapture, slot: Int, channel: Int) -> String? { nil }
}
