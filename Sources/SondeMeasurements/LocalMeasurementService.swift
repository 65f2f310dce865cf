public import SondeAccounts
public import SondeCore
public import SondeIO

/// Saved measurements over a `MeasurementStore`, for the account each call names. Export
/// goes through SondeIO's record writers, so the bytes are those of `sonde process`.
public struct LocalMeasurementService: MeasurementService {
    let store: any MeasurementStore
    let now: @Sendable () -> Double

    public init(store: any MeasurementStore, now: @escaping @Sendable () -> Double = WallClock.now) {
        self.store = store
        self.now = now
    }

    public func save(
        _ capture: MeasurementCapture, records: [RecordBatch], for owner: Account
    ) async throws
        -> SavedMeasurement
    {
        let checked = try MeasurementSummary.checking(
            records, channelNames: capture.channelNames, columns: capture.columns)
        return try await store.insert(
            NewMeasurement(
                owner: owner.id, recordedAt: capture.recordedAt ?? now(), capture: capture, hop: checked.hop,
                clock: checked.clock, summary: checked.summary, batches: records
            )
        )
    }

    public func list(for owner: Account) async throws -> [SavedMeasurement] {
        try await store.measurements(owner: owner.id)
    }

    public func listings(for owner: Account, offset: Int, limit: Int?) async throws -> [MeasurementListing] {
        try Self.checkRange(offset: offset, limit: limit)
        return try await store.listings(owner: owner.id, offset: offset, limit: limit)
    }

    public func listingBatches(
        for owner: Account, offset: Int, limit: Int?
    ) throws -> AsyncThrowingStream<[MeasurementListing], any Error> {
        try Self.checkRange(offset: offset, limit: limit)
        return store.listingBatches(owner: owner.id, offset: offset, limit: limit)
    }

    private static func checkRange(offset: Int, limit: Int?) throws {
        guard offset >= 0, limit.map({ $0 >= 1 }) ?? true else {
            throw SondeError(
                .invalidArgument,
                "a list from \(offset), \(limit.map(String.init) ?? "all"): expected offset >= 0, limit >= 1")
        }
    }

    public func count(for owner: Account) async throws -> Int {
        try await store.measurementCount(owner: owner.id)
    }

    public func show(id: MeasurementID, for owner: Account) async throws -> SavedMeasurement {
        guard let measurement = try await store.measurement(id: id, owner: owner.id) else { throw Self.notFound(id) }
        return measurement
    }

    public func export(
        id: MeasurementID, format: OutputFormat, parquet: ParquetWriterOptions, for owner: Account,
        to output: OutputFile
    ) async throws {
        guard let measurement = try await store.measurement(id: id, owner: owner.id),
            let batches = try await store.batches(of: id, owner: owner.id)
        else {
            output.abandon()
            throw Self.notFound(id)
        }
        try Self.write(measurement, batches, format: format, parquet: parquet, to: output)
    }

    public func records(
        id: MeasurementID, for owner: Account
    ) async throws
        -> (measurement: SavedMeasurement, batches: [RecordBatch])
    {
        guard let measurement = try await store.measurement(id: id, owner: owner.id),
            let batches = try await store.batches(of: id, owner: owner.id)
        else { throw Self.notFound(id) }
        return (measurement, batches)
    }

    public func exportAll(
        format: OutputFormat, parquet: ParquetWriterOptions, for owner: Account, directory: String
    ) async throws -> [String] {
        try PrivateFiles.makeDirectory(directory)
        var written: [String] = []
        let measurements = try await store.measurements(owner: owner.id)
        for measurement in measurements {
            // Deleted by another process since the listing: skip it, as if listed a moment later.
            guard let batches = try await store.batches(of: measurement.id, owner: owner.id) else { continue }
            let path = "\(directory)/measurement-\(measurement.id).\(format.rawValue)"
            try Self.write(
                measurement, batches, format: format, parquet: parquet, to: OutputFile(atomicallyReplacing: path))
            written.append(path)
        }
        let index = try OutputFile(atomicallyReplacing: directory + "/measurements.json")
        try index.write(MeasurementIndex.json(measurements).utf8)
        try index.commit()
        return written + [directory + "/measurements.json"]
    }

    public func delete(id: MeasurementID, for owner: Account) async throws {
        guard try await store.delete(id: id, owner: owner.id) else { throw Self.notFound(id) }
    }

    private static func write(
        _ measurement: SavedMeasurement, _ batches: [RecordBatch], format: OutputFormat,
        parquet: ParquetWriterOptions, to output: OutputFile
    ) throws {
        do {
            let layout = RecordLayout(valueColumns: measurement.columns, includesFile: false)
            var parquet = parquet
            parquet.keyValueMetadata += [
                ("sonde.settings", measurement.settings), ("sonde.device", measurement.deviceID),
            ]
            let writer = try RecordWriters.make(format: format, layout: layout, output: output, parquet: parquet)
            for batch in batches { try writer.write(batch) }
            try writer.finish()
        } catch {
            output.abandon()
            throw error
        }
    }

    /// The same answer for a missing id and another user's: nothing to learn by guessing.
    static func notFound(_ id: MeasurementID) -> SondeError {
        SondeError(.notFound, "no measurement \(id) in your account")
    }
}
