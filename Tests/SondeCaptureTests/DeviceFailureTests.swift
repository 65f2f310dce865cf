import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondePipeline
import Testing

/// Issue 46: a device that fails mid-capture shows as disconnected on Main (through
/// `Instrument.status()`), with its one-line error and when, until a capture starts on it again.
@Suite struct DeviceFailureTests {
    /// A mono 8 kHz f32 command device: `command` runs for each capture.
    private func pairCommand(_ command: String, on harness: CaptureHarness) throws -> PairedDevice {
        let device = PairedDevice(
            instrument: InstrumentSettings(
                kind: .command, address: command, sampleRate: 8000, channels: 1, sampleType: .f32le),
            pairedAt: Date())
        try harness.instrument.connection.remember(device)
        return device
    }

    @Test func aCommandThatExitsLeavesTheDeviceDisconnectedUntilACaptureStarts() async throws {
        let harness = try await CaptureHarness()
        let flag = harness.directory.appendingPathComponent("plugged-back")
        // 2 s of zeros, then a two-line complaint and status 3; once the flag exists, 100 ms
        // of zeros every 100 ms until it is ended (plugged back in).
        let command = """
            if [ -e '\(flag.path)' ]; then while :; do head -c 3200 /dev/zero; sleep 0.1; done; fi; \
            head -c 64000 /dev/zero; printf 'first line\\nthe probe came loose\\n' >&2; exit 3
            """
        let device = try pairCommand(command, on: harness)
        #expect(try harness.instrument.status() == .idle(deviceID: device.id))
        let before = WallClock.now()
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: nil,
            options: CaptureHarness.exact(paced: false))
        let ended = await capture.ended()
        #expect(ended.error != nil)
        #expect(ended.batches.contains { $0.recordCount > 0 }, "what came before is kept")
        guard case .disconnected(let id, let failure) = try harness.instrument.status() else {
            Issue.record("a failed device is not shown as disconnected: \(try harness.instrument.status())")
            return
        }
        #expect(id == device.id && failure.deviceID == device.id)
        #expect(failure.message.contains("status 3"), "\(failure.message)")
        #expect(failure.message.contains("the probe came loose"), "\(failure.message)")
        #expect(!failure.message.contains("\n"), "one line: \(failure.message)")
        #expect(failure.at >= before && failure.at <= WallClock.now())
        #expect(try harness.instrument.lastFailure() == failure)
        // Still shown after a while, and to everyone (the status is the device's).
        try await Task.sleep(for: .milliseconds(50))
        #expect(try harness.instrument.lastFailure() == failure)

        // Plugged back in: the next capture starts, and the failure is over.
        try Data().write(to: flag)
        let again = try harness.instrument.startCapture(
            for: harness.bob, settings: try CaptureHarness.settings(), duration: nil,
            options: CaptureHarness.exact(paced: false))
        guard case .busy = try harness.instrument.status() else {
            Issue.record("the instrument is not busy during the second capture")
            return
        }
        while again.latest().frameCount < 1 { try await Task.sleep(for: .milliseconds(20)) }
        await again.discard()
        #expect(try harness.instrument.status() == .idle(deviceID: device.id))
        #expect(try harness.instrument.lastFailure() == nil)
    }

    /// A failure belongs to the device that failed: pairing another (here from another
    /// process's point of view, straight through the connection) hides it, and so does unpairing.
    @Test func aFailureIsShownOnlyForTheDeviceThatFailed() async throws {
        let harness = try await CaptureHarness()
        let failing = try pairCommand("head -c 40000 /dev/zero; exit 1", on: harness)
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: nil,
            options: CaptureHarness.exact(paced: false))
        #expect(await capture.ended().error != nil)
        #expect(try harness.instrument.lastFailure()?.deviceID == failing.id)
        let other = try pairCommand("head -c 40000 /dev/zero", on: harness)
        #expect(try harness.instrument.status() == .idle(deviceID: other.id))
        _ = try pairCommand("head -c 40000 /dev/zero; exit 1", on: harness)
        #expect(try harness.instrument.lastFailure()?.deviceID == failing.id, "the same device again")
        #expect(try harness.instrument.unpair())
        _ = try pairCommand("head -c 40000 /dev/zero; exit 1", on: harness)
        #expect(try harness.instrument.lastFailure() == nil, "unpairing forgets it")
    }

    /// A capture that ends by its duration or a stop is no failure.
    @Test func aCaptureThatEndsWellLeavesTheDeviceIdle() async throws {
        let harness = try await CaptureHarness()
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: 0.2,
            options: CaptureHarness.exact(paced: false))
        _ = try await capture.finished()
        #expect(try harness.instrument.status() == .idle(deviceID: capture.device.id))
    }

    /// An ALSA PCM that is not there when a capture starts: the start fails with the
    /// device's error (not a wrapper), and Main shows it disconnected.
    @Test func aDeviceThatCannotBeOpenedIsShownDisconnected() async throws {
        let harness = try await CaptureHarness()
        let device = PairedDevice(
            instrument: InstrumentSettings(
                kind: .alsa, address: "sonde-no-such-pcm", sampleRate: 48000, channels: 2, sampleType: .i32le),
            pairedAt: Date())
        try harness.instrument.connection.remember(device)
        do {
            _ = try harness.instrument.startCapture(
                for: harness.ann, settings: try CaptureHarness.settings(), duration: 1,
                options: CaptureHarness.exact(paced: false))
            Issue.record("a capture started on a PCM that does not exist")
        } catch let error as SondeError {
            #expect(error.message.contains("sonde-no-such-pcm"), "\(error.message)")
        }
        let failure = try #require(try harness.instrument.lastFailure())
        #expect(failure.deviceID == device.id && failure.message.contains("sonde-no-such-pcm"))
    }

    @Test func theMessageIsOneLineWithoutTheErrorCode() {
        let failure = DeviceFailure(
            deviceID: "d", error: SondeError(.io, "the command exited\n  last line: gone  \n"), at: 5)
        #expect(failure.message == "the command exited last line: gone")
        #expect(failure.at == 5)
    }
}
