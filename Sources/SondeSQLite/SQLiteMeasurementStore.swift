import Foundation
import GRDB
public import SondeAccounts
public import SondeCore
public import SondeMeasurements
import SondeStoreFormat

/// Saved measurements in `SQLiteDatabase`: one `measurements` row of metadata and summary,
/// and the series as `measurement_batches` rows (one per pipeline batch, values as a
/// float64 blob), all inserted in one transaction.
public struct SQLiteMeasurementStore: MeasurementStore {
    let database: SQLiteDatabase
    let afterBatchInserted: (@Sendable (_ sequence: Int) -> Void)?

    public init(database: SQLiteDatabase) {
        self.init(database: database, afterBatchInserted: nil)
    }

    /// - Parameter afterBatchInserted: called inside the insert transaction after each
    ///   batch row. Only the crash tests' save loop sets it (to kill a process in the
    ///   middle of a save), so it is not public.
    package init(database: SQLiteDatabase, afterBatchInserted: (@Sendable (_ sequence: Int) -> Void)?) {
        self.database = database
        self.afterBatchInserted = afterBatchInserted
    }

    public func insert(_ new: NewMeasurement) async throws -> SavedMeasurement {
        let hook = afterBatchInserted
        let rows = try Rows(new)
        let id = try await database.write("save a measurement") { db in
            try Self.insert(new, rows: rows, id: nil, in: db, afterBatchInserted: hook)
        }
        return SavedMeasurement(
            id: MeasurementID(id), owner: new.owner, recordedAt: new.recordedAt, deviceID: new.capture.deviceID,
            settings: new.capture.settings, comment: new.capture.comment, channelNames: new.capture.channelNames,
            columns: new.capture.columns, hop: new.hop, clock: new.clock, summary: new.summary
        )
    }

    /// The JSON columns of a measurement, encoded before its transaction starts.
    struct Rows: Sendable {
        var channels: String
        var columns: String
        var clock: String?
        var summary: String
        /// What a listing reads (`MeasurementListing.listedPart`).
        var listedMeans: Data

        init(_ new: NewMeasurement) throws {
            channels = try StoredJSON.encode(new.capture.channelNames)
            columns = try StoredJSON.encode(new.capture.columns)
            clock = try new.clock.map(StoredJSON.encode)
            summary = try StoredJSON.encode(new.summary)
            listedMeans = ListedMeans.encode(listedPartOf: new.summary)
        }
    }

    /// Inserts the measurement row (under `id`, or the next one) and its batches.
    /// - Returns: the measurement's id.
    static func insert(
        _ new: NewMeasurement, rows: Rows, id: Int64?, in db: Database,
        afterBatchInserted hook: (@Sendable (_ sequence: Int) -> Void)?
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO measurements (id, user_id, recorded_at, device_id, settings, comment, channels, columns,
                    hop, clock, frame_count, summary, listed_means)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id, new.owner.rawValue, new.recordedAt, new.capture.deviceID, new.capture.settings, new.capture.comment,
                rows.channels, rows.columns, new.hop, rows.clock, new.summary.frameCount, rows.summary,
                rows.listedMeans,
            ]
        )
        let id = db.lastInsertedRowID
        let statement = try db.makeStatement(
            sql: """
                INSERT INTO measurement_batches (measurement_id, sequence, first_frame, frame_count, samples)
                VALUES (?, ?, ?, ?, ?)
                """
        )
        for (sequence, batch) in new.batches.enumerated() {
            try statement.execute(arguments: [
                id, sequence, batch.firstFrame, batch.frameCount, DoubleBlob.encode(batch.values),
            ])
            hook?(sequence)
        }
        return id
    }

    public func measurements(owner: UserID) async throws -> [SavedMeasurement] {
        try await database.read("list measurements") { db in
            // One JSON reader for every row, and a cursor: no array of rows before the values.
            let reader = StoredJSONReader()
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(Self.columns) FROM measurements WHERE user_id = ? ORDER BY recorded_at DESC, id DESC",
                arguments: [owner.rawValue]
            )
            var measurements: [SavedMeasurement] = []
            while let row = try rows.next() { measurements.append(try Self.measurement(row, reader: reader)) }
            return measurements
        }
    }

    public func listingBatches(
        owner: UserID, offset: Int, limit: Int?
    ) -> AsyncThrowingStream<[MeasurementListing], any Error> {
        let database = database
        return ListingBatches.stream { batches in
            try await database.read("list measurements") { db in
                // Only columns of the `measurements_listed_means` index: SQLite never reads
                // the rows. A row an older sonde wrote after migration 5 has no listed
                // means: its summary, fetched for that row alone. LIMIT -1: SQLite's "no limit".
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT id, recorded_at, device_id, comment,
                            COALESCE(listed_means, (SELECT summary FROM measurements AS whole WHERE whole.id = measurements.id))
                        FROM measurements WHERE user_id = ?
                        ORDER BY recorded_at DESC, id DESC LIMIT ? OFFSET ?
                        """,
                    arguments: [owner.rawValue, limit ?? -1, offset]
                )
                let reader = StoredJSONReader()
                while let row = try rows.next() {
                    // Read in SQLite's buffer: no string made.
                    let (frames, channels) = try row.withUnsafeData(atIndex: 4) { data in
                        try (data ?? Data()).withUnsafeBytes { try reader.mainValues(utf8: $0) }
                    }
                    let listing = MeasurementListing(
                        id: MeasurementID(row[0] as Int64), recordedAt: row[1], deviceID: row[2],
                        frameCount: frames, comment: row[3], channels: channels)
                    guard batches.add(listing) else { return }
                }
            }
        }
    }

    public func measurementCount(owner: UserID) async throws -> Int {
        try await database.read("count measurements") { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM measurements WHERE user_id = ?", arguments: [owner.rawValue])
                ?? 0
        }
    }

    public func measurement(id: MeasurementID, owner: UserID) async throws -> SavedMeasurement? {
        try await database.read("read a measurement") { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.columns) FROM measurements WHERE id = ? AND user_id = ?",
                arguments: [id.rawValue, owner.rawValue]
            ).map { try Self.measurement($0) }
        }
    }

    public func batches(of id: MeasurementID, owner: UserID) async throws -> [RecordBatch]? {
        try await database.read("read a measurement's records") { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.columns) FROM measurements WHERE id = ? AND user_id = ?",
                    arguments: [id.rawValue, owner.rawValue]
                )
            else { return nil }
            let measurement = try Self.measurement(row)
            guard let hop = measurement.hop, let clock = measurement.clock else { return [] }
            let rows = try Row.fetchCursor(
                db,
                sql:
                    "SELECT first_frame, frame_count, samples FROM measurement_batches WHERE measurement_id = ? ORDER BY sequence",
                arguments: [id.rawValue]
            )
            var batches: [RecordBatch] = []
            while let row = try rows.next() {
                let samples: Data = row["samples"]
                guard let values = DoubleBlob.decode(samples) else {
                    throw SondeError(
                        .invalidInput, "database '\(database.path)': measurement \(id) has a damaged batch")
                }
                batches.append(
                    RecordBatch(
                        fileName: "measurement-\(id)", channelNames: measurement.channelNames,
                        columnCount: measurement.columns.count, firstFrame: row["first_frame"],
                        frameCount: row["frame_count"],
                        hop: hop, clock: clock, values: values
                    )
                )
            }
            return batches
        }
    }

    public func delete(id: MeasurementID, owner: UserID) async throws -> Bool {
        try await database.write("delete a measurement") { db in
            // The batches go with it (ON DELETE CASCADE).
            try db.execute(
                sql: "DELETE FROM measurements WHERE id = ? AND user_id = ?", arguments: [id.rawValue, owner.rawValue])
            return db.changesCount > 0
        }
    }

    /// The columns `measurement(_:reader:)` reads, by position: a lookup by name lower-cases
    /// the name at every row (a tenth of a listing's time, perf).
    private static let columns =
        "id, user_id, recorded_at, device_id, settings, comment, channels, columns, hop, clock, summary"

    private static func measurement(
        _ row: Row, reader: StoredJSONReader = StoredJSONReader()
    ) throws
        -> SavedMeasurement
    {
        let clock: String? = row[9]
        return SavedMeasurement(
            id: MeasurementID(row[0] as Int64), owner: UserID(row[1]), recordedAt: row[2], deviceID: row[3],
            settings: row[4], comment: row[5], channelNames: try StoredJSON.decodeStrings(row[6], with: reader),
            columns: try StoredJSON.decodeStrings(row[7], with: reader), hop: row[8],
            clock: try clock.map { try StoredJSON.decodeClock($0, with: reader) },
            summary: try StoredJSON.decodeSummary(row[10], with: reader)
        )
    }
}
