public import SondeAccounts
public import SondeCore
public import SondeIO

/// Saved measurements of one account: save a capture, list, show, export, delete.
///
/// Every operation acts for the account it is given (the CLI's from its session file, the
/// web's from the request's session), so one service serves every user of a process.
/// Another user's measurement is answered exactly as a missing one: `SondeError(.notFound)`.
/// `LocalMeasurementService` implements it over a `MeasurementStore`.
public protocol MeasurementService: Sendable {
    /// Checks the records against the capture, computes the per-channel summary (mean of
    /// each column) and stores everything in one transaction.
    /// - Parameter records: the per-window batches in order, as the pipeline emitted them
    ///   (possibly none, when the capture was shorter than one window).
    /// - Throws: `SondeError(.invalidArgument)` for records that do not match the capture
    ///   (channels, column count, hop, clock, or frames not contiguous).
    func save(
        _ capture: MeasurementCapture, records: [RecordBatch], for owner: Account
    ) async throws
        -> SavedMeasurement

    /// Newest first.
    func list(for owner: Account) async throws -> [SavedMeasurement]

    /// The lines of a list, newest first, from the `offset`-th (0 is the newest) on, at
    /// most `limit` of them (nil: all): what a list shows, read without the rest.
    /// - Throws: `SondeError(.invalidArgument)` for a negative offset or a limit under 1.
    func listings(for owner: Account, offset: Int, limit: Int?) async throws -> [MeasurementListing]

    /// `listings` in batches as the store reads them (`MeasurementStore.listingBatches`).
    /// - Throws: `SondeError(.invalidArgument)` for a negative offset or a limit under 1.
    func listingBatches(
        for owner: Account, offset: Int, limit: Int?
    ) throws -> AsyncThrowingStream<[MeasurementListing], any Error>

    /// How many measurements the owner has (for a list's pages).
    func count(for owner: Account) async throws -> Int

    /// - Throws: `SondeError(.notFound)` when the owner has no measurement `id`.
    func show(id: MeasurementID, for owner: Account) async throws -> SavedMeasurement

    /// A measurement and its per-window records, in order, for a report of its values.
    /// - Throws: `SondeError(.notFound)` when the owner has no measurement `id`.
    func records(
        id: MeasurementID, for owner: Account
    ) async throws
        -> (measurement: SavedMeasurement, batches: [RecordBatch])

    /// Writes the series in exactly the format `sonde process` writes for the same records,
    /// then commits `output` (a file, standard output, or a `ByteSink` such as a download);
    /// on failure `output` is abandoned.
    /// - Parameter parquet: for `.parquet`: compression, row groups, and footer metadata, to
    ///   which the measurement's settings are added as `sonde.settings`.
    /// - Throws: `SondeError(.notFound)` when the owner has no measurement `id`.
    func export(
        id: MeasurementID, format: OutputFormat, parquet: ParquetWriterOptions, for owner: Account,
        to output: OutputFile
    ) async throws

    /// One file per measurement, `measurement-ID.FORMAT`, and an index `measurements.json`
    /// (metadata and summaries) in `directory`, created if missing.
    /// - Returns: the files written, measurements first (newest first), the index last.
    func exportAll(
        format: OutputFormat, parquet: ParquetWriterOptions, for owner: Account, directory: String
    )
        async throws -> [String]

    /// - Throws: `SondeError(.notFound)` when the owner has no measurement `id`.
    func delete(id: MeasurementID, for owner: Account) async throws
}

extension MeasurementService {
    /// `export` with the default Parquet options.
    public func export(
        id: MeasurementID, format: OutputFormat, for owner: Account, to output: OutputFile
    )
        async throws
    {
        try await export(id: id, format: format, parquet: ParquetWriterOptions(), for: owner, to: output)
    }

    /// `exportAll` with the default Parquet options.
    public func exportAll(format: OutputFormat, for owner: Account, directory: String) async throws -> [String] {
        try await exportAll(format: format, parquet: ParquetWriterOptions(), for: owner, directory: directory)
    }
}
