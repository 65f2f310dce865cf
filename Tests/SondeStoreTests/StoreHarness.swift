import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondePostgres
import SondeSQLite
import SondeStore
import SondeStoreFormat
import Testing
import _SondeTestSupport

/// The engines the store tests run on: SQLite always; PostgreSQL too when
/// `SONDE_TEST_DATABASE_URL` names a server (`make test` starts one, so there it always does).
enum StoreEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    static let serverVariable = "SONDE_TEST_DATABASE_URL"

    static var available: [StoreEngine] {
        ProcessInfo.processInfo.environment[serverVariable].map { $0.isEmpty ? [.sqlite] : allCases } ?? [.sqlite]
    }

    /// The test server's maintenance database, where each test's own database is made.
    static func serverLocation() throws -> PostgresLocation {
        let environment = ProcessInfo.processInfo.environment
        let text = try #require(environment[serverVariable], "\(serverVariable) names no PostgreSQL server")
        return try PostgresLocation(parsing: text, environment: environment)
    }

    var testDescription: String { rawValue }
}

/// A fresh database (a SQLite file in a temporary directory, or a new database on the test
/// server) and clients over it, each with its own session file, as separate machines (or
/// users) would have.
struct StoreHarness: Sendable {
    typealias Stores = (users: any UserSessionStore, measurements: any MeasurementStore)

    let engine: StoreEngine
    let directory: String
    let url: StoreURL
    /// The first instance's stores; `anotherInstance()` opens more on the same database.
    let stores: Stores
    let sqlite: SQLiteDatabase?
    let postgres: PostgresDatabase?

    init(_ engine: StoreEngine = .sqlite) async throws {
        self.engine = engine
        directory = try TestScratch.folder("sonde-store").path
        switch engine {
        case .sqlite:
            let database = try SQLiteDatabase(path: directory + "/sonde.sqlite")
            self.url = .sqlite(path: database.path)
            sqlite = database
            postgres = nil
            stores = (SQLiteUserSessionStore(database: database), SQLiteMeasurementStore(database: database))
        case .postgres:
            let location = try await Self.newPostgresDatabase()
            // One connection, as a command opens it (`anotherInstance` is a server's pool):
            // every store test runs through both ways of reaching the server.
            let database = try await PostgresDatabase.open(location: location, maximumConnections: 1)
            self.url = .postgres(location)
            sqlite = nil
            postgres = database
            stores = (PostgresUserSessionStore(database: database), PostgresMeasurementStore(database: database))
        }
    }

    /// A new, empty database on the test server: one per test, so tests never collide.
    static func newPostgresDatabase() async throws -> PostgresLocation {
        let server = try StoreEngine.serverLocation()
        let name = "sonde_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresDatabase.createDatabase(named: name, admin: server)
        return server.with(database: name)
    }

    /// The same database opened again, as a second process (another `sonde serve`) opens it.
    func anotherInstance() async throws -> Stores {
        switch url {
        case .sqlite(let path):
            let database = try SQLiteDatabase(path: path)
            return (SQLiteUserSessionStore(database: database), SQLiteMeasurementStore(database: database))
        case .postgres(let location):
            let database = try await PostgresDatabase.open(location: location, maximumConnections: 8)
            return (PostgresUserSessionStore(database: database), PostgresMeasurementStore(database: database))
        }
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

    /// - Parameters:
    ///   - name: names the client's session file (two clients of one name share it, as two
    ///     processes of one user on one machine do).
    ///   - instance: the stores to work through (default: the first instance's).
    func client(
        _ name: String, instance: Stores? = nil, source: String = LoginSource.current,
        now: @escaping @Sendable () -> Double = WallClock.now
    ) -> Client {
        let stores = instance ?? self.stores
        let sessionFile = SessionFile(path: "\(directory)/\(name)/session")
        let service = LocalAuthenticationService(
            store: stores.users, mailer: OutboxMailer(directory: directory + "/outbox"),
            hasher: PasswordHasher(parameters: .scrypt(ScryptParameters(logN: 10))), now: now
        )
        let authentication = SessionFileClient(service: service, credentials: sessionFile, client: source)
        let measurements = LocalMeasurementService(store: stores.measurements, now: now)
        return Client(
            authentication: authentication,
            measurements: SignedInMeasurements(service: measurements, session: authentication),
            sessionFile: sessionFile)
    }

    /// Everything the database holds: SQLite's file with its WAL and shared-memory files;
    /// on PostgreSQL every row of every table as text (`bytea` as hex), since the server's
    /// files are not ours to read.
    func storedBytes() async throws -> Data {
        var bytes = Data()
        if let sqlite {
            for suffix in ["", "-wal", "-shm"] {
                if let data = FileManager.default.contents(atPath: sqlite.path + suffix) { bytes.append(data) }
            }
        }
        if let postgres {
            for table in ["users", "sessions", "reset_tokens", "login_failures", "measurements", "measurement_batches"]
            {
                let rows = try await postgres.texts("SELECT t::text FROM \(table) t")
                for row in rows { bytes.append(Data((row ?? "").utf8)) }
            }
        }
        return bytes
    }

    func isConsistent() async throws -> Bool {
        if let sqlite { return try sqlite.isConsistent() }
        return try await postgres?.isConsistent() ?? false
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

    func listings(offset: Int = 0, limit: Int? = nil) async throws -> [MeasurementListing] {
        try await service.listings(for: session.requireAccount(), offset: offset, limit: limit)
    }

    /// The batches `listingBatches` hands over, as they came.
    func listingBatches(offset: Int = 0, limit: Int? = nil) async throws -> [[MeasurementListing]] {
        var batches: [[MeasurementListing]] = []
        let stream = try await service.listingBatches(
            for: session.requireAccount(), offset: offset, limit: limit)
        for try await batch in stream { batches.append(batch) }
        return batches
    }

    func count() async throws -> Int {
        try await service.count(for: session.requireAccount())
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
/// - Parameter seed: varies the values (a seed of 0 gives the values tests have always used).
func sampleBatches(
    frames: Int, batchSize: Int = 7, clock: RecordClock = .seconds(sampleRate: 25_600, offset: 0.125), hop: Int = 512,
    seed: Int = 0
) -> [RecordBatch] {
    stride(from: 0, to: frames, by: batchSize).map { first in
        let count = min(batchSize, frames - first)
        var values: [Double] = []
        for frame in first..<(first + count) {
            for channel in 0..<2 {
                for column in 0..<3 {
                    values.append(
                        sin(Double(frame * 7 + channel * 3 + column + seed * 1009)) * pow(10, Double(column - 1))
                            + 1.0 / 3.0)
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
