import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondeMeasurements
import SondePipeline
import SondeSQLite
import Synchronization
import Testing
import _SondeTestSupport

/// A paired simulated device, a SQLite database with two users, and the measurement
/// service over it, in a temporary directory.
struct CaptureHarness {
    let directory: URL
    let instrument: Instrument
    let measurements: LocalMeasurementService
    let ann: Account
    let bob: Account
    static let seed: UInt64 = 4

    init() async throws {
        directory = try TestScratch.folder("sonde-capture")
        var connection = FileDeviceConnection(directory: directory)
        connection.handshakeMilliseconds = 1...2
        instrument = Instrument(connection: connection)
        let database = try SQLiteDatabase(path: directory.path + "/sonde.sqlite")
        let users = SQLiteUserSessionStore(database: database)
        ann = try await users.createUser(email: "ann@example.com", passwordHash: "unused", createdAt: 0)
        bob = try await users.createUser(email: "bob@example.com", passwordHash: "unused", createdAt: 0)
        measurements = LocalMeasurementService(store: SQLiteMeasurementStore(database: database))
        _ = try await instrument.pair(profileText: Self.profile, profileSource: "test", seed: Self.seed)
    }

    /// Two channels at 25.6 kHz (the default pump's shape), cheap to measure.
    static let profile = """
        name = "test-pump"
        rate = 25600

        [[channels]]
        name = "accel_x"
        tones = [{ frequency = 49.5, amplitude = 0.8 }]
        noise = 0.03

        [[channels]]
        name = "accel_y"
        tones = [{ frequency = 346.5, amplitude = 0.15 }]
        noise = 0.03
        offset = 9.81
        """

    static func settings() throws -> PipelineSettings {
        try PipelineSettings(frameLength: 1024, features: [.rms, .peak, .kurtosis])
    }

    /// Options that lose no sample, so records can be compared exactly.
    static func exact(paced: Bool) -> CaptureOptions {
        CaptureOptions(jobs: 2, version: "test", overrun: .block, paced: paced)
    }

    /// The records the pipeline gives for the paired device's first `frames` frames, run
    /// as `sonde measure` ran it before SondeCapture: the graph over the device's source.
    func directRecords(frames: Int) async throws -> [RecordBatch] {
        let device = try #require(try instrument.paired()).makeDevice()
        let settings = try Self.settings()
        let rate = device.format.sampleRate
        let graph = PipelineGraph(settings: settings, options: .live(jobs: 2, sampleRate: rate))
        let source = LimitedSource(base: LiveClockSource(base: device, policy: .block, paced: false), frames: frames)
        let collected = Collected()
        _ = try await graph.run(inputs: [
            PipelineGraph.Input(name: "direct", source: source, clock: .seconds(sampleRate: rate, offset: 0))
        ]) {
            collected.append($0)
        }
        return collected.batches
    }
}

/// Batches gathered from the graph's emitting thread.
final class Collected: Sendable {
    private let state = Mutex<[RecordBatch]>([])
    func append(_ batch: RecordBatch) { state.withLock { $0.append(batch) } }
    var batches: [RecordBatch] { state.withLock { $0 } }
}

/// Every record's values in frame order (the batches' split does not matter).
func values(_ batches: [RecordBatch]) -> [Double] {
    batches.flatMap(\.values)
}
