import Foundation
import Hummingbird
import NIOCore
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondeReport

/// The measurement operations the screens need, over the `MeasurementService` the
/// commands use, for the account of the session passed in.
struct WebMeasurements: Sendable {
    let service: any MeasurementService
    /// What `sonde measurements export` writes into a Parquet footer, so the bytes are equal.
    let parquet: ParquetWriterOptions
    /// The report page's trended columns and the program it names.
    let reportTrends: [String]
    let madeBy: String
    /// Exports being written at once (each holds one measurement's records).
    let slots: ExportSlots

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

    /// The page `sonde measurements report ID` writes, with a link back to the measurement
    /// (a file has nothing to go back to, so only here).
    func report(_ id: MeasurementID, for session: WebSession) async throws -> String {
        let (measurement, batches) = try await service.records(id: id, for: session.account)
        return SavedMeasurementReport.html(
            measurement: measurement, batches: batches, trends: reportTrends, madeBy: madeBy,
            back: (AppRoute.measurement(id).path, "Back to measurement \(id)"))
    }

    /// Exactly the bytes `sonde measurements export ID -o x.FORMAT` writes, written to a
    /// private temporary file (in an export slot), then sent from it.
    func export(_ id: MeasurementID, format: OutputFormat, for session: WebSession) async throws -> ResponseBody {
        let folder = try ScratchDirectory()
        let path = folder.path + "/export." + format.rawValue
        do {
            try await slots.run {
                try await service.export(
                    id: id, format: format, parquet: parquet, for: session.account,
                    to: OutputFile(atomicallyReplacing: path))
            }
            return try ExportDownload.body(file: path, folder: folder)
        } catch {
            folder.remove()
            throw error
        }
    }

    /// The index `measurements.json` and every measurement of the account as CSV, in one
    /// zip written as it goes: the index first, so the first bytes leave at once; then each
    /// measurement exported (in an export slot) and deflated on disk, then sent. A measurement deleted meanwhile is left
    /// out, as if listed a moment later.
    func exportAll(for session: WebSession) async throws -> ResponseBody {
        let measurements = try await service.list(for: session.account)
        let service = service
        let parquet = parquet
        let slots = slots
        let account = session.account
        return ResponseBody { writer in
            let folder = try ScratchDirectory()
            defer { folder.remove() }
            var zip = ZipStream()
            func add(_ name: String, from path: String, to writer: inout any ResponseBodyWriter) async throws {
                try await writer.write(ByteBuffer(bytes: try zip.begin("measurements/" + name)))
                let deflated = folder.path + "/entry.deflate"
                let (crc, compressedSize, size) = try await ExportDownload.deflate(path, into: deflated)
                try await ExportDownload.send(file: deflated, to: &writer)
                try await writer.write(
                    ByteBuffer(bytes: try zip.end(crc: crc, compressedSize: compressedSize, size: size)))
            }
            // The index first: it is known at once, so the download's first bytes leave
            // before any measurement is exported.
            let index = folder.path + "/measurements.json"
            let file = try OutputFile(atomicallyReplacing: index)
            try file.write(MeasurementIndex.json(measurements).utf8)
            try file.commit()
            try await add("measurements.json", from: index, to: &writer)
            for measurement in measurements {
                let path = folder.path + "/entry.csv"
                do {
                    try await slots.run {
                        try await service.export(
                            id: measurement.id, format: .csv, parquet: parquet, for: account,
                            to: OutputFile(atomicallyReplacing: path))
                    }
                } catch let error as SondeError where error.code == .notFound {
                    continue
                }
                try await add("measurement-\(measurement.id).csv", from: path, to: &writer)
            }
            try await writer.write(ByteBuffer(bytes: try zip.finish()))
            try await writer.finish(nil)
        }
    }
}

/// A private temporary folder, removed with everything in it.
struct ScratchDirectory: Sendable {
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
