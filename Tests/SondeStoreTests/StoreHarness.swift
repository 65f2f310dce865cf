import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondeStore

/// A fresh database in a temporary directory, and clients over it, each with its own
/// session file, as separate machines (or users) would have.
struct StoreHarness {
    let directory: String
    let database: SQLiteDatabase

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sonde-store-\(UUID().uuidString)")
        directory = url.path
        database = try SQLiteDatabase(path: directory + "/sonde.sqlite")
    }

    struct Client {
        let authentication: SessionFileClient
        /// The service, for whoever `authentication` holds the session of, as the CLI calls it.
        let measurements: SignedInMeasurements
        let sessionFile: SessionFile

        /// The account of the client's session.
        func account() async throws -> Account {
            try await authentication.requireAccount()
        }
    }

    /// - Parameter name: names the client's session file.
    func client(_ name: String, now: @escaping @Sendable () -> Double = WallClock.now) -> Client {
        let sessionFile = SessionFile(path: "\(directory)/\(name)/session")
        let service = LocalAuthenticationService(
            store: SQLiteUserSessionStore(database: database), mailer: OutboxMailer(directory: directory + "/outbox"),
            hasher: PasswordHasher(parameters: ScryptParameters(logN: 10)), now: now
        )
        let authentication = SessionFileClient(service: service, credentials: sessionFile)
        let measurements = LocalMeasurementService(store: SQLiteMeasurementStore(database: database), now: now)
        return Client(
            authentication: authentication,
            measurements: SignedInMeasurements(service: measurements, session: authentication),
            sessionFile: sessionFile)
    }

    /// Every byte of the database, its WAL and shared-memory files.
    func databaseBytes() throws -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: database.path + suffix) { bytes.append(data) }
        }
        return bytes
    }
}

/// A `MeasurementService` called for the account of a held session, as every `sonde
/// measurements` command calls it: `AccountError.notLoggedIn` without one.
struct SignedInMeasurements {
    let service: LocalMeasurementService
    let session: SessionFileClient

    func save(_ capture: MeasurementCapture, records: [RecordBatch]) async throws -> SavedMeasurement {
        try await service.save(capture, records: records, for: session.requireAccount())
    }

    func list() async throws -> [SavedMeasurement] {
        try await service.list(for: session.requireAccount())
    }

    func show(id: MeasurementID) async throws -> SavedMeasurement {
        try await service.show(id: id, for: session.requireAccount())
    }

    func export(id: MeasurementID, format: OutputFormat, to output: OutputFile) async throws {
        try await service.export(id: id, format: format, for: session.requireAccount(), to: output)
    }

    func exportAll(format: OutputFormat, directory: String) async throws -> [String] {
        try await service.exportAll(format: format, for: session.requireAccount(), directory: directory)
    }

    func delete(id: MeasurementID) async throws {
        try await service.delete(id: id, for: session.requireAccount())
    }
}

/// Deterministic records: `frames` frames of 2 channels and 3 columns in batches of
/// `batchSize` (the last may be shorter), values depending on everything.
func sampleBatches(
    frames: Int, batchSize: Int = 7, clock: RecordClock = .seconds(sampleRate: 25_600, offset: 0.125), hop: Int = 512
) -> [RecordBatch] {
    stride(from: 0, to: frames, by: batchSize).map { first in
        let count = min(batchSize, frames - first)
        var values: [Double] = []
        for frame in first..<(first + count) {
            for channel in 0..<2 {
                for column in 0..<3 {
                    values.append(
                        sin(Double(frame * 7 + channel * 3 + column)) * pow(10, Double(column - 1)) + 1.0 / 3.0)
                }
            }
        }
        return RecordBatch(
            fileName: "live", channelNames: ["x", "y"], columnCount: 3, firstFrame: first, frameCount: count, hop: hop,
            clock: clock, values: values
        )
    }
}

func sampleCapture(comment: String = "pump, after service", recordedAt: Double? = nil) -> MeasurementCapture {
    MeasurementCapture(
        deviceID: "sim-pump-0001", settings: #"{"window":1024,"hop":512,"filters":["highpass:10"]}"#, comment: comment,
        channelNames: ["x", "y"], columns: ["rms", "peak", "band_power:0-500"], recordedAt: recordedAt
    )
}
