import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import ZIPFoundation

/// The measurement operations the screens need, for the account of the session passed in.
///
/// Over today's `LocalMeasurementService`, which acts for whoever its authentication
/// service says is signed in: each call gets one whose credentials are this request's.
struct WebMeasurements: Sendable {
    let store: any MeasurementStore
    let accounts: WebAccounts
    /// What `sonde measurements export` writes into a Parquet footer, so the bytes are equal.
    let parquet: ParquetWriterOptions

    func service(for session: WebSession) -> any MeasurementService {
        LocalMeasurementService(
            store: store,
            session: SessionFileClient(
                service: accounts.service, credentials: RequestCredentials(token: session.token), client: "web"))
    }

    func list(for session: WebSession) async throws -> [SavedMeasurement] {
        try await mapped { try await service(for: session).list() }
    }

    func show(_ id: MeasurementID, for session: WebSession) async throws -> SavedMeasurement {
        try await mapped { try await service(for: session).show(id: id) }
    }

    func records(
        _ id: MeasurementID, for session: WebSession
    ) async throws -> (
        measurement: SavedMeasurement, batches: [RecordBatch]
    ) {
        try await mapped { try await service(for: session).records(id: id) }
    }

    func save(
        _ capture: MeasurementCapture, records: [RecordBatch], for session: WebSession
    ) async throws
        -> SavedMeasurement
    {
        try await service(for: session).save(capture, records: records)
    }

    func delete(_ id: MeasurementID, for session: WebSession) async throws {
        try await mapped { try await service(for: session).delete(id: id) }
    }

    /// Exactly the bytes `sonde measurements export ID -o x.FORMAT` writes.
    func export(_ id: MeasurementID, format: OutputFormat, for session: WebSession) async throws -> [UInt8] {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let path = directory.path + "/export." + format.rawValue
        try await mapped {
            try await service(for: session).export(
                id: id, format: format, parquet: parquet, to: OutputFile(atomicallyReplacing: path))
        }
        return try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every measurement of the account as CSV plus the index `measurements.json`, in one zip.
    func exportAll(for session: WebSession) async throws -> [UInt8] {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let files = try await service(for: session).exportAll(
            format: .csv, parquet: parquet, directory: directory.path + "/measurements")
        let archive = try Archive(accessMode: .create)
        for file in files {
            let name = (file as NSString).lastPathComponent
            try archive.addEntry(
                with: "measurements/" + name, fileURL: URL(fileURLWithPath: file), compressionMethod: .deflate)
        }
        guard let data = archive.data else {
            throw SondeError(.io, "cannot build the export archive in memory")
        }
        return Array(data)
    }

    /// Today's service says "no measurement 12 in your account" with `.invalidArgument`:
    /// the screens answer it 404.
    private func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SondeError where error.message.hasPrefix("no measurement ") {
            throw WebError.notFound
        }
    }
}

/// A private temporary folder, removed with everything in it.
struct ScratchDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/sonde-app-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
