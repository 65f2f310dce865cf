import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondeReport
import ZIPFoundation

/// The measurement operations the screens need, over the `MeasurementService` the
/// commands use, for the account of the session passed in.
struct WebMeasurements: Sendable {
    let service: any MeasurementService
    /// What `sonde measurements export` writes into a Parquet footer, so the bytes are equal.
    let parquet: ParquetWriterOptions
    /// The report page's trended columns and the program it names.
    let reportTrends: [String]
    let madeBy: String

    func listings(for session: WebSession, offset: Int, limit: Int) async throws -> [MeasurementListing] {
        try await service.listings(for: session.account, offset: offset, limit: limit)
    }

    func count(for session: WebSession) async throws -> Int {
        try await service.count(for: session.account)
    }

    func show(_ id: MeasurementID, for session: WebSession) async throws -> SavedMeasurement {
        try await service.show(id: id, for: session.account)
    }

    func delete(_ id: MeasurementID, for session: WebSession) async throws {
        try await service.delete(id: id, for: session.account)
    }

    /// The page `sonde measurements report ID` writes.
    func report(_ id: MeasurementID, for session: WebSession) async throws -> String {
        let (measurement, batches) = try await service.records(id: id, for: session.account)
        return SavedMeasurementReport.html(
            measurement: measurement, batches: batches, trends: reportTrends, madeBy: madeBy)
    }

    /// Exactly the bytes `sonde measurements export ID -o x.FORMAT` writes.
    func export(_ id: MeasurementID, format: OutputFormat, for session: WebSession) async throws -> [UInt8] {
        let sink = CollectedBytes()
        try await service.export(
            id: id, format: format, parquet: parquet, for: session.account,
            to: OutputFile(sink: sink, name: "the download of measurement \(id)"))
        return sink.bytes
    }

    /// Every measurement of the account as CSV plus the index `measurements.json`, in one zip.
    func exportAll(for session: WebSession) async throws -> [UInt8] {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let files = try await service.exportAll(
            format: .csv, parquet: parquet, for: session.account, directory: directory.path + "/measurements")
        let archive = try Archive(accessMode: .create)
        for file in files {
            try archive.addEntry(
                with: "measurements/" + URL(fileURLWithPath: file).lastPathComponent,
                fileURL: URL(fileURLWithPath: file), compressionMethod: .deflate)
        }
        guard let data = archive.data else {
            throw SondeError(.io, "cannot build the export archive in memory")
        }
        return Array(data)
    }
}

/// A download's bytes, as the writers flush them; a failed export leaves nothing behind.
final class CollectedBytes: ByteSink {
    private(set) var bytes: [UInt8] = []

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
    }

    func finish() throws {}

    func abandon() {
        bytes = []
    }
}

/// A private temporary folder, removed with everything in it.
struct ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/sonde-app-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
