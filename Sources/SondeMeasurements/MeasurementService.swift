public import SondeCore
public import SondeIO

/// Saved measurements of the logged-in user: save a capture, list, show, export, delete.
///
/// Every operation acts for the account the `AuthenticationService` says is logged in and
/// throws `AccountError.notLoggedIn` otherwise; another user's measurement is answered as
/// missing. `LocalMeasurementService` implements it over a `MeasurementStore`.
public protocol MeasurementService: Sendable {
    /// Checks the records against the capture, computes the per-channel summary (mean of
    /// each column) and stores everything in one transaction.
    /// - Parameter records: the per-window batches in order, as the pipeline emitted them
    ///   (possibly none, when the capture was shorter than one window).
    /// - Throws: `SondeError(.invalidArgument)` for records that do not match the capture
    ///   (channels, column count, hop, clock, or frames not contiguous).
    func save(_ capture: MeasurementCapture, records: [RecordBatch]) async throws -> SavedMeasurement

    /// Newest first.
    func list() async throws -> [SavedMeasurement]

    /// - Throws: `SondeError(.invalidArgument)` when the user has no measurement `id`.
    func show(id: MeasurementID) async throws -> SavedMeasurement

    /// Writes the series in exactly the format `sonde process` writes for the same records,
    /// then commits `output`.
    /// - Parameter parquet: for `.parquet`: compression, row groups, and footer metadata, to
    ///   which the measurement's settings are added as `sonde.settings`.
    func export(
        id: MeasurementID, format: OutputFormat, parquet: ParquetWriterOptions, to output: OutputFile) async throws

    /// A measurement and its per-window records, in order, for a report of its values.
    /// - Throws: `SondeError(.invalidArgument)` when the user has no measurement `id`.
    func records(id: MeasurementID) async throws -> (measurement: SavedMeasurement, batches: [RecordBatch])

    /// One file per measurement, `measurement-ID.FORMAT`, and an index `measurements.json`
    /// (metadata and summaries) in `directory`, created if missing.
    /// - Returns: the files written, measurements first (newest first), the index last.
    func exportAll(format: OutputFormat, parquet: ParquetWriterOptions, directory: String) async throws -> [String]

    /// - Throws: `SondeError(.invalidArgument)` when the user has no measurement `id`.
    func delete(id: MeasurementID) async throws
}

extension MeasurementService {
    /// `export` with the default Parquet options.
    public func export(id: MeasurementID, format: OutputFormat, to output: OutputFile) async throws {
        try await export(id: id, format: format, parquet: ParquetWriterOptions(), to: output)
    }

    /// `exportAll` with the default Parquet options.
    public func exportAll(format: OutputFormat, directory: String) async throws -> [String] {
        try await exportAll(format: format, parquet: ParquetWriterOptions(), directory: directory)
    }
}
