/// What a Parquet file gets besides its records.
public struct ParquetWriterOptions: Sendable {
    public var compression: ParquetCompression
    /// Records buffered before a row group is written: what bounds the writer's memory
    /// (rows × columns × 8 bytes) and the granularity at which readers skip by statistics.
    public var rowGroupRows: Int
    /// The footer's `key_value_metadata`, in order (`sonde.version`, `sonde.settings`).
    public var keyValueMetadata: [(key: String, value: String)]
    /// The footer's `created_by`, e.g. `sonde version 1.2.0`.
    public var createdBy: String

    /// 65,536 rows: 13 MiB of buffered values for every feature and three bands (25 numeric
    /// columns), the order of DuckDB's 122,880-row groups.
    public static let defaultRowGroupRows = 65_536
    /// Row groups of 1 up to 16 Mi rows.
    public static let rowGroupRowsRange = 1...16_777_216

    public init(
        compression: ParquetCompression = .zstd, rowGroupRows: Int = defaultRowGroupRows,
        keyValueMetadata: [(key: String, value: String)] = [], createdBy: String = "sonde"
    ) {
        self.compression = compression
        self.rowGroupRows = rowGroupRows
        self.keyValueMetadata = keyValueMetadata
        self.createdBy = createdBy
    }
}
