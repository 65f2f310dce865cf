import Foundation
import SondeCore
import SondeIO
import SondeKit
import SondePipeline
import Testing
import _SondeTestSupport

/// `DevicePairing`, `sonde device pair`'s work, in process on a device connection in a
/// scratch home: the simulated pump by default, a profile given, and the refusals.
@Suite struct DevicePairingTests {
    static func connection(_ name: String) throws -> any DeviceConnectionService {
        try LocalServices.deviceConnection(environment: ["SONDE_HOME": TestScratch.folder(name).path])
    }

    @Test func theDefaultIsTheHealthyPump() async throws {
        let connection = try Self.connection("pairing-default")
        let paired = try await DevicePairing.pairSimulated(
            profile: nil, inputShape: SampleSourceOptions(), seed: 3, connection: connection)
        // Remembered (the pairing time goes through JSON, so compare what names the device).
        let current = try #require(try connection.current())
        #expect(current.id == paired.id && current.profileText == paired.profileText && current.seed == 3)
        #expect(paired.profileSource == "default")
    }

    @Test func theDefaultRefusesAShapeOfItsOwn() async throws {
        let connection = try Self.connection("pairing-shape")
        await #expect(throws: SondeError.self) {
            _ = try await DevicePairing.pairSimulated(
                profile: nil, inputShape: SampleSourceOptions(sampleRate: 100), seed: 1, connection: connection)
        }
        #expect(try connection.current() == nil)
    }

    @Test func aRealInstrumentRefusesASimulatedDevicesOptions() throws {
        let connection = try Self.connection("pairing-real")
        let settings = InstrumentSettings(
            kind: .command, address: "cat /dev/zero", sampleRate: 8000, channels: 1, sampleType: .f32le)
        #expect {
            _ = try DevicePairing.pair(instrument: settings, describesSimulated: true, connection: connection)
        } throws: { error in
            "\(error)".contains(
                "--alsa and --command pair a real instrument; --profile, --tone, ... describe a simulated one")
        }
        #expect(try connection.current() == nil)
    }

    @Test func anOldProfileConvertsToTheSameDevice() throws {
        let legacy = Fixtures.url("profiles/faulty-pump-legacy.profile").path
        let toml = try DevicePairing.convertedProfile(path: legacy)
        #expect(toml.contains("[[channels]]"), "\(toml.prefix(200))")
        let old = try DeviceProfile.parse(DeviceProfile.text(path: legacy), source: "p")
        #expect(try DeviceProfile.parse(toml, source: "p") == old)
    }

    @Test func anUnreadableOldProfileIsAnError() throws {
        #expect(throws: (any Error).self) {
            _ = try DevicePairing.convertedProfile(path: "/no/such/old.profile")
        }
    }
}
