import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondeMeasurements
import SondePipeline
import Testing

/// Issue 29: the capture `sonde measure` runs, as a library the web's New measurement
/// screen runs too; one device, one capture at a time.
@Suite struct LiveCaptureTests {
    @Test func aSecondCaptureIsRefusedWhileOneRuns() async throws {
        let harness = try await CaptureHarness()
        let settings = try CaptureHarness.settings()
        #expect(try harness.instrument.status() == .idle(deviceID: try #require(try harness.instrument.paired()).id))
        let first = try harness.instrument.startCapture(
            for: harness.ann, settings: settings, duration: nil, options: CaptureHarness.exact(paced: true))
        guard case .busy(_, let user, let since) = try harness.instrument.status() else {
            Issue.record("the instrument is not busy during a capture")
            return
        }
        #expect(user == harness.ann)
        #expect(since == first.startedAt)
        for owner in [harness.bob, harness.ann] {
            do {
                _ = try harness.instrument.startCapture(
                    for: owner, settings: settings, duration: 1, options: CaptureHarness.exact(paced: true))
                Issue.record("a second capture started for \(owner.email)")
            } catch let error as SondeError {
                #expect(error.code == .busy)
                #expect(error.message.contains("ann@example.com"), "\(error.message)")
            }
        }
        await #expect(throws: SondeError.self) {
            _ = try await harness.instrument.pair(profileText: CaptureHarness.profile, profileSource: "x", seed: 1)
        }
        #expect(throws: SondeError.self) { _ = try harness.instrument.unpair() }
        await first.discard()
        #expect(try harness.instrument.status() == .idle(deviceID: first.device.id))
        let second = try harness.instrument.startCapture(
            for: harness.bob, settings: settings, duration: 0.1, options: CaptureHarness.exact(paced: true))
        await second.discard()
    }

    /// A capture stopped part-way and saved holds exactly the windows the pipeline gives
    /// for the device's first samples, run directly as `sonde measure` ran it before.
    @Test func stopAndSaveKeepsTheSameRecordsAsTheGraphRunDirectly() async throws {
        let harness = try await CaptureHarness()
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: nil,
            options: CaptureHarness.exact(paced: true))
        while capture.latest().frameCount < 10 { try await Task.sleep(for: .milliseconds(20)) }
        let live = capture.latest()
        #expect(live.columns == ["rms", "peak", "kurtosis"])
        #expect(live.channels.map(\.name) == ["accel_x", "accel_y"])
        #expect(live.channels.allSatisfy { $0.values.count == 3 })
        #expect(live.elapsedSeconds > 0)

        let saved = try await capture.save(comment: "stopped by hand", with: harness.measurements)
        #expect(saved.comment == "stopped by hand")
        #expect(saved.deviceID == capture.device.id)
        #expect(try harness.instrument.status() == .idle(deviceID: capture.device.id), "saving frees the device")
        let (_, batches) = try await harness.measurements.records(id: saved.id, for: harness.ann)
        let frames = batches.reduce(0) { $0 + $1.frameCount }
        #expect(frames >= 10)
        #expect(frames == saved.frameCount)
        // The windows of the first `frames` windows' samples, and no more.
        let direct = try await harness.directRecords(frames: (frames - 1) * 512 + 1024)
        #expect(direct.reduce(0) { $0 + $1.frameCount } == frames)
        #expect(values(batches) == values(direct))
        // The newest values the screen showed last are the saved last window's.
        let last = try #require(batches.last)
        let lastValues = Array(last.values.suffix(2 * 3))
        let final = capture.latest()
        #expect(final.frameCount == frames)
        #expect(final.channels.flatMap(\.values) == lastValues)
        // Saving again (a second tab) answers the same measurement, saves nothing more.
        #expect(try await capture.save(comment: "again", with: harness.measurements).id == saved.id)
        #expect(try await harness.measurements.list(for: harness.ann).count == 1)
        #expect(try await harness.measurements.list(for: harness.bob).isEmpty)
    }

    /// The whole `--duration` capture: the windows of exactly that many samples.
    @Test func aCaptureOfADurationEndsByItself() async throws {
        let harness = try await CaptureHarness()
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: 1,
            options: CaptureHarness.exact(paced: false))
        let series = try await capture.finished()
        #expect(!capture.isRunning)
        // 25,600 samples: (25600 - 1024) / 512 + 1 = 49 windows of 2 channels.
        #expect(series.recordCount == 98)
        #expect(series.capture.recordedAt == capture.startedAt)
        #expect(values(series.batches) == values(try await harness.directRecords(frames: 25_600)))
        let saved = try await capture.save(comment: "", with: harness.measurements)
        #expect(saved.frameCount == 49)
    }

    @Test func discardLeavesNothingSaved() async throws {
        let harness = try await CaptureHarness()
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: nil,
            options: CaptureHarness.exact(paced: true))
        while capture.latest().frameCount < 3 { try await Task.sleep(for: .milliseconds(20)) }
        await capture.discard()
        #expect(!capture.isRunning)
        #expect(try await harness.measurements.list(for: harness.ann).isEmpty)
        #expect(try harness.instrument.status() == .idle(deviceID: capture.device.id))
        await #expect(throws: SondeError.self) {
            _ = try await capture.save(comment: "late", with: harness.measurements)
        }
        #expect(try await harness.measurements.list(for: harness.ann).isEmpty)
    }

    @Test func noPairedDeviceNoCapture() async throws {
        let harness = try await CaptureHarness()
        #expect(try harness.instrument.unpair())
        #expect(try harness.instrument.status() == .notConnected)
        #expect(throws: SondeError.self) {
            _ = try harness.instrument.startCapture(
                for: harness.ann, settings: try CaptureHarness.settings(), duration: 1,
                options: CaptureHarness.exact(paced: false))
        }
    }
}
