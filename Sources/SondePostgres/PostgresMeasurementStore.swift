import Foundation
import PostgresNIO
public import SondeAccounts
public import SondeCore
public import SondeMeasurements
import SondeStoreFormat

/// Saved measurements in `PostgresDatabase`, laid out as `SQLiteMeasurementStore` lays them
/// out: a `measurements` row (the JSON columns written by the same `StoredJSON`) and one
/// `measurement_batches` row per batch whose `samples` are `DoubleBlob`'s bytes, so a
/// series read back from either engine is bit for bit the one saved.
public struct PostgresMeasurementStore: MeasurementStore {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    private var logger: Logger { PostgresDatabase.logger }

    static let columns =
        "id, user_id, recorded_at, device_id, settings, comment, channels, columns, hop, clock, frame_count, summary"

    public func insert(_ new: NewMeasurement) async throws -> SavedMeasurement {
        let id = try await database.transaction("save a measurement") { connection in
            try await Self.insert(new, id: nil, on: connection, database: database)
        }
        return SavedMeasurement(
            id: MeasurementID(id), owner: new.owner, recordedAt: new.recordedAt, deviceID: new.capture.deviceID,
            settings: new.capture.settings, comment: new.capture.comment, channelNames: new.capture.channelNames,
            columns: new.capture.columns, hop: new.hop, clock: new.clock, summary: new.summary
        )
    }

    /// Inserts the measurement row (under `id`, or the next of the identity) and its batches,
    /// inside the caller's transaction.
    /// - Returns: the measurement's id.
    static func insert(
        _ new: NewMeasurement, id: Int64?, on connection: PostgresConnection, database: PostgresDatabase
    ) async throws -> Int64 {
        let channels = try StoredJSON.encode(new.capture.channelNames)
        let columns = try StoredJSON.encode(new.capture.columns)
        let clock = try new.clock.map(StoredJSON.encode)
        let summary = try StoredJSON.encode(new.summary)
        let listed = ListedMeans.encode(listedPartOf: new.summary)
        let row = try await connection.query(
            """
            INSERT INTO measurements (id, user_id, recorded_at, device_id, settings, comment, channels, columns,
                hop, clock, frame_count, summary, listed_means)
            VALUES (COALESCE(\(id), nextval(pg_get_serial_sequence('measurements', 'id'))), \(new.owner.rawValue),
                \(new.recordedAt), \(new.capture.deviceID), \(new.capture.settings), \(new.capture.comment), \(channels),
                \(columns), \(new.hop), \(clock), \(new.summary.frameCount), \(summary), \(listed))
            RETURNING id
            """, logger: PostgresDatabase.logger
        ).collect().first
        guard let id = try row?.decode(Int64.self) else {
            throw SondeError(.io, "database \(database.location): the new measurement got no id")
        }
        for (sequence, batch) in new.batches.enumerated() {
            try await connection.query(
                """
                INSERT INTO measurement_batches (measurement_id, sequence, first_frame, frame_count, samples)
                VALUES (\(id), \(sequence), \(batch.firstFrame), \(batch.frameCount), \(DoubleBlob.encode(batch.values)))
                """, logger: PostgresDatabase.logger)
        }
        return id
    }

    public func measurements(owner: UserID) async throws -> [SavedMeasurement] {
        try await database.withConnection("list measurements") { connection in
            try await connection.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT \(Self.columns) FROM measurements WHERE user_id = $1 ORDER BY recorded_at DESC, id DESC",
                    binds: Self.binds(owner.rawValue)),
                logger: logger
            ).collect().map { [reader = StoredJSONReader()] row in try Self.measurement(row, reader: reader) }
        }
    }

    public func listingBatches(
        owner: UserID, offset: Int, limit: Int?
    ) -> AsyncThrowingStream<[MeasurementListing], any Error> {
        let database = database
        return ListingBatches.stream { batches in
            try await database.withConnection("list measurements") { connection in
                // Only columns of the `measurements_listed_means` index: an index-only scan
                // (the planner took a scan and a sort of the table before the subquery was
                // there, 12 ms against 3). A row an older sonde wrote after migration 5
                // has no listed means: its summary's bytes, fetched for that row alone.
                // LIMIT NULL: PostgreSQL's "no limit".
                let rows = try await connection.query(
                    """
                    SELECT id, recorded_at, device_id, comment,
                        COALESCE(listed_means,
                            (SELECT convert_to(summary, 'UTF8') FROM measurements AS whole WHERE whole.id = measurements.id))
                    FROM measurements WHERE user_id = \(owner.rawValue)
                    ORDER BY recorded_at DESC, id DESC LIMIT \(limit.map(Int64.init)) OFFSET \(Int64(offset))
                    """, logger: PostgresDatabase.logger)
                let reader = StoredJSONReader()
                for try await row in rows {
                    // Cell by cell (the tuple decode's generic path was a tenth of the
                    // listing's time), the listed part read in the row's buffer.
                    var cells = row.makeIterator()
                    guard let id = cells.next(), let recordedAt = cells.next(), let device = cells.next(),
                        let comment = cells.next(), let listed = cells.next()?.bytes
                    else { throw SondeError(.io, "a listing row without its five columns") }
                    let (frames, channels) = try listed.withUnsafeReadableBytes { try reader.mainValues(utf8: $0) }
                    let listing = MeasurementListing(
                        id: MeasurementID(try id.decode(Int64.self)), recordedAt: try recordedAt.decode(Double.self),
                        deviceID: try device.decode(String.self), frameCount: frames,
                        comment: try comment.decode(String.self), channels: channels)
                    guard batches.add(listing) else { return }
                }
            }
        }
    }

    public func measurementCount(owner: UserID) async throws -> Int {
        try await database.withConnection("count measurements") { connection in
            var count = 0
            let rows = try await connection.query(
                "SELECT count(*) FROM measurements WHERE user_id = \(owner.rawValue)", logger: logger)
            for try await value in rows.decode(Int64.self) { count = Int(value) }
            return count
        }
    }

    public func measurement(id: MeasurementID, owner: UserID) async throws -> SavedMeasurement? {
        try await database.withConnection("read a measurement") { connection in
            try await Self.measurement(id: id, owner: owner, on: connection)
        }
    }

    public func batches(of id: MeasurementID, owner: UserID) async throws -> [RecordBatch]? {
        // One snapshot for the row and its batches, as SQLite's read transaction gives.
        try await database.transaction("read a measurement's records", isolation: "REPEATABLE READ READ ONLY") {
            connection in
            guard let measurement = try await Self.measurement(id: id, owner: owner, on: connection) else {
                return nil
            }
            guard let hop = measurement.hop, let clock = measurement.clock else { return [] }
            var batches: [RecordBatch] = []
            let rows = try await connection.query(
                """
                SELECT first_frame, frame_count, samples FROM measurement_batches
                WHERE measurement_id = \(id.rawValue) ORDER BY sequence
                """, logger: logger)
            for try await (firstFrame, frameCount, samples) in rows.decode((Int, Int, ByteBuffer).self) {
                guard let values = samples.withUnsafeReadableBytes({ DoubleBlob.decode($0) }) else {
                    throw SondeError(
                        .invalidInput, "database \(database.location): measurement \(id) has a damaged batch")
                }
                batches.append(
                    RecordBatch(
                        fileName: "measurement-\(id)", channelNames: measurement.channelNames,
                        columnCount: measurement.columns.count, firstFrame: firstFrame, frameCount: frameCount,
                        hop: hop, clock: clock, values: values
                    )
                )
            }
            return batches
        }
    }

    public func delete(id: MeasurementID, owner: UserID) async throws -> Bool {
        try await database.withConnection("delete a measurement") { connection in
            // The batches go with it (ON DELETE CASCADE).
            let deleted = try await connection.query(
                "DELETE FROM measurements WHERE id = \(id.rawValue) AND user_id = \(owner.rawValue) RETURNING id",
                logger: logger
            ).collect()
            return !deleted.isEmpty
        }
    }

    private static func measurement(
        id: MeasurementID, owner: UserID, on connection: PostgresConnection
    )
        async throws -> SavedMeasurement?
    {
        try await connection.query(
            PostgresQuery(
                unsafeSQL: "SELECT \(columns) FROM measurements WHERE id = $1 AND user_id = $2",
                binds: binds(id.rawValue, owner.rawValue)),
            logger: PostgresDatabase.logger
        ).collect().first.map { try measurement($0) }
    }

    private static func binds(_ values: Int64...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }

    private static func measurement(
        _ row: PostgresRow, reader: StoredJSONReader = StoredJSONReader()
    ) throws
        -> SavedMeasurement
    {
        let (id, owner, recordedAt, deviceID, settings, comment, channels, columns, hop, clock, _, summary) =
            try row.decode(
                (Int64, Int64, Double, String, String, String, String, String, Int?, String?, Int, String).self)
        return SavedMeasurement(
            id: MeasurementID(id), owner: UserID(owner), recordedAt: recordedAt, deviceID: deviceID, settings: settings,
            comment: comment, channelNames: try StoredJSON.decodeStrings(channels, with: reader),
            columns: try StoredJSON.decodeStrings(columns, with: reader), hop: hop,
            clock: try clock.map { try StoredJSON.decodeClock($0, with: reader) },
            summary: try StoredJSON.decodeSummary(summary, with: reader)
        )
    }
}
